/* Icehouse Mandala: the layout as a spiral of pyramids to build the real Mandala from (place 0
   outermost, 74 next to the Eye); tap a piece, then Take, to record the pick of the seat to
   move. Pawns, the Eye, each seat's pieces, the sets and the scores follow live. */
"use strict";
(() => {
  const { el, api, live, coalesce, t, tn } = Panel;
  const COLOURS = ["red", "yellow", "green", "blue", "black"];
  let game = Panel.data.game;
  let picked = null;  // the place chosen on this phone, not yet taken
  const url = "/api/games/" + encodeURIComponent(game.id);

  /* ---- reading the table's answer ---- */
  const state = () => game.state || {};
  const seats = () => Object.keys(state().pawns || {});
  const places = () => state().places || [];
  const pathKinds = () => state().path || [];
  const { kindParts, label, kindWords } = IcehouseDraw;
  const seatMark = (name) => IcehouseDraw.seatMark(state(), name, Panel.data.colours);

  const legal = () => IcehouseDraw.ahead(state());

  function ranking() {
    /* Most points first; a tie goes to the pawn furthest forward (as the winner's). */
    const s = state();
    const names = seats();
    return names.slice().sort((a, b) => (s.scores[b] - s.scores[a]) ||
      (s.pawns[b] - s.pawns[a]) || (names.indexOf(a) - names.indexOf(b)));
  }

  function drawSpiral() {
    IcehouseDraw.spiral(document.getElementById("mandala"), state(),
      { picked, ahead: legal(), colours: Panel.data.colours });
  }

  /* ---- the rest of the page ---- */
  function kindChip(kind, count) {
    return el("span", { class: "kind k-" + kindParts(kind).colour, title: kindWords(kind),
      "data-kind": kind, text: label(kind) + (count > 1 ? ` ×${count}` : "") });
  }

  function drawHeader() {
    const s = state();
    const line = document.getElementById("ice-turn");
    if (s.over) {
      line.replaceChildren(el("span", { id: "ice-to-move", text: t("Game over: {name} wins", { name: s.winner }) }));
    } else {
      const mark = seatMark(s.to_move);
      line.replaceChildren(el("span", { class: "seat-dot", style: `background:${mark.fill}`, text: mark.text }),
        el("span", { id: "ice-to-move", text: t("{name} to move", { name: s.to_move }) }),
        el("small", { text: "· " + t("pick {number}", { number: (s.picks || 0) + 1 }) }));
    }
    const atEnd = new Set(s.at_end || []);
    document.getElementById("ice-scores").replaceChildren(...seats().map((name) => {
      const mark = seatMark(name);
      return el("span", { class: "chip" + (name === s.to_move ? " turn" : "") +
          (atEnd.has(name) && !s.over ? " done" : ""), "data-seat": name },
        el("span", { class: "seat-dot", style: `background:${mark.fill}`, text: mark.text }),
        el("span", { text: name + " " }), el("strong", { class: "score", text: String(s.scores[name]) }));
    }));
  }

  function drawBar() {
    const s = state();
    const take = document.getElementById("ice-take");
    const choices = legal();
    if (picked !== null && !choices.includes(picked)) picked = null;
    take.disabled = picked === null;
    take.textContent = s.over ? t("Game over") : picked === null ? t("{name}: tap a piece", { name: s.to_move }) :
      t("{name} takes {piece} at {place}", { name: s.to_move, piece: label(pathKinds()[picked]), place: picked });
    document.getElementById("ice-prev").disabled = !choices.length;
    document.getElementById("ice-next").disabled = !choices.length;
    document.getElementById("undo").disabled = !(s.log || []).length;
  }

  function drawSeats() {
    const s = state();
    const atEnd = new Set(s.at_end || []);
    document.getElementById("ice-seats").replaceChildren(...seats().map((name) => {
      const at = s.pawns[name];
      const where = at < 0 ? t("at the start") : t("pawn at {place}", { place: at });
      const held = Object.entries((s.held || {})[name] || {});
      return el("div", { "data-seat-detail": name },
        el("div", { class: "row" }, el("strong", { text: name }),
          el("span", { text: atEnd.has(name) && !s.over ?
            tn("{count} point · {where} · at the end (passes)", "{count} points · {where} · at the end (passes)", s.scores[name], { where }) :
            tn("{count} point · {where}", "{count} points · {where}", s.scores[name], { where }) })),
        el("div", { class: "row" }, held.length ? held.map(([kind, n]) => kindChip(kind, n)) :
          el("small", { text: t("no pieces yet") })));
    }));
  }

  function drawSets() {
    const s = state();
    const kinds = pathKinds();
    const where = places();
    const results = new Map((s.scorings || []).map((sc) => [sc.kind, sc.awards]));
    const grid = document.getElementById("ice-kinds");
    const cells = [];
    for (const colour of COLOURS) {
      for (const size of [1, 2, 3]) {
        const kind = `${colour}-${size}`;
        const left = kinds.filter((k, i) => k === kind && where[i] === "path").length;
        const awards = results.get(kind);
        const said = awards === undefined ? t("{count} on the path", { count: left }) :
          Object.keys(awards).length ? Object.entries(awards).map(([n, p]) => `${n} ${p}`).join(", ") :
            t("lost to the Eye");
        cells.push(el("div", { class: awards === undefined ? "" : "scored", "data-set": kind },
          kindChip(kind, 1), el("div", { text: (awards === undefined ? "" : "✓ ") + said })));
      }
    }
    grid.replaceChildren(...cells);
    document.getElementById("ice-scored-count").textContent = t("{scored} of {total} scored", { scored: results.size, total: 15 });
    document.getElementById("ice-scorings").replaceChildren(...(s.scorings || []).map((sc) => {
      const awards = Object.entries(sc.awards);
      return el("li", { "data-scoring": sc.kind }, kindChip(sc.kind, 1),
        el("span", { text: " " + (awards.length ? awards.map(([n, p]) => `${n} ${p}`).join(", ") :
          t("lost to the Eye: nobody scores")) }));
    }));
  }

  function drawEye() {
    const eye = Object.entries(state().eye || {});
    const count = eye.reduce((a, [, n]) => a + n, 0);
    document.getElementById("ice-eye-count").textContent = tn("{count} piece", "{count} pieces", count);
    document.getElementById("ice-eye").replaceChildren(...(eye.length ?
      eye.map(([kind, n]) => kindChip(kind, n)) : [el("small", { text: t("empty") })]));
  }

  function drawResult() {
    const s = state();
    document.getElementById("ice-result").hidden = !s.over;
    if (!s.over) return;
    document.getElementById("ice-ranking").replaceChildren(...ranking().map((name) =>
      el("li", { "data-rank": name }, el("strong", { text: name }),
        el("span", { text: " " + (name === s.winner ?
          tn("{count} point — wins", "{count} points — wins", s.scores[name]) :
          tn("{count} point", "{count} points", s.scores[name])) }))));
  }

  function drawLog() {
    const log = state().log || [];
    const last = log.length ? log[log.length - 1].instructions || [] : [];
    document.getElementById("ice-last").hidden = !last.length;
    document.getElementById("ice-notes").replaceChildren(...last.map((line) => el("li", { text: Panel.phraseText(line) })));
    document.getElementById("history").replaceChildren(...log.map((entry, i) =>
      el("li", { text: t("pick {number} (place {place}): {instructions}",
        { number: i + 1, place: entry.action,
          instructions: (entry.instructions || []).map((line) => Panel.phraseText(line)).join("; ") }) })));
  }

  function drawBuildList() {
    const kinds = pathKinds();
    const lines = [];
    for (let i = 0; i < kinds.length; i += 5) {
      lines.push(el("li", {}, el("span", { class: "at", text: `${i}–${Math.min(i + 4, kinds.length - 1)}` }),
        kinds.slice(i, i + 5).map((kind) => kindChip(kind, 1))));
    }
    document.getElementById("ice-list").replaceChildren(...lines);
    const seed = state().seed;
    document.getElementById("ice-seed").textContent = seed === null || seed === undefined ?
      t("a given layout") : t("seed {seed}", { seed });
  }

  function draw() {
    drawHeader();
    drawSpiral();
    drawBar();
    drawResult();
    drawLog();
    drawSeats();
    drawSets();
    drawEye();
  }

  /* ---- acting ---- */
  function choose(i) {
    picked = i;
    drawSpiral();
    drawBar();
  }

  document.getElementById("mandala").addEventListener("click", (event) => {
    const piece = event.target.closest && event.target.closest("[data-index]");
    if (!piece) return;
    const i = Number(piece.getAttribute("data-index"));
    const s = state();
    if (legal().includes(i)) { choose(i); return; }
    if (s.over) Panel.say(t("The game is over."));
    else if (places()[i] !== "path") Panel.say(t("Place {place} is empty.", { place: i }));
    else {
      Panel.say(t("{name} cannot take {place}: it is behind {name}'s pawn at {pawn}.",
        { name: s.to_move, place: i, pawn: s.pawns[s.to_move] }));
    }
  });

  function step(direction) {
    const choices = legal();
    if (!choices.length) return;
    const at = choices.indexOf(picked);
    const next = at < 0 ? (direction > 0 ? 0 : choices.length - 1) :
      (at + direction + choices.length) % choices.length;
    choose(choices[next]);
  }
  document.getElementById("ice-prev").addEventListener("click", () => step(-1));
  document.getElementById("ice-next").addEventListener("click", () => step(1));

  // The game as the server answered or the live stream told it. A pick is only dropped when
  // the turn it was made for is over: the stream often brings the new turn before this
  // phone's own answer does, and a tap on the new turn in between must stay chosen.
  function take(answer) {
    if (answer.version < game.version) return;  // older than what the stream already told
    if (answer.version > game.version) picked = null;
    game = answer;
    draw();
  }

  const refresh = coalesce(async () => take(await api("GET", url)));

  async function send(path, body) {
    try {
      take(await api("POST", url + path, { version: game.version, ...body }));
    } catch (error) {
      // refused now (another phone was first, or the rules): show the game as it stands
      if (error.status === 409) { await refresh(); Panel.say(Panel.plain(error.message)); }
    }
  }
  document.getElementById("ice-take").addEventListener("click", () => {
    if (picked !== null) send("/actions", { action: { pick: picked } });
  });
  document.getElementById("undo").addEventListener("click", () => send("/undo", {}));

  live((item) => {
    if (item.type === "game" && item.id === game.id) {
      if (item.deleted) Panel.say(t("This game was deleted on another phone."));
      else {
        const view = Panel.merge(game, item);  // null: a change was missed
        if (view === null) refresh();
        else if (view !== game) take(view);
      }
    } else if (item.type === "state") refresh();  // (re)connected: catch up
  });

  drawBuildList();
  draw();
})();
