/* The table view (/table): the game in play drawn big, whose turn, the scores, the last moves
   and the computer seat's instructions, for a screen in the middle of the table. Read-only.
   It follows the live stream's shared view (no hand or cup, whatever this browser holds) and
   switches to another game when the stream tells of a step in it or of a ring turned on the
   board; at every (re)connection the server picks the game in play (table_view.py). */
"use strict";
(() => {
  const { el, api, live, coalesce, phraseText, t } = Panel;
  const main = document.querySelector("main.tv");
  let scene = Panel.data;  // {games, rings, game, kind_names, board + seats | colours}
  let versions = versionsOf(scene.games);

  function versionsOf(games) {
    return new Map((games || []).map((g) => [g.id, g.version]));
  }

  /* ---- reading the scene ---- */
  const game = () => scene.game || null;
  const state = () => (game() && game().state) || {};
  const listed = () => (scene.games || []).find((g) => game() && g.id === game().id) || {};
  const seatNames = () => listed().seats || Object.keys(state().scores || {});
  function colourOf(name) {
    const i = seatNames().indexOf(name);
    const own = (scene.colours || {})[name] || (listed().colours || [])[i];
    const seat = (scene.seats || []).find((s) => s.name === name);
    return (seat && seat.colour) || own || "white";
  }

  /* ---- the side: whose turn, the scores, the computer seat, the last moves ---- */
  /* A kind's title ("Ring board (1983)") in the page's language: the scene has it as a phrase. */
  function kindName(kind) {
    const title = (scene.kind_names || {})[kind];
    return title ? phraseText(title) : kind;
  }

  function drawTurn() {
    const line = document.getElementById("tv-turn");
    const g = listed();
    const s = state();
    const over = g.over === undefined ? Boolean(s.over) : g.over;
    const winner = g.winner || s.winner;
    const mover = g.to_move || s.to_move;
    document.getElementById("tv-kind").textContent = game() ?
      kindName(game().kind) : "";
    if (!game()) line.textContent = t("No game in play.");
    else if (over) line.textContent = winner ? t("{name} wins.", { name: winner }) : t("The game is over.");
    else if (mover) {
      const dot = Panel.playerDot(mover, colourOf(mover));
      dot.setAttribute("aria-hidden", "true");  // the words say who
      line.replaceChildren(dot, el("span", { id: "tv-turn-text", text: t("{name}'s turn", { name: mover }) }));
    } else line.textContent = t("In play.");
  }

  /* The ring game's dice (as entered or rolled), each with its colour's letter. */
  function drawDice() {
    const box = document.getElementById("tv-dice");
    const dice = game() && game().kind === "rings" ? (state().live || {}).dice || state().dice : null;
    box.hidden = !dice || Boolean(state().over);
    if (box.hidden) return;
    box.replaceChildren(el("span", { text: t("Dice:") }), ...Object.entries(dice).map(([colour, value]) =>
      el("span", { class: "tv-die", "data-die": colour, title: colour,
        style: `background:${BoardSvg.FILL[colour] || colour};color:${colour === "yellow" ? "#000" : "#fff"}`,
        text: `${Panel.letter(colour)} ${value}` })));
  }

  function drawScores() {
    const g = listed();
    const scores = g.scores || state().scores || {};
    const over = g.over === undefined ? Boolean(state().over) : g.over;
    const mover = over ? null : g.to_move || state().to_move;
    const winner = over ? g.winner || state().winner : null;
    document.getElementById("tv-scores").replaceChildren(...seatNames().map((name) => {
      const points = scores[name];
      const mark = name === mover ? t("to move") : name === winner ? t("wins") : null;
      return el("li", { class: name === mover ? "turn" : name === winner ? "won" : "", "data-seat": name },
        Panel.playerDot(name, colourOf(name)), el("span", { class: "name", text: name }),
        el("strong", { class: "score", text: points === null || points === undefined ?
          "–" : String(points) }),
        mark ? el("span", { class: "mover", text: mark }) : null);
    }));
  }

  const said = (line) => (line && typeof line === "object" ? phraseText(line) : String(line));

  /* What a computer seat asks the table to do now (rings: computer.py; cards: the companion). */
  function computerLines() {
    const s = state();
    if (s.computer) {
      return { say: s.computer.error ? phraseText(s.computer.error) : phraseText(s.computer.phrase),
        rings: (s.computer.rings || []).map((r) => ({ text: phraseText(r.phrase), done: r.done })) };
    }
    if (s.computer_waiting) {
      return { say: t("{name} (computer) waits after the undo.", { name: s.computer_waiting }), rings: [] };
    }
    if (s.companion) return { say: said(s.companion.phrase), rings: [] };
    return null;
  }

  function drawComputer() {
    const now = computerLines();
    document.getElementById("tv-computer").hidden = !now || Boolean(state().over);
    document.getElementById("tv-computer-say").textContent = now ? now.say : "";
    document.getElementById("tv-computer-rings").replaceChildren(...(now ? now.rings : []).map((r) =>
      el("li", { class: r.done ? "ok" : "todo", text: (r.done ? "✓ " : "") + r.text })));
  }

  /* The last moves, newest first, in the words the game's log already has (each step's
     instructions); as many as fit. */
  function drawEvents() {
    const log = state().log || [];
    const lines = [];
    for (let i = log.length - 1; i >= 0 && lines.length < 6; i -= 1) {
      const words = (log[i].instructions || []).map(said).filter(Boolean);
      if (words.length) lines.push(el("li", { "data-step": i + 1, text: words.join(". ") }));
    }
    // a game whose steps have no words (an imported record) shows no list, not "nothing yet"
    if (!lines.length && !log.length) lines.push(el("li", { class: "muted", text: t("Nothing yet.") }));
    const list = document.getElementById("tv-events");
    list.replaceChildren(...lines);
    const section = list.closest("section");
    section.hidden = !game() || !lines.length;
    const side = document.querySelector(".tv-side");
    const over = () => side.scrollHeight > side.clientHeight;
    while (list.children.length > 1 && over()) list.lastChild.remove();
    if (over()) section.hidden = true;  // no room even for one: the rest comes first
  }

  /* ---- the board ---- */
  function ringOffsets() {
    const rings = scene.rings || {};
    const onBoard = rings.game === game().id && Array.isArray(rings.offsets) && rings.offsets.length === 10;
    return onBoard ? rings.offsets : state().offsets || new Array(10).fill(0);
  }

  const DRAW = {
    rings: () => {
      const svg = document.getElementById("tv-rings");
      const offsets = ringOffsets();
      BoardSvg.draw(svg, scene.board, BoardSvg.scene(scene.board, scene.seats || [], state(),
        offsets, offsets, true));
      return svg;
    },
    icehouse: () => {
      const svg = document.getElementById("tv-spiral");
      IcehouseDraw.spiral(svg, state(), { ahead: IcehouseDraw.ahead(state()), colours: colourMap() });
      return svg;
    },
    stones: () => {
      StonesDraw.board(document.getElementById("tv-stones-board"), state(), {});
      return document.getElementById("tv-stones");
    },
    cards: () => {
      const box = document.getElementById("tv-cards");
      const s = state();
      const names = Object.keys(s.rivers || {});
      const mandalas = el("div", { class: "cards-mandalas" });
      CardsDraw.mandalas(mandalas, s, names);
      // the public areas only: a hand or a cup is never shown, only how many cards it holds
      const count = (held) => (typeof held === "number" ? held :
        Object.values(held || {}).reduce((a, n) => a + n, 0));
      const seats = names.map((name) => el("div", { class: "tv-river", "data-player": name },
        el("h3", {}, Panel.playerDot(name, colourOf(name)), " ", t("{name}'s river", { name })), CardsDraw.river(s.rivers[name]),
        el("p", { class: "muted" }, t("Hand:"), CardsDraw.hidden(count(s.hands[name]))),
        el("p", { class: "muted" }, t("Cup:"), CardsDraw.hidden(count(s.cups[name])))));
      box.replaceChildren(mandalas, el("div", { class: "tv-rivers" }, ...seats));
      return box;
    },
  };
  function colourMap() {
    return Object.fromEntries(seatNames().map((name) => [name, colourOf(name)]));
  }

  function drawBoard() {
    const boxes = ["tv-rings", "tv-spiral", "tv-stones", "tv-cards", "tv-none"];
    const kind = game() && !state().error ? game().kind : null;
    const draw = DRAW[kind];
    const shown = draw ? draw() : document.getElementById("tv-none");
    if (!draw) {
      shown.textContent = !game() ? t("No game yet. Start one on a phone: it appears here.") :
        state().error ? t("This game cannot be shown: {error}", { error: state().error }) :
          t("This game is followed on the right.");
    }
    // (the attribute: an SVG element has no ``hidden`` property)
    for (const id of boxes) document.getElementById(id).toggleAttribute("hidden", document.getElementById(id) !== shown);
  }

  function draw() {
    main.dataset.shown = game() ? game().id : "";
    main.dataset.kind = game() ? game().kind : "";
    // join.js: the address's code, and one per free seat of the game shown (a hidden card game)
    const join = document.getElementById("join");
    if (join && join.dataset.game !== main.dataset.shown) join.dataset.game = main.dataset.shown;
    drawBoard();
    drawTurn();
    drawDice();
    drawScores();
    drawComputer();
    drawEvents();
  }

  /* ---- following ---- */
  // /table?game=ID shows that game only; /table follows the game in play
  const pinned = new URLSearchParams(window.location.search).get("game");
  let wanted = pinned;  // the game to show next; null: the one the server says is in play
  const fetchScene = coalesce(async () => {
    const asked = wanted;
    let answer;
    try {
      answer = await api("GET", asked ? "/api/table?game=" + encodeURIComponent(asked) : "/api/table");
    } catch (error) {
      if (error.status === 404 && asked && !pinned) { wanted = null; fetchScene(); }  // gone meanwhile
      throw error;
    }
    // a newer view of the same game, told by the stream meanwhile, is kept
    if (answer.game && game() && answer.game.id === game().id && Panel.isOlder(answer.game, game())) {
      answer.game = game();
    }
    scene = answer;
    versions = versionsOf(scene.games);
    draw();
  });
  function show(id) { wanted = pinned || id; fetchScene(); }

  /* A games list told by the stream: a game that took a step (or is new) is now in play. */
  function takeGames(games) {
    const moved = games.filter((g) => versions.get(g.id) !== g.version && !g.error);
    versions = versionsOf(games);
    scene = { ...scene, games };
    const next = moved.sort((a, b) => String(b.updated).localeCompare(String(a.updated)))[0];
    if (next && (!game() || next.id !== game().id)) show(next.id);
    else draw();
  }

  function takeBoard(item) {
    const before = scene.rings;
    const board = Panel.mergeBoard(before, item);  // null: a change was missed
    if (board === null) { show(game() ? game().id : null); return; }
    scene = { ...scene, rings: board };
    const turned = JSON.stringify(board.offsets) !== JSON.stringify((before || {}).offsets);
    if (turned && board.game && (!game() || board.game !== game().id)) show(board.game);
    else if (game() && board.game === game().id) drawBoard();
  }

  live((item) => {
    if (item.type === "state") { show(null); return; }  // (re)connected: the game in play now
    if (item.type === "games" && Array.isArray(item.games)) { takeGames(item.games); return; }
    if (item.type === "board") { takeBoard(item); return; }
    if ((item.type === "game" || item.type === "live") && game() && item.id === game().id) {
      if (item.deleted) { show(null); return; }
      const view = Panel.merge(game(), item);  // null: a change was missed
      if (view === null) show(game().id);
      else if (view !== game()) { scene = { ...scene, game: view }; draw(); }
    }
  }, main.dataset.events);

  /* ---- the screen stays awake where the browser allows (said nothing when refused) ---- */
  async function keepAwake() {
    if (!navigator.wakeLock || document.visibilityState !== "visible") return;
    try {
      await navigator.wakeLock.request("screen");
      main.dataset.awake = "yes";
    } catch (error) {
      main.dataset.awake = "refused";
    }
  }
  // the lock goes when the page is hidden; it is asked for again when the page comes back
  document.addEventListener("visibilitychange", keepAwake);
  keepAwake();
  window.addEventListener("resize", drawEvents);
  // what fills the join block (join.js, its QR code) takes room: the last moves make way
  new MutationObserver(drawEvents).observe(document.getElementById("join"),
    { childList: true, subtree: true, attributes: true, attributeFilter: ["hidden"] });

  draw();
})();
