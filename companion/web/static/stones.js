/* Mandala Stones: the generated main board to build from, then each PICK (artist,
   destination, first stone, player-board space) and SCORE (an option from the engine's
   list, best first, and the mandala order), objectives, undo, live on every phone.
   No rule is worked out here: the legal picks and the score options come with the state. */
"use strict";
(() => {
  const { el, api, live, say, coalesce, letter, t, tn } = Panel;
  let game = Panel.data.game;
  const url = "/api/games/" + encodeURIComponent(game.id);
  const { DIRS, dirLetter, key, same, cellText, next, patternName, stoneWords } = StonesDraw;
  const COLOUR_NAME = { red: () => t("Red"), purple: () => t("Purple"), blue: () => t("Blue"),
    yellow: () => t("Yellow") };
  const colourName = (colour) => (Object.hasOwn(COLOUR_NAME, colour) ? COLOUR_NAME[colour]() :
    String(colour));
  let pick = {};  // what this phone has chosen of the PICK so far: artist, to, first, space
  let chosen = null;  // the score option chosen (its index in score_options)
  let order = [];  // the mandala order being tapped for the chosen option

  const st = () => game.state || {};
  const seats = () => Object.keys(st().scores || {});
  const moverName = () => (st().phase === "over" ? null : st().to_move);
  const moverBoard = () => ((st().boards || {})[moverName()] || []);
  const artistAt = (cell) => StonesDraw.artistAt(st(), cell);
  const picksOf = (artist) => StonesDraw.picksOf(st(), artist);
  const movePick = () => StonesDraw.movePick(st(), pick);

  const { stone } = StonesDraw;
  const tower = () => StonesDraw.tower(st(), pick);

  /* ---- the main board ---- */
  function drawBoard() {
    StonesDraw.board(document.getElementById("main-board"), st(), pick);
  }

  function tapBoard(event) {
    const target = event.target.closest("[data-cell]");
    if (!target || st().phase !== "play") return;
    const cell = target.getAttribute("data-cell").split(",").map(Number);
    const s = st();
    if (artistAt(cell) && picksOf(cell).length) {
      pick = same(cell, pick.artist) ? {} : { artist: cell };
    } else if (pick.artist && picksOf(pick.artist).some((p) => same(p.to, cell))) {
      pick = { artist: pick.artist, to: cell, space: pick.space };
      const move = movePick();
      if (move.first.length === 1) pick.first = move.first[0];
    } else if (pick.to) {
      const move = movePick();
      const d = DIRS.find((dir) => same(next(pick.to, dir), cell));
      if (!d || !move.first.includes(d)) {
        say(t("The stack at {cell} is not eligible for this artist.", { cell: cellText(cell) }));
        return;
      }
      pick.first = d;
    } else if (!(s.picks || []).length) {
      return;
    } else {
      say(pick.artist ? t("Tap an outlined artist space for the artist.") :
        t("Tap an outlined artist first."));
      return;
    }
    say("");
    drawPick();
    drawBoard();
  }

  /* ---- PICK ---- */
  function drawPick() {
    const s = st();
    const panel = document.getElementById("pick-panel");
    const canPick = s.phase === "play" && (s.picks || []).length > 0;
    panel.hidden = !canPick;
    const steps = document.getElementById("pick-step");
    steps.hidden = !canPick;
    if (!canPick) return;
    const board = moverBoard();
    if (!pick.artist) steps.textContent = t("1. Tap the artist to move (outlined in blue).");
    else if (!pick.to) steps.textContent = t("2. Tap the artist space it moves to (outlined).");
    else if (!pick.first) {
      steps.textContent = t("3. Tap the first stone (stacks outlined in green); the others follow clockwise.");
    } else if (!pick.space) {
      steps.textContent = t("4. Choose the space on {name}'s player board (below).", { name: moverName() });
    } else steps.textContent = t("Check, then record the PICK.");
    const spaces = document.getElementById("pick-spaces");
    spaces.replaceChildren(el("span", { class: "muted", text: t("Space:") }),
      ...[1, 2, 3, 4, 5].map((n) => el("button", { type: "button", class: "small",
        "data-space": n, "aria-pressed": pick.space === n ? "true" : "false",
        disabled: (board[n - 1] || []).length > 0 || !pick.first,
        "aria-label": t("player-board space {number}", { number: n }), text: String(n) })));
    const stones = tower();
    const summary = document.getElementById("pick-summary");
    summary.replaceChildren();
    if (pick.artist) {
      const artist = artistAt(pick.artist);
      summary.append(t("{pattern} artist {cell}",
        { pattern: artist ? patternName(artist.pattern) : "", cell: cellText(pick.artist) }));
      if (pick.to) summary.append(` → ${cellText(pick.to)}`);
      if (stones.length) {
        summary.append(t(", tower (bottom first):"), " ");
        for (const [d, name] of stones) summary.append(stone(name, true), ` ${dirLetter(d)} `);
      }
      if (pick.space) summary.append(t("→ space {space}", { space: pick.space }));
    }
    document.getElementById("pick-go").disabled = !(pick.artist && pick.to && pick.first && pick.space);
  }

  function tapSpace(event) {
    const button = event.target.closest("[data-space]");
    if (!button || button.disabled) return;
    pick.space = Number(button.getAttribute("data-space"));
    drawPick();
  }

  /* ---- SCORE ---- */
  function describe(action) {
    const spaces = [...(action.score === "colour" ? action.order : action.spaces)].sort();
    const values = { spaces: spaces.join(", ") };
    if (action.score === "colour") {
      return tn("{colour} ({letter}) tops: space {spaces}", "{colour} ({letter}) tops: spaces {spaces}",
        spaces.length, { ...values, colour: colourName(action.colour), letter: letter(action.colour) });
    }
    return tn("Top stone of space {spaces}", "Top stones of spaces {spaces}", spaces.length, values);
  }

  function why(option) {
    const values = { stones: option.stones_vp, bonus: option.bonus_vp };
    const text = option.action.score === "colour" ?
      t("{stones} by the spaces' rules + {bonus} mandala bonus", values) :
      t("{stones} (1 per stone) + {bonus} mandala bonus", values);
    return option.covers_end ? text + " · " + t("covers the end place") : text;
  }

  function optionSpaces(option) {
    return option.action.score === "colour" ? option.action.order : option.action.spaces;
  }

  function drawScore() {
    const s = st();
    const options = s.score_options || [];
    const panel = document.getElementById("score-panel");
    panel.hidden = s.phase !== "play" || !options.length;
    const list = document.getElementById("options");
    list.replaceChildren(...options.map((option, i) => el("li", {},
      el("button", { type: "button", "data-option": i, "data-action": JSON.stringify(option.action),
        "aria-pressed": chosen === i ? "true" : "false" },
        el("span", { class: "vp", text: `+${option.vp}` }),
        el("span", { class: "what" }, el("span", { class: "label", text: describe(option.action) }),
          el("span", { class: "why", text: why(option) }))))));
    const box = document.getElementById("order-box");
    const option = chosen === null ? null : options[chosen];
    const spaces = option ? optionSpaces(option) : [];
    box.hidden = spaces.length < 2;
    document.getElementById("order-now").textContent =
      order.length ? order.join(" → ") + (order.length < spaces.length ? " …" : "") : "…";
    document.getElementById("order-spaces").replaceChildren(...spaces.map((n) => el("button", {
      type: "button", class: "small", "data-order": n, "aria-pressed": order.includes(n) ? "true" : "false",
      text: order.includes(n) ? t("space {number} ({place}.)", { number: n, place: order.indexOf(n) + 1 }) :
        t("space {number}", { number: n }) })));
    document.getElementById("score-go").disabled = !option || order.length !== spaces.length;
  }

  function tapOption(event) {
    const button = event.target.closest("[data-option]");
    if (!button) return;
    const i = Number(button.getAttribute("data-option"));
    chosen = chosen === i ? null : i;
    order = chosen === null ? [] : [...optionSpaces(st().score_options[i])];
    drawScore();
  }

  function tapOrder(event) {
    const button = event.target.closest("[data-order]");
    if (!button || chosen === null) return;
    const n = Number(button.getAttribute("data-order"));
    const spaces = optionSpaces(st().score_options[chosen]);
    if (order.length === spaces.length) order = [n];
    else if (!order.includes(n)) order.push(n);
    drawScore();
  }

  /* ---- the rest of the page ---- */
  function drawHeader() {
    const s = st();
    const line = document.getElementById("turn-line");
    const seatList = seats();
    if (s.over) {
      line.replaceChildren(el("span", { text: t("Game over: {name} wins with {vp} VP",
        { name: s.winner, vp: s.scores[s.winner] }) }));
    } else if (s.phase === "objectives") {
      line.replaceChildren(el("span", { text: t("Play has stopped: {name} enters the objective scored",
        { name: s.to_move }) }));
    } else {
      const values = { name: s.to_move };
      line.replaceChildren(el("span", { text: (s.picks || []).length ?
        t("{name} to play: PICK or SCORE", values) : t("{name} to play: SCORE", values) }));
      if (s.end_triggered) line.append(el("small", { text: t("· end place covered: the round is finishing") }));
    }
    document.getElementById("scores").replaceChildren(...seatList.map((name) => el("span", {
      class: "chip" + (name === moverName() ? " turn" : ""), "data-seat": name },
    Panel.playerDot(name),
    el("span", { text: s.winner === name ? t("{name} (winner)", { name }) : name }),
    el("span", { class: "score", text: String(s.scores[name]) }), t("VP"))));
  }

  function ruleText(space, n) {
    if (space.rule === "heights") {
      return space.count_empty ? t("{number} · heights (empty = 0)", { number: n }) :
        t("{number} · heights", { number: n });
    }
    if (space.rule === "level") return t("{number} · level {table}", { number: n, table: space.table.join("/") });
    return t("{number} · colours", { number: n });
  }

  function drawPlayerBoards() {
    const s = st();
    const rules = s.spaces || [];
    document.getElementById("player-boards").replaceChildren(...seats().map((name) => el("div", {
      class: "pboard" + (name === moverName() ? " turn" : ""), "data-board": name },
    el("h3", { text: t("{name}: {vp} VP", { name, vp: s.scores[name] }) }),
    el("div", { class: "spaces" }, (s.boards[name] || []).map((towerNow, i) => el("div", {
      class: "space", "data-space-of": `${name}:${i + 1}`,
      "aria-label": t("{name} space {number}: {stones}",
        { name, number: i + 1, stones: towerNow.map(stoneWords).join(", ") || t("empty") }) },
    el("div", { class: "towers" }, towerNow.map((n) => stone(n))),
    el("div", { class: "rule", text: rules[i] ? ruleText(rules[i], i + 1) : String(i + 1) })))))));
  }

  function drawMandala() {
    const s = st();
    const placed = s.mandala || [];
    const places = s.places || 0;
    const cells = [];
    for (let n = 1; n <= Math.max(places, placed.length); n += 1) {
      const bonus = (s.bonus || {})[String(n)];
      const classes = ["place"];
      if (bonus) classes.push("bonus");
      if (n === s.end_place) classes.push("end");
      cells.push(el("div", { class: classes.join(" "), "data-place": n, title: placeTitle(n, bonus, n === s.end_place) },
      el("span", { class: "n", text: n === s.end_place ? t("{number} end", { number: n }) :
        bonus ? `${n} +${bonus}` : String(n) }),
      placed[n - 1] ? stone(placed[n - 1]) : null));
    }
    document.getElementById("mandala").replaceChildren(...cells);
    const stones = tn("{count} stone", "{count} stones", placed.length);
    const seatCount = tn("{count} seat", "{count} seats", seats().length);
    document.getElementById("mandala-note").textContent =
      t("{stones} placed of {places} places; bonus places in yellow (+VP), the end place for {seats} is {end} (red border).",
        { stones, places, seats: seatCount, end: s.end_place });
  }

  /* A mandala place's title: its number, its bonus and whether it is the end place. */
  function placeTitle(n, bonus, end) {
    const values = { number: n, bonus };
    if (bonus && end) return t("place {number}, +{bonus} VP, the end place", values);
    if (bonus) return t("place {number}, +{bonus} VP", values);
    if (end) return t("place {number}, the end place", values);
    return t("place {number}", values);
  }

  function actionText(entry, i) {
    const action = entry.action || {};
    const names = seats();
    if (action.objective !== undefined) return t("{name}: objective {vp} VP", { name: action.objective, vp: action.vp });
    const who = names[i % names.length];
    if (action.pick) {
      const p = action.pick;
      return t("{name}: PICK artist {from} → {to}, first {first}, space {space}", { name: who,
        from: cellText(p.artist), to: cellText(p.to), first: dirLetter(p.first), space: p.space });
    }
    return t("{name}: SCORE {option}; mandala order {order}",
      { name: who, option: describe(action), order: action.order.join(", ") });
  }

  function drawHistory() {
    const log = st().log || [];
    document.getElementById("history").replaceChildren(...log.map((entry, i) =>
      el("li", { text: actionText(entry, i) })));
  }

  function drawObjective() {
    const s = st();
    const panel = document.getElementById("objective-panel");
    panel.hidden = s.phase !== "objectives";
    if (!panel.hidden) {
      document.getElementById("objective-label").firstChild.textContent =
        t("VP of {name}'s objective (0 if none)", { name: s.to_move }) + " ";
    }
  }

  function drawStackList() {
    const stacks = st().stacks || {};
    document.getElementById("stack-list").replaceChildren(...Object.entries(stacks).map(([k, stack]) =>
      el("li", {}, t("[{cell}] bottom → top:", { cell: k.replace(",", ", ") }), " ",
        stack.length ? stack.flatMap((n) => [stone(n), " "]) : t("empty"))));
    const colours = ["red", "purple", "blue", "yellow"].map((c) => `${letter(c)} ${Panel.colourName(c)}`).join(", ");
    document.getElementById("legend").textContent = t("Letters: {colours}; • dots, ≡ lines. Each stack's bottom stone is at the bottom. The circles are the artists, drawn with their pattern.", { colours });
  }

  function draw() {
    // the scores are only as true as the data file's values
    document.getElementById("placeholder-banner").hidden = !st().placeholder;
    drawHeader();
    drawPick();
    drawBoard();
    drawScore();
    drawObjective();
    drawPlayerBoards();
    drawMandala();
    drawHistory();
    drawStackList();
    document.getElementById("undo").disabled = !(st().log || []).length;
  }

  function take(answer) {
    if (answer.version !== game.version) { pick = {}; chosen = null; order = []; }
    game = answer;
    draw();
  }

  const refresh = coalesce(async () => take(await api("GET", url)));

  async function post(path, body) {
    try { take(await api("POST", url + path, { version: game.version, ...body })); return true; }
    catch (error) { if (error.status === 409) refresh(); return false; }
  }

  document.getElementById("main-board").addEventListener("click", tapBoard);
  document.getElementById("pick-spaces").addEventListener("click", tapSpace);
  document.getElementById("options").addEventListener("click", tapOption);
  document.getElementById("order-spaces").addEventListener("click", tapOrder);
  document.getElementById("pick-clear").addEventListener("click", () => { pick = {}; draw(); });
  document.getElementById("pick-go").addEventListener("click", async () => {
    const { artist, to, first, space } = pick;
    if (await post("/actions", { action: { pick: { artist, to, first, space } } })) say(t("PICK recorded."), "ok");
  });
  document.getElementById("score-go").addEventListener("click", async () => {
    const option = st().score_options[chosen];
    const action = { ...option.action, order: [...order] };
    if (await post("/actions", { action })) say(t("SCORE recorded."), "ok");
  });
  document.getElementById("objective").addEventListener("submit", async (event) => {
    event.preventDefault();
    const text = document.getElementById("objective-vp").value.trim();
    const vp = /^[0-9]+$/.test(text) ? Number(text) : text;
    if (await post("/actions", { action: { objective: st().to_move, vp } })) {
      document.getElementById("objective-vp").value = "0";
    }
  });
  document.getElementById("undo").addEventListener("click", async () => {
    if (await post("/undo", {})) say(t("Undone."), "ok");
  });

  live((item) => {
    if (item.type === "game" && item.id === game.id && !item.deleted) {
      const view = Panel.merge(game, item);  // null: a change was missed
      if (view === null) refresh();
      else if (view !== game) take(view);
    } else if (item.type === "state") refresh();
  });
  draw();
})();
