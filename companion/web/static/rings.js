/* The ring board page: the board at the sensed offsets, the turn (dice, per-die and per-ring
   status, preview, confirm), undo, the re-sync guide, the emulator and the history. */
"use strict";
(() => {
  const { el, api, live, say, coalesce, letter, t, tn, colourName } = Panel;
  const board = Panel.data.board;
  let game = Panel.data.game;
  let sensed = Panel.data.rings;
  const COLOURS = ["red", "blue", "green", "yellow", "brown"];
  const faces = [...new Set(board.dice)].sort((a, b) => a - b);
  let chosen = {};  // dice picked on this phone but not yet entered

  /* ---- rings as the players know them: by colour and place ---- */
  /* One whole message per place (a board has ten rings, five from each side), so a language
     says the ring and its place in its own order and case. */
  const FROM_OUTSIDE = [null, null,
    (v) => t("the {colour} ring ({letter}), 2nd from the outside", v),
    (v) => t("the {colour} ring ({letter}), 3rd from the outside", v),
    (v) => t("the {colour} ring ({letter}), 4th from the outside", v),
    (v) => t("the {colour} ring ({letter}), 5th from the outside", v)];
  const FROM_INSIDE = [null, null,
    (v) => t("the {colour} ring ({letter}), 2nd from the inside", v),
    (v) => t("the {colour} ring ({letter}), 3rd from the inside", v),
    (v) => t("the {colour} ring ({letter}), 4th from the inside", v),
    (v) => t("the {colour} ring ({letter}), 5th from the inside", v)];
  function ringName(ring) {
    const colour = board.rings[ring] ? board.rings[ring].colour : "";
    const count = board.rings.length;
    const v = { colour: colourName(colour), letter: letter(colour) };
    if (ring === 0) return t("the {colour} ring ({letter}), the outermost", v);
    if (ring === count - 1) return t("the {colour} ring ({letter}), the innermost", v);
    return ring < count / 2 ? FROM_OUTSIDE[ring + 1](v) : FROM_INSIDE[count - ring](v);
  }
  function slotWords(steps, eitherWay) {
    const count = Math.abs(steps);
    if (eitherWay) return tn("{count} slot either way", "{count} slots either way", count);
    return steps > 0 ? tn("{count} slot clockwise", "{count} slots clockwise", count) :
      tn("{count} slot counter-clockwise", "{count} slots counter-clockwise", count);
  }
  function signedSteps(delta) {
    const n = board.spokes;
    const steps = ((delta % n) + n) % n;
    return steps > n / 2 ? steps - n : steps;
  }

  /* ---- reading the table's answers (one place, so the page survives small changes) ---- */
  const state = () => game.state || {};
  const turn = () => state().live || {};
  const seats = () => Panel.data.seats || [];
  const seatOf = (name) => seats().find((s) => s.name === name) || { name, colour: "white" };
  const offsetsNow = () => (sensed && sensed.offsets && sensed.offsets.length === 10 ?
    sensed.offsets : state().offsets || new Array(10).fill(0));
  const diceNow = () => turn().dice || state().dice || null;

  function previewLines() {
    const preview = turn().preview || [];
    return preview.map((line) => (typeof line === "string" ? line : Panel.phraseText(line)));
  }

  /* ---- drawing ---- */
  function drawBoard() {
    const svg = document.getElementById("board");
    if (hintShown !== null) {  // the rings as the tapped hint would turn them
      const offsets = [...(state().offsets || offsetsNow())];
      for (const r of hintShown) offsets[r.ring] = (((offsets[r.ring] + r.steps) % board.spokes) + board.spokes) % board.spokes;
      BoardSvg.draw(svg, board, BoardSvg.scene(board, seats(), state(), offsets, offsetsNow(), false));
      return;
    }
    BoardSvg.draw(svg, board, BoardSvg.scene(board, seats(), state(), offsetsNow(), offsetsNow(), true));
  }

  function drawHeader() {
    const s = state();
    const line = document.getElementById("turn-line");
    if (s.over) {
      line.replaceChildren(el("span", { text: s.winner ? t("Game over: {name} wins", { name: s.winner }) :
        t("Game over") }));
    } else {
      const seat = seatOf(s.to_move);
      line.replaceChildren(el("span", { class: "dot", style: `background:${BoardSvg.FILL[seat.colour] || seat.colour}`,
        text: (s.to_move || "?").slice(0, 1) }), el("span", { id: "to-move", text: t("{name} to move", { name: s.to_move }) }),
        el("small", { text: "· " + t("turn {number}", { number: (s.turns || 0) + 1 }) }));
    }
    const scores = document.getElementById("scores");
    scores.replaceChildren();
    for (const [name, points] of Object.entries(s.scores || {})) {
      const seat = seatOf(name);
      scores.append(el("span", { class: "chip" + (name === s.to_move ? " turn" : ""),
        "data-seat": name },
        el("span", { class: "dot", style: `background:${BoardSvg.FILL[seat.colour] || seat.colour}`,
          text: name.slice(0, 1) }),
        el("span", { text: `${name} ` }), el("strong", { class: "score", text: String(points) })));
    }
    const rings = COLOURS.map((c) => `${letter(c)} ${colourName(c)}`).join(" · ");
    document.getElementById("legend").textContent =
      t("Rings: {rings}. Black slots are open; dashed green spokes are open paths into Central Control; ★ is spoke 0.", { rings });
  }

  /* A die's state as the rings engine names it (DieState), in the page's language. */
  const DIE_STATES = { used: () => t("used"), unused: () => t("unused"), wrong: () => t("wrong"),
    void: () => t("void") };
  const dieState = (status) => (Object.hasOwn(DIE_STATES, status) ? DIE_STATES[status]() : String(status));

  function dieStatus(colour) {
    const all = turn().dice_status || turn().die_status || turn().status || {};
    return all[colour] || null;
  }

  function drawDice() {
    const box = document.getElementById("dice");
    box.replaceChildren();
    const entered = diceNow();
    for (const colour of COLOURS) {
      const value = colour in chosen ? chosen[colour] : (entered ? entered[colour] : null);
      box.append(el("span", { class: "dot", style: `background:${BoardSvg.FILL[colour]};color:${colour === "yellow" ? "#000" : "#fff"}`,
        text: letter(colour), title: colourName(colour) }));
      const buttons = el("span", { class: "die-faces", role: "group",
        "aria-label": t("{colour} die", { colour: colourName(colour) }) });
      for (const face of faces) {
        buttons.append(el("button", { type: "button", "aria-pressed": String(value === face),
          "data-die": colour, "data-face": face, text: String(face),
          onclick: () => { chosen[colour] = face; drawDice(); } }));
      }
      box.append(buttons);
      const status = dieStatus(colour);
      if (status) {
        const values = { colour: colourName(colour), status: dieState(status.status),
          reason: status.reason ? Panel.phraseText(status.reason) : "" };
        box.append(el("span", { class: `die-status s-${status.status}`, "data-die-status": colour,
          text: status.reason ? t("{colour}: {status} — {reason}", values) : t("{colour}: {status}", values) }));
      }
    }
    const over = Boolean(state().over);
    document.getElementById("roll").disabled = over;
    document.getElementById("enter-dice").disabled = over ||
      !COLOURS.every((c) => c in chosen || (entered && c in entered));
  }

  function drawTurn() {
    const list = document.getElementById("ring-status");
    list.replaceChildren();
    for (const ring of turn().rings || []) {
      const notes = [];
      if (ring.difference) notes.push(Panel.phraseText(ring.difference));
      if (ring.aligned === false) notes.push(t("ring {ring} stands between two slots", { ring: ring.ring }));
      else if (ring.settled === false) notes.push(t("ring {ring} is still moving", { ring: ring.ring }));
      if (ring.steps && !ring.difference) {
        notes.push(t("ring {ring} ({colour}) turned {steps}", { ring: ring.ring,
          colour: colourName(ring.colour), steps: `${ring.steps > 0 ? "+" : ""}${ring.steps}` }));
      }
      for (const text of notes) {
        list.append(el("li", { class: ring.difference || ring.aligned === false ? "todo" : "ok",
          "data-ring": ring.ring, text }));
      }
    }
    if (!list.children.length) {
      list.append(el("li", { class: "muted", text: diceNow() ?
        t("No ring has turned yet.") : t("Enter or roll the dice, then turn the rings.") }));
    }
    const blocked = turn().blocked;
    if (blocked && !state().over) {
      list.append(el("li", { class: "todo", id: "blocked",
        text: t("Cannot confirm yet: {reason}", { reason: Panel.phraseText(blocked) }) }));
    }
    // No preview before the dice are in: without them it reads like a promise.
    const preview = document.getElementById("preview");
    document.getElementById("preview-box").hidden = !diceNow() || Boolean(state().over);
    preview.replaceChildren(...previewLines().map((text) => el("li", { text })));
    if (!preview.children.length) preview.append(el("li", { class: "muted", text: t("no peg would move") }));
    document.getElementById("confirm").disabled = Boolean(state().over) || !turn().can_confirm;
    drawLastTurn();
  }

  /* What the players must now do at the table, at the top until they say it is done. */
  let pegsDone = null;  // the turn count whose card was folded on this phone
  function drawLastTurn() {
    const last = state().last_turn || null;
    const lines = last ? (last.instructions || last) : [];
    const number = state().turns || 0;
    const log = state().log || [];
    const who = log.length ? whoMoved(log.length - 1) : null;
    const folded = pegsDone === number;
    document.getElementById("last").hidden = !lines.length || folded;
    document.getElementById("last-title").textContent = who ?
      t("Move the pegs ({name}'s turn {number})", { name: who, number }) : t("Move the pegs");
    document.getElementById("instructions").replaceChildren(
      ...lines.map((line) => el("li", { text: Panel.phraseText(line) })));
    const note = document.getElementById("last-folded");
    note.hidden = !lines.length || !folded;
    note.replaceChildren(t("✓ Pegs moved for turn {number}.", { number }), " ",
      el("button", { type: "button", class: "small", id: "last-show", text: t("Show again"),
        onclick: () => { pegsDone = null; drawLastTurn(); } }));
  }

  /* The seat that played turn ``index`` (0-based), from the seats in play order. */
  function whoMoved(index) {
    const order = (state().players || seats()).map((s) => s.name);
    return order.length ? order[index % order.length] : null;
  }

  function drawResync() {
    const guide = state().resync || turn().resync || null;
    const section = document.getElementById("resync");
    section.hidden = !guide;
    if (!guide) return;
    document.getElementById("resync-prompt").textContent =
      t("{prompt}. Each ring is ticked off as it gets there.",
        { prompt: guide.prompt ? Panel.phraseText(guide.prompt) : "" });
    document.getElementById("resync-list").replaceChildren(...(guide.rings || []).map((g) =>
      el("li", { class: g.ok ? "ok" : "todo", "data-ring": g.ring, "data-ok": String(g.ok),
        text: g.ok ? t("{ring} is where the game has it", { ring: ringName(g.ring) }) :
          t("{ring}: {slots} (its mark to spoke {spoke})", { ring: ringName(g.ring),
            slots: slotWords(signedSteps(g.target - g.sensed)), spoke: g.target }) })));
  }

  function turnText(action) {
    if (!action || !action.dice) return JSON.stringify(action);
    const dice = COLOURS.map((c) => `${letter(c)}${action.dice[c]}`).join(" ");
    const turns = (action.rotations || []).map((r) =>
      t("ring {ring} {steps}", { ring: r.ring, steps: `${r.steps > 0 ? "+" : ""}${r.steps}` })).join(", ");
    return turns ? t("dice {dice}; {turns}", { dice, turns }) : t("dice {dice}; no ring turned", { dice });
  }

  function drawHistory() {
    const history = state().log || [];
    document.getElementById("history").replaceChildren(...history.map((h, i) =>
      el("li", { "data-turn": i + 1 }, el("strong", { text: t("Turn {number}:", { number: i + 1 }) + " " }),
        turnText(h.action),
        (h.instructions || []).length ? el("ul", {}, ...h.instructions.map((line) =>
          el("li", { text: Panel.phraseText(line) }))) : null)));
    document.getElementById("undo").disabled = !history.length;
    const onBoard = document.getElementById("on-board");
    onBoard.hidden = state().on_board !== false || !(sensed && sensed.hardware);
    const refusal = document.getElementById("refusal");
    refusal.hidden = !state().refusal;
    refusal.textContent = state().refusal || "";
    const warning = document.getElementById("led-warning");
    warning.hidden = !(sensed && sensed.led_warning);
    warning.textContent = (sensed && sensed.led_warning) || "";
  }

  /* ---- computer seats and the advisor ---- */
  function drawComputer() {
    const now = state().computer || null;
    const last = state().computer_last || null;
    const waiting = state().computer_waiting || null;
    const section = document.getElementById("computer");
    section.hidden = !(now || last || waiting) || Boolean(state().over && !last);
    let text = "";
    const said = (found) => Panel.phraseText(found.phrase);
    if (now) text = now.error ? Panel.phraseText(now.error) : said(now);
    else if (waiting) text = t("{name} (computer) waits after the undo.", { name: waiting });
    else if (last) {
      text = t("Turn {number}: {text}. Move the pegs as the last turn says.", { number: last.turn, text: said(last) });
    }
    document.getElementById("computer-say").textContent = text;
    document.getElementById("computer-rings").replaceChildren(...(now ? now.rings : []).map((r) =>
      el("li", { class: r.done ? "ok" : "todo", "data-ring": r.ring, text: said(r) })));
    // (a display style, not the hidden attribute: the panel's button style would show it)
    document.getElementById("computer-play").style.display = waiting ? "" : "none";
  }

  let hintsFor = null;  // the turn and dice the shown hints are for
  // The game's own dice (the live turn's may still be the last roll's for a moment).
  const hintsKey = () => JSON.stringify([state().turns, state().dice || null]);
  const playerOf = (name) => (state().players || []).find((p) => p.name === name) || {};

  let hintShown = null;  // the hint drawn on the board, as rotations

  /* Options that do the same and differ only in which way a ring turns become one line
     ("3 slots either way"). */
  function mergeHints(options) {
    const groups = [];
    for (const option of options) {
      const does = option.does ? Panel.phraseText(option.does) :
        String(option.text || "").split(": ").slice(1).join(": ");
      const shape = JSON.stringify((option.rotations || []).map((r) => [r.ring, Math.abs(r.steps)]));
      const same = groups.find((g) => g.does === does && g.shape === shape);
      if (same) same.options.push(option);
      else groups.push({ does, shape, options: [option] });
    }
    return groups.map((g) => {
      const first = g.options[0];
      const turns = (first.rotations || []).map((r, i) => {
        const either = g.options.some((o) => o.rotations[i].steps !== r.steps);
        return t("{ring}: {slots}", { ring: ringName(r.ring), slots: slotWords(r.steps, either) });
      });
      return { rotations: first.rotations || [], turns, does: g.does };
    });
  }

  function hintItem(hint) {
    const turns = hint.turns.length ? hint.turns.join("; ") : t("turn no ring");
    const text = hint.does ? `${turns} — ${hint.does}` : turns;
    const shown = hintShown === hint.rotations;
    return el("li", {},
      el("button", { type: "button", class: "hint", "aria-pressed": String(shown), text,
        onclick: () => { hintShown = shown ? null : hint.rotations; drawBoard(); drawHintList(); } }));
  }

  let hints = [];
  function drawHintList() {
    const list = document.getElementById("hints-list");
    list.replaceChildren(...hints.map(hintItem));
    const note = document.getElementById("hint-shown");
    note.hidden = hintShown === null;
    note.textContent = t("The board shows the rings turned as this hint says; tap it again to see them where they stand.");
  }

  async function showHints() {
    const list = document.getElementById("hints-list");
    hintsFor = hintsKey();
    try {
      const answer = await api("GET", gameUrl + "/hints");
      hints = mergeHints(answer.options || []);
      hintShown = null;
      drawHintList();
      list.hidden = false;
    } catch (error) { list.hidden = true; }
  }

  function drawHints() {
    const mover = playerOf(state().to_move);
    const button = document.getElementById("hints");
    button.disabled = !state().dice || Boolean(state().over) || Boolean(mover.computer);
    if (hintsFor !== null && hintsFor !== hintsKey()) {
      hintsFor = null;
      hintShown = null;
      document.getElementById("hints-list").hidden = true;
      document.getElementById("hint-shown").hidden = true;
    }
    // Never shown unasked, unless the seat to move turned hints on.
    if (mover.hints && !mover.computer && state().dice && !state().over && hintsFor === null) {
      showHints();
    }
  }

  function drawEmulator() {
    Emulator.render(sensed, board.rings.map((ring) => ring.colour), refreshAll);
  }

  function drawAll() {
    drawHeader(); drawBoard(); drawDice(); drawTurn(); drawResync(); drawHistory(); drawEmulator();
    drawComputer(); drawHints();
  }

  /* ---- actions ---- */
  const gameUrl = "/api/games/" + encodeURIComponent(game.id);

  const whoseTurn = () => JSON.stringify([state().turns, state().to_move]);

  async function act(action, { again = false } = {}) {
    const before = whoseTurn();
    try {
      takeGame(await api("POST", gameUrl + "/actions", { version: game.version, action }));
      drawAll();
      return true;
    } catch (error) {
      if (error.status !== 409) return false;
      if (!again) { await movedOn(before, state().to_move, error); return false; }
      // The game moved on elsewhere first (the board settling, another phone): take the new
      // version and, while it is still the same turn, send the same action once more.
      try { takeGame(await api("GET", gameUrl)); } catch (_) { return false; }
      drawAll();
      return whoseTurn() === before && act(action);
    }
  }

  /* A request refused because the game moved on is never silent: fetch the game as it
     stands and say in a line what happened. */
  async function movedOn(before, mover, error) {
    const turns = state().turns || 0;
    try { takeGame(await api("GET", gameUrl)); } catch (_) { return; }
    drawAll();
    if (error.code !== "conflict" || !/stale/.test(error.message)) return;  // its own reason
    const s = state();
    let text = t("The game changed on another phone: here it is as it stands now.");
    if (s.over) {
      text = s.winner ? t("The game ended on another phone: {name} won.", { name: s.winner }) :
        t("The game ended on another phone.");
    } else if ((s.turns || 0) > turns) {
      text = t("{name} confirmed the turn on another phone; now it is {next}'s turn.",
        { name: mover, next: s.to_move });
    } else if ((s.turns || 0) < turns) text = t("A turn was undone on another phone.");
    else if (whoseTurn() === before && s.dice) text = t("The dice were entered on another phone.");
    say(text, "info");
  }

  document.getElementById("roll").addEventListener("click", async () => {
    if (await act({ roll: true })) chosen = {};
    drawDice();
  });
  document.getElementById("enter-dice").addEventListener("click", async () => {
    const dice = Object.assign({}, diceNow() || {}, chosen);
    if (await act({ dice }, { again: true })) chosen = {};
    drawDice();
  });
  document.getElementById("confirm").addEventListener("click", async () => {
    if (await act({ confirm: true })) {
      say(t("Turn confirmed."), "ok");
      window.scrollTo({ top: 0 });  // what the players must do now is at the top
    }
  });
  document.getElementById("resync-accept").addEventListener("click",
    () => act({ accept_offsets: true }));
  document.getElementById("undo").addEventListener("click", async () => {
    const before = whoseTurn();
    const mover = state().to_move;
    try {
      takeGame(await api("POST", gameUrl + "/undo", { version: game.version }));
      chosen = {};
      say(t("Undone: turn the rings back as the guide shows."), "ok");
      drawAll();
    } catch (error) { if (error.status === 409) await movedOn(before, mover, error); }
  });
  document.getElementById("last-done").addEventListener("click", () => {
    pegsDone = state().turns || 0;
    drawLastTurn();
  });
  /* ---- live ---- */
  const refreshGame = coalesce(async () => {
    takeGame(await api("GET", gameUrl));
    drawAll();
  });
  const refreshAll = coalesce(async () => {
    sensed = await api("GET", "/api/board");
    takeGame(await api("GET", gameUrl));
    drawAll();
  });

  /* Every view the page shows comes through here: answers, refreshes and the stream's items
     (put together with the game held, Panel.merge). One older than the game held is dropped,
     so a late answer never puts back the live turn of a ring move the stream told since. */
  function takeGame(view) {
    if (!view || view.id !== game.id || Panel.isOlder(view, game)) return false;
    const before = whoseTurn();
    game = { id: view.id, kind: view.kind, version: view.version, seq: view.seq,
      state: view.state };
    if (whoseTurn() !== before) chosen = {};  // dice picked for a turn that is gone
    return true;
  }

  live((item) => {
    if (item.type === "game" && item.id === game.id && item.deleted) {
      say(t("This game was deleted on another phone."));
    } else if (item.type === "state") {
      if (item.board) sensed = item.board;
      if (!takeGame(item.game)) refreshGame();
      drawAll();
    } else if ((item.type === "game" || item.type === "live") && item.id === game.id) {
      const view = Panel.merge(game, item);  // null: a change was missed
      if (view === null) refreshGame();
      else if (view !== game && takeGame(view)) drawAll();
    } else if (item.type === "board") {
      const board = Panel.mergeBoard(sensed, item);  // null: a change was missed
      if (board === null) { refreshAll(); return; }
      sensed = board;
      drawAll();
    } else if (item.type === "leds" && item.leds) {
      sensed = Object.assign({}, sensed, { leds: item.leds });
      Emulator.drawLeds(item.leds);
    } else if (item.type === "games" && Array.isArray(item.games) &&
      !item.games.some((g) => g.id === game.id)) {
      say(t("This game was deleted on another phone."));
    }
  });
  document.getElementById("hints").addEventListener("click", showHints);
  document.getElementById("computer-play").addEventListener("click", () => act({ play: true }));
  document.getElementById("put-on-board").addEventListener("click", () => act({ resume: true }));
  drawAll();
})();
