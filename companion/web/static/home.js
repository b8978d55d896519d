/* Home: the games here as cards (players and their colours, whose turn or who won, the
   score, when it started and last moved; finished games apart), a new game with exactly the
   seats the game allows, an import. */
"use strict";
(() => {
  const { el, api, live, say, sayError, coalesce, data, playerDot, t, tn, colourName, locale } = Panel;
  const KIND = data.kind_names || {};
  let players = Object.assign({}, data.player_colours || {});

  /* ---- the games ---- */
  function stateLine(g) {
    if (g.error) return t("cannot be read: {error}", { error: g.error });
    if (g.over) return g.winner ? t("{name} won", { name: g.winner }) : t("over: a draw");
    return g.to_move ? t("{name}'s turn", { name: g.to_move }) : t("in play");
  }

  function gameCard(g) {
    const href = "/games/" + encodeURIComponent(g.id);
    const colours = g.colours || [];
    const scores = g.scores || {};
    const people = (g.seats || []).map((name, i) => el("span", {
      class: "player" + (g.to_move === name ? " turn" : "") + (g.winner === name ? " won" : ""),
      "data-player": name },
      playerDot(name, colours[i] || "white"), el("span", { text: name }),
      name in scores ? el("strong", { class: "score", text: String(scores[name]) }) : null,
      g.to_move === name ? el("small", { class: "mark", text: t("← to move") }) : null,
      g.winner === name ? el("small", { class: "mark", text: t("★ won") }) : null));
    return el("li", { class: "game-card", "data-id": g.id },
      el("a", { class: "resume", href }, el("strong", { text: KIND[g.kind] || g.kind }),
        el("span", { class: "state", text: " · " + stateLine(g) })),
      el("div", { class: "players" }, ...people),
      el("small", { class: "when", "data-created": g.created, "data-updated": g.updated,
        "data-time-from": g.time_from, text: when(g) }),
      el("span", { class: "row actions", "data-feedback": true },
        el("a", { class: "button", href, text: g.over ? t("Open") : t("Resume") }),
        el("a", { class: "button", href: href.replace("/games/", "/api/games/") + "/record",
          download: true, text: t("Export") }),
        el("button", { type: "button", class: "danger", "data-delete": g.id, text: t("Delete") })));
  }

  function clock(iso) {
    const at = new Date(iso);
    if (Number.isNaN(at.getTime())) return "";
    const today = new Date().toDateString() === at.toDateString();
    const time = at.toLocaleTimeString(locale(), { hour: "2-digit", minute: "2-digit" });
    if (today) return t("today {time}", { time });
    return t("{date} {time}", { date: at.toLocaleDateString(locale(), { day: "numeric", month: "short" }), time });
  }

  function ago(iso) {
    const seconds = Math.max(0, Math.round((Date.now() - new Date(iso).getTime()) / 1000));
    if (seconds < 60) return t("{seconds} s ago", { seconds });
    if (seconds < 3600) return t("{minutes} min ago", { minutes: Math.round(seconds / 60) });
    if (seconds < 86400) return t("{hours} h ago", { hours: Math.round(seconds / 3600) });
    return tn("{count} day ago", "{count} days ago", Math.round(seconds / 86400));
  }

  function when(g) {
    // A box that never reached a time server stamps with the first phone's clock: say so.
    const values = { start: clock(g.created), ago: ago(g.updated) };
    return g.time_from === "phone" ?
      t("started {start} · last move {ago} · times from a phone's clock", values) :
      t("started {start} · last move {ago}", values);
  }

  // The list is paged, newest first (?page=N); live updates carry the first page.
  const pages = document.getElementById("pages");
  const page = Number(pages.dataset.page) || 1;

  function renderPages(answer) {
    const link = (n, rel, text) => el("a", { class: "button", rel, href: "/?page=" + n, text });
    pages.replaceChildren(...[
      answer.page > 1 ? link(answer.page - 1, "prev", t("Newer games")) : null,
      el("small", { text: tn("page {page} of {pages} ({count} game)", "page {page} of {pages} ({count} games)",
        answer.total, { page: answer.page, pages: answer.pages }) }),
      answer.page < answer.pages ? link(answer.page + 1, "next", t("More games")) : null,
    ].filter(Boolean));
    pages.hidden = answer.pages <= 1 && answer.page === 1;
  }

  function render(games) {
    const playing = games.filter((g) => !g.over);  // newest first, as the table lists them
    const finished = games.filter((g) => g.over);
    const list = document.getElementById("games");
    list.replaceChildren(...playing.map(gameCard));
    if (!playing.length) {
      list.append(el("li", { class: "empty", text: page > 1 ? t("No game in play on this page.") :
        games.length ? t("No game in play.") : t("No games yet.") }));
    }
    document.getElementById("finished").replaceChildren(...finished.map(gameCard));
    document.getElementById("finished-title").hidden = !finished.length;
    for (const g of games) {
      (g.seats || []).forEach((name, i) => { if (g.colours && !(name in players)) players[name] = g.colours[i]; });
    }
  }

  window.setInterval(() => {
    for (const small of document.querySelectorAll(".game-card .when")) {
      small.textContent = when({ created: small.dataset.created, updated: small.dataset.updated,
        time_from: small.dataset.timeFrom });
    }
  }, 10000);

  const refresh = coalesce(async () => {
    const answer = await api("GET", "/api/games?page=" + page);
    render(answer.games);
    renderPages(answer);
  });

  /* Delete asks on the card itself, not in a browser dialog. */
  function askDelete(card, id) {
    const actions = card.querySelector(".actions");
    actions.hidden = true;
    const ask = el("div", { class: "row confirm-delete", "data-feedback": true, role: "group",
      "aria-label": t("delete this game?") },
      el("span", { text: t("Delete this game for good? It cannot be brought back.") }),
      el("button", { type: "button", class: "danger", "data-delete-yes": id, text: t("Delete it"),
        onclick: async () => {
          try {
            await api("DELETE", "/api/games/" + encodeURIComponent(id));
            say(t("Game deleted."), "ok", null);
            refresh();
          } catch (error) {  // the card as it was, with why next to its buttons
            ask.remove();
            actions.hidden = false;
            sayError(error, null, actions);
          }
        } }),
      el("button", { type: "button", text: t("Keep it"),
        onclick: () => { ask.remove(); actions.hidden = false; } }));
    actions.after(ask);
  }

  for (const id of ["games", "finished"]) {
    document.getElementById(id).addEventListener("click", (event) => {
      const target = event.target.closest && event.target.closest("[data-delete]");
      if (target) askDelete(target.closest(".game-card"), target.getAttribute("data-delete"));
    });
  }

  /* ---- a new game: the seats the game allows ----
     The server describes each kind's form (data.forms, from the kind's adapter): its seats
     ([low, high], or per variant), whether a seat is a plain name or a ring-board seat
     (corner, colour, computer, hints), its own options block (a [data-options] fieldset
     whose [data-key] controls go into the body) and whether it takes a layout seed. */
  const kind = document.getElementById("kind");
  const rows = document.getElementById("seats");
  const template = document.getElementById("seat-row");
  const DEFAULT_NAMES = ["Ann", "Bo"];
  const optionBlocks = [...document.querySelectorAll("[data-options]")];

  const form = () => (data.forms || {})[kind.value] || { seats: [1, 5], seat_fields: "name", seed: true };
  const seatObjects = () => form().seat_fields === "seat";
  const options = () => optionBlocks.find((block) => block.id === form().options) || null;
  const option = (key) => {
    const control = options() && options().querySelector(`[data-key="${key}"]`);
    return control ? control.value : "";
  };

  function limits() {
    const rule = form().seats || [1, 5];
    return Array.isArray(rule) ? rule : rule[option("variant")] || [1, 4];
  }

  /* The colour a new name gets (as companion/table/colours.py picks it). */
  function stablePick(name) {
    let digest = 0x811c9dc5;
    for (const byte of new TextEncoder().encode(name.trim().toLowerCase())) {
      digest = Math.imul(digest ^ byte, 0x01000193) >>> 0;
    }
    const palette = data.palette || ["orange"];
    return palette[digest % palette.length];
  }

  function freeCorner() {
    const used = new Set([...rows.querySelectorAll(".seat")].map((r) => r.dataset.corner));
    for (const c of ["0", "2", "1", "3"]) if (!used.has(c)) return c;
    return "0";
  }

  function setCorner(row, corner) {
    row.dataset.corner = corner;
    for (const button of row.querySelectorAll("[data-corner]")) {
      button.setAttribute("aria-pressed", String(button.dataset.corner === corner));
    }
  }

  function setColour(row) {
    const name = row.querySelector("[name=seat-name]").value.trim();
    const select = row.querySelector("[name=seat-colour]");
    if (!name || select.dataset.chosen) return;
    const wanted = players[name] || stablePick(name);
    if (select.querySelector(`option[value="${CSS.escape(wanted)}"]`)) select.value = wanted;
  }

  function addRow(name) {
    const row = template.content.firstElementChild.cloneNode(true);
    rows.append(row);
    const input = row.querySelector("[name=seat-name]");
    input.value = name || "";
    setCorner(row, freeCorner());
    input.addEventListener("input", () => setColour(row));
    row.querySelector("[name=seat-colour]").addEventListener("change", (event) => {
      event.target.dataset.chosen = "1";
    });
    for (const button of row.querySelectorAll("[data-corner]")) {
      button.addEventListener("click", () => setCorner(row, button.dataset.corner));
    }
    row.querySelector(".remove-seat").addEventListener("click", () => { row.remove(); drawRows(); });
    setColour(row);
    return row;
  }

  function drawRows() {
    const [low, high] = limits();
    const all = [...rows.querySelectorAll(".seat")];
    // rows the game cannot take go, unless a name is in them (then Start says so)
    for (const row of all.slice(high).reverse()) {
      if (!row.querySelector("[name=seat-name]").value.trim()) row.remove();
    }
    while (rows.querySelectorAll(".seat").length < low) addRow(DEFAULT_NAMES[rows.children.length] || "");
    const count = rows.querySelectorAll(".seat").length;
    const isRings = seatObjects();
    rows.querySelectorAll(".seat").forEach((row, i) => {
      row.querySelector(".seat-title").textContent = t("Player {number}", { number: i + 1 });
      row.querySelector("[name=seat-name]").setAttribute("aria-label", t("player {number} name", { number: i + 1 }));
      row.querySelector(".remove-seat").hidden = count <= low;
      row.querySelector(".remove-seat").setAttribute("aria-label", t("remove player {number}", { number: i + 1 }));
      row.querySelector(".corners").hidden = !isRings;
      for (const option of row.querySelectorAll(".seat-option")) option.hidden = !isRings;
    });
    const add = document.getElementById("add-seat");
    add.hidden = count >= high;
    const game = KIND[kind.value] || kind.value;
    document.getElementById("seat-rule").textContent = low === high ?
      tn("{game}: {count} player", "{game}: {count} players", low, { game }) :
      t("{game}: {low} to {high} players", { game, low, high });
    document.getElementById("computer-note").hidden = !isRings;
  }

  document.getElementById("add-seat").addEventListener("click", () => {
    addRow("").querySelector("[name=seat-name]").focus();
    drawRows();
  });

  /* The players here (the logbook's, most plays first): a tap seats one in the first empty
     row, or in a new row while the game takes more. */
  for (const button of document.querySelectorAll("[data-known-player]")) {
    button.addEventListener("click", () => {
      const name = button.dataset.knownPlayer;
      const inputs = [...rows.querySelectorAll("[name=seat-name]")];
      const same = (input) => input.value.trim().toLowerCase() === name.toLowerCase();
      if (inputs.some(same)) { say(t("{name} is already seated.", { name }), "error"); return; }
      let input = inputs.find((each) => !each.value.trim());
      if (!input) {
        if (document.getElementById("add-seat").hidden) {
          say(t("No seat left for {name}: remove a player first.", { name }), "error");
          return;
        }
        input = addRow("").querySelector("[name=seat-name]");
        drawRows();
      }
      input.value = name;
      setColour(input.closest(".seat"));
    });
  }

  /* A row of an options block shows when its conditions hold (data-shown-when: "key=value"
     for a [data-key] control, "computer" for a computer opponent chosen). */
  function holds(block, conditions) {
    return conditions.split(" ").every((condition) => {
      const [key, value] = condition.split("=");
      if (value === undefined) {
        const control = block.querySelector(`[data-${key}]`);
        return Boolean(control && control.value);
      }
      const control = block.querySelector(`[data-key="${key}"]`);
      return Boolean(control) && control.value === value;
    });
  }
  const showRows = () => {
    for (const block of optionBlocks) {
      for (const row of block.querySelectorAll("[data-shown-when]")) {
        row.hidden = !holds(block, row.dataset.shownWhen);
      }
    }
  };
  // an option whose game keeps its layout unknown (a card game played on the panel
  // shuffles its own deck) has no seed; so has a game with no random layout
  const noSeed = () => options() !== null &&
    [...options().querySelectorAll("select")].some((select) => {
      const chosen = select.selectedOptions[0];
      return Boolean(chosen && chosen.hasAttribute("data-no-seed"));
    });
  const showOptions = () => {
    for (const block of optionBlocks) block.hidden = block !== options();
    document.getElementById("seed-row").hidden = !form().seed || noSeed();
    drawRows();
  };
  kind.addEventListener("change", showOptions);
  for (const block of optionBlocks) {
    for (const control of block.querySelectorAll("select")) {
      control.addEventListener("change", () => { showRows(); showOptions(); });
    }
  }
  showRows();
  // the computer opponent chosen in the kind's options (its row shown), and its seat
  const computerControl = (name) => {
    const control = options() && options().querySelector(`[data-${name}]`);
    return control && !control.closest("[hidden]") ? control : null;
  };
  const against = () => (computerControl("computer") ? computerControl("computer").value : "");

  /* The API's refusals of a new game, in the words of the form. */
  const CORNER_PLACES = [() => t("top right"), () => t("bottom right"), () => t("bottom left"),
    () => t("top left")];
  /* The ring board's variants as the form names them (the API's own keys otherwise). */
  const VARIANTS = { standard: () => t("standard"), "two-bases": () => t("two-bases"),
    solo: () => t("solo") };
  const variantName = (variant) => (Object.hasOwn(VARIANTS, variant) ? VARIANTS[variant]() : variant);
  function plainStart(message, names) {
    const who = (i) => names[i] || t("Player {number}", { number: i + 1 });
    const ownerOf = (corner, before) => {
      const rowsNow = [...rows.querySelectorAll(".seat")];
      const index = rowsNow.findIndex((r, i) => i < before && r.dataset.corner === String(corner));
      return index >= 0 ? who(index) : t("another player");
    };
    let m = /^seats\[(\d+)\]: corner (\d+) is already taken/.exec(message);
    if (m) {
      const corner = Number(m[2]);
      return t("{player}: corner {number} ({place}) is already {owner}'s: tap a free corner.", {
        player: who(Number(m[1])), number: corner + 1,
        place: CORNER_PLACES[corner] ? CORNER_PLACES[corner]() : "", owner: ownerOf(corner, Number(m[1])) });
    }
    m = /^seats\[(\d+)\]: colour '([^']+)' is already taken/.exec(message);
    if (m) {
      return t("{player}: {colour} is already another player's colour: pick another.",
        { player: who(Number(m[1])), colour: colourName(m[2]) });
    }
    m = /^seats\[(\d+)\]: name '([^']+)' is already taken/.exec(message);
    if (m) return t("Two players are called {name}: give one of them another name.", { name: m[2] });
    m = /^seats: the ([\w-]+) variant takes (\d+)(?: to (\d+))? seats?, got (\d+)/.exec(message);
    if (m) {
      const values = { variant: variantName(m[1]), low: m[2], high: m[3], seated: m[4] };
      return m[3] === undefined ?
        tn("The {variant} game takes {count} player; there are {seated}: remove a player or pick another variant.",
          "The {variant} game takes {count} players; there are {seated}: remove a player or pick another variant.",
          Number(m[2]), values) :
        t("The {variant} game takes {low} to {high} players; there are {seated}: remove a player or pick another variant.",
          values);
    }
    m = /^seats: (?:expected )?(\d+) to (\d+) seats, got (\d+)/.exec(message);
    if (m) {
      return t("{game} takes {low} to {high} players; there are {seated}.",
        { game: KIND[kind.value] || kind.value, low: m[1], high: m[2], seated: m[3] });
    }
    m = /^seats\[(\d+)\]\.?(\w*)?: (.*)$/.exec(message);
    if (m) return t("{player}: {reason}", { player: who(Number(m[1])), reason: m[3] });
    return message;
  }

  document.getElementById("new-game").addEventListener("submit", async (event) => {
    event.preventDefault();
    const seats = [];
    const names = [];
    for (const row of rows.querySelectorAll(".seat")) {
      const name = row.querySelector("[name=seat-name]").value.trim();
      if (!name) continue;
      names.push(name);
      const seat = { name };
      if (seatObjects()) {
        seat.corner = Number(row.dataset.corner);
        seat.colour = row.querySelector("[name=seat-colour]").value;
        const player = row.querySelector("[name=seat-player]").value;
        if (player !== "human") seat.computer = player;  // easy, medium or hard
        if (row.querySelector("[name=seat-hints]").value === "on") seat.hints = true;
      }
      seats.push(seatObjects() ? seat : name);  // other games: plain names
    }
    const body = { kind: kind.value, seats };
    for (const control of options() ? options().querySelectorAll("[data-key]") : []) {
      body[control.dataset.key] = control.value;
    }
    const level = against();
    const seatControl = computerControl("computer-seat");
    const theirs = Number(seatControl ? seatControl.value : 1);
    if (level && seats[theirs]) seats[theirs] = { name: seats[theirs], computer: level };
    const seed = document.getElementById("seed").value.trim();
    if (seed && !document.getElementById("seed-row").hidden) body.seed = Number(seed);
    try {
      const game = await api("POST", "/api/games", body);
      // cards played on the panel: this phone is the host (frees seats, deletes the game)
      if (game.host_token) window.localStorage.setItem("mandala.host." + game.id, game.host_token);
      if (level) {  // this phone plays the other seat: take it now (the card page keeps it)
        const seat = 1 - theirs;
        const taken = await api("POST", "/api/games/" + encodeURIComponent(game.id) + "/seats/" + seat + "/take", {});
        window.localStorage.setItem("mandala.cards." + game.id, JSON.stringify({ seat, token: taken.token }));
      }
      window.location.href = "/games/" + encodeURIComponent(game.id);
    } catch (error) { sayError(error, (message) => plainStart(message, names)); }
  });

  document.getElementById("import").addEventListener("submit", async (event) => {
    event.preventDefault();
    const file = document.getElementById("import-file").files[0];
    if (!file) { say(t("Choose a record file first.")); return; }
    let record;
    try { record = JSON.parse(await file.text()); } catch (error) {
      say(t("{file} is not a record (not JSON): {error}", { file: file.name, error: error.message })); return;
    }
    try {
      const game = await api("POST", "/api/games", { record });
      window.location.href = "/games/" + encodeURIComponent(game.id);
    } catch (error) {
      sayError(error, (message) => t("{file} cannot be imported: {reason}", { file: file.name, reason: message }));
    }
  });

  const boardSelect = document.getElementById("board");
  const wanted = new URLSearchParams(window.location.search).get("board");
  if (wanted && boardSelect.querySelector(`option[value="${CSS.escape(wanted)}"]`)) {
    boardSelect.value = wanted;  // and the kind whose options hold the board
    const block = boardSelect.closest("[data-options]");
    const owner = Object.keys(data.forms || {}).find((k) => data.forms[k].options === block.id);
    if (owner) kind.value = owner;
  }
  showOptions();
  render(data.games || []);

  live((item) => {
    if ((item.type === "games" || item.type === "state") && Array.isArray(item.games)) {
      if (page === 1) render(item.games);
      refresh();  // the page's own games, and how many pages there are now
    }
  });
})();
