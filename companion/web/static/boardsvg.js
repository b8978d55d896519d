/* Draws a ring board as SVG from its board file, at given offsets (rings.md section 1).
   Spoke s points s*360/N degrees clockwise from the top (spoke 0, the White Star); ring 0
   is the outermost. Every colour also carries a pattern and a letter (Panel.letter: the
   page's language). */
"use strict";

const BoardSvg = (() => {
  const NS = "http://www.w3.org/2000/svg";
  const R_OUT = 86;
  const R_IN = 18;
  const WIDTH = (R_OUT - R_IN) / 10;
  const FILL = { red: "#d32f2f", blue: "#1f5fbf", green: "#2e8b3a", yellow: "#e6b800",
    brown: "#7b4a25", orange: "#f08a00", purple: "#8e3fbf", cyan: "#00a5b5", white: "#f4f4f4" };
  const INK = { red: "#fff", blue: "#fff", green: "#fff", yellow: "#000", brown: "#fff" };

  function node(tag, attrs, text) {
    const n = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs || {})) n.setAttribute(k, v);
    if (text !== undefined) n.textContent = text;
    return n;
  }

  function point(radius, degrees) {
    const a = (degrees * Math.PI) / 180;
    return [radius * Math.sin(a), -radius * Math.cos(a)];
  }

  function sector(r1, r2, a1, a2) {
    const [x1, y1] = point(r2, a1);
    const [x2, y2] = point(r2, a2);
    const [x3, y3] = point(r1, a2);
    const [x4, y4] = point(r1, a1);
    const f = (v) => v.toFixed(2);
    return `M${f(x1)} ${f(y1)}A${r2} ${r2} 0 0 1 ${f(x2)} ${f(y2)}` +
      `L${f(x3)} ${f(y3)}A${r1} ${r1} 0 0 0 ${f(x4)} ${f(y4)}Z`;
  }

  function patterns() {
    const defs = node("defs");
    const textures = {
      red: '<path d="M0 3L3 0" stroke="#0008" stroke-width=".6"/>',
      blue: '<circle cx="1.5" cy="1.5" r=".55" fill="#fff9"/>',
      green: '<path d="M0 1.5H3" stroke="#fff9" stroke-width=".6"/>',
      yellow: '<path d="M0 0L3 3M3 0L0 3" stroke="#0007" stroke-width=".4"/>',
      brown: '<path d="M1.5 0V3" stroke="#fff8" stroke-width=".6"/>',
    };
    for (const [colour, texture] of Object.entries(textures)) {
      const p = node("pattern", { id: "pat-" + colour, width: 3, height: 3,
        patternUnits: "userSpaceOnUse" });
      p.innerHTML = `<rect width="3" height="3" fill="${FILL[colour]}"/>${texture}`;
      defs.append(p);
    }
    const arrow = node("marker", { id: "arrow", viewBox: "0 0 6 6", refX: 5, refY: 3,
      markerWidth: 4, markerHeight: 4, orient: "auto-start-reverse" });
    arrow.append(node("path", { d: "M0 0L6 3L0 6Z", fill: "#000" }));
    defs.append(arrow);
    return defs;
  }

  function ringRadius(ring) { return R_OUT - (ring + 0.5) * WIDTH; }

  function cellPoint(board, ring, spoke) {
    if (ring === "centre") return [0, 0];
    return point(ringRadius(ring), (spoke * 360) / board.spokes);
  }

  /* opts: offsets[10], pegs [{ring, spoke, colour, letter, sniped}], open [spokes],
     bases [{corner, colour, letter, waiting, moving}], moves [{from:[r,s]|null,
     to:[r,s]|"centre", colour}], onSlot(ring, slot), selectedRing */
  function draw(svg, board, opts) {
    const n = board.spokes;
    const step = 360 / n;
    const offsets = opts.offsets || new Array(10).fill(0);
    svg.replaceChildren(patterns());
    const slots = node("g", { class: "slots" });
    board.rings.forEach((ring, r) => {
      const black = new Set(ring.black);
      const outer = R_OUT - r * WIDTH;
      const inner = outer - WIDTH;
      for (let slot = 0; slot < n; slot += 1) {
        const spoke = (slot + offsets[r]) % n;
        const centre = spoke * step;
        const isBlack = black.has(slot);
        const path = node("path", {
          d: sector(inner, outer, centre - step / 2, centre + step / 2),
          fill: isBlack ? "#1b1b1b" : `url(#pat-${ring.colour})`,
          stroke: opts.selectedRing === r ? "#fff" : "#0006",
          "stroke-width": opts.selectedRing === r ? 0.7 : 0.25,
          "data-ring": r, "data-slot": slot, "data-black": isBlack ? "1" : "0",
        });
        path.append(node("title", {}, `ring ${r} (${ring.colour}) slot ${slot}: ` +
          (isBlack ? "black" : "coloured")));
        if (opts.onSlot) {
          path.setAttribute("class", "tap");
          path.addEventListener("click", () => opts.onSlot(r, slot));
        }
        slots.append(path);
        if (!isBlack && n <= 24) {
          const [x, y] = point(outer - WIDTH / 2, centre);
          /* as tall as the ring allows: about 9 px on a 360 px phone (was 5) */
          slots.append(node("text", { x: x.toFixed(2), y: (y + 1.9).toFixed(2),
            "font-size": 5.4, "text-anchor": "middle", fill: INK[ring.colour],
            "pointer-events": "none", "font-weight": 700 }, Panel.letter(ring.colour)));
        }
        if (slot === 0) {  /* the ring's mark, lined up with the star at zero */
          const [x, y] = point(outer - 0.8, centre);
          slots.append(node("circle", { cx: x.toFixed(2), cy: y.toFixed(2), r: 0.7,
            fill: "#fff", stroke: "#000", "stroke-width": 0.2, "pointer-events": "none" }));
        }
      }
    });
    svg.append(slots);

    svg.append(node("circle", { r: R_IN, fill: "#f4e9c8", stroke: "#000", "stroke-width": 0.5 }));
    // the middle's name on two lines, its first word and the rest ("Mitte" on one)
    const [first, ...rest] = Panel.t("Central Control").split(" ");
    const label = (y, text) => node("text", { y, "font-size": 4.2, "text-anchor": "middle" }, text);
    svg.append(label(rest.length ? 1.5 : 3.5, first));
    if (rest.length) svg.append(label(6, rest.join(" ")));
    for (const spoke of board.entrances) {
      const a = spoke * step;
      const [x1, y1] = point(R_IN, a - 5);
      const [x2, y2] = point(R_IN, a + 5);
      const [x3, y3] = point(R_IN - 4, a);
      svg.append(node("path", { d: `M${x1} ${y1}L${x2} ${y2}L${x3} ${y3}Z`, fill: "#000",
        class: "entrance" }));
    }

    for (let spoke = 0; spoke < n; spoke += 1) {
      const [x, y] = point(R_OUT + 4.5, spoke * step);
      svg.append(node("text", { x: x.toFixed(2), y: (y + 1.4).toFixed(2), "font-size": 4,
        "text-anchor": "middle", fill: spoke === 0 ? "#b08400" : "#444",
        class: spoke === 0 ? "spoke star" : "spoke" },
        spoke === 0 ? "★" : String(spoke)));
    }

    for (const spoke of opts.open || []) {
      const [x1, y1] = point(R_OUT, spoke * step);
      const [x2, y2] = point(R_IN, spoke * step);
      svg.append(node("line", { x1, y1, x2, y2, stroke: "#39e25a", "stroke-width": 1.6,
        "stroke-dasharray": "2.5 1.5", class: "open-path", "data-spoke": spoke }));
    }

    for (const base of opts.bases || []) {
      const [x, y] = point(R_OUT + 12, board.corners[base.corner] * step);
      const g = node("g", { class: "base", "data-corner": base.corner });
      g.append(node("rect", { x: x - 6, y: y - 4, width: 12, height: 8, rx: 2,
        fill: FILL[base.colour] || base.colour, stroke: base.moving ? "#000" : "#555",
        "stroke-width": base.moving ? 1.2 : 0.4 }));
      g.append(node("text", { x, y: y + 1.5, "font-size": 4, "text-anchor": "middle",
        "font-weight": 700 }, `${base.letter}·${base.waiting}`));
      g.append(node("title", {}, `${base.name}'s base: ${base.waiting} waiting`));
      svg.append(g);
    }

    for (const move of opts.moves || []) {
      if (!move.to) continue;
      const [x1, y1] = move.from ? cellPoint(board, move.from[0], move.from[1]) : [0, 0];
      const [x2, y2] = move.to === "centre" ? [0, 0] : cellPoint(board, move.to[0], move.to[1]);
      svg.append(node("line", { x1, y1, x2, y2, stroke: "#000", "stroke-width": 1.1,
        "marker-end": "url(#arrow)", class: "move" }));
    }

    for (const peg of opts.pegs || []) {
      const [x, y] = cellPoint(board, peg.ring, peg.spoke);
      const g = node("g", { class: "peg", "data-ring": peg.ring, "data-spoke": peg.spoke });
      g.append(node("circle", { cx: x, cy: y, r: 2.9, fill: FILL[peg.colour] || peg.colour,
        stroke: "#000", "stroke-width": 0.5 }));
      g.append(node("text", { x, y: y + 1.2, "font-size": 3.4, "text-anchor": "middle",
        "font-weight": 700, fill: "#000" }, peg.letter));
      if (peg.sniped) {
        g.append(node("path", { d: `M${x - 3.5} ${y - 3.5}L${x + 3.5} ${y + 3.5}M${x + 3.5} ` +
          `${y - 3.5}L${x - 3.5} ${y + 3.5}`, stroke: "#e00", "stroke-width": 1.1,
          class: "snipe" }));
      }
      g.append(node("title", {}, `${peg.name}'s peg on ring ${peg.ring}, spoke ${peg.spoke}` +
        (peg.sniped ? " (would be sniped)" : "")));
      svg.append(g);
    }
  }

  /* Spokes along which every ring's cell is black and the innermost opens into the centre. */
  function openPaths(board, offsets) {
    const n = board.spokes;
    const black = board.rings.map((ring) => new Set(ring.black));
    return board.entrances.filter((spoke) =>
      black.every((set, r) => set.has((((spoke - offsets[r]) % n) + n) % n)));
  }

  /* A ring game as ``draw`` takes it, for the ring page and the table view: ``state`` the
     game's state (its live turn in ``state.live``), ``seats`` [{name, corner, colour,
     bases?}], ``offsets`` where the rings are drawn, ``sensed`` where they stand. With
     ``preview``, the live turn's peg moves and open paths too (else the open paths of
     ``offsets``). */
  function scene(board, seats, state, offsets, sensed, preview) {
    const live = state.live || {};
    const events = Array.isArray(live.preview_events) ? live.preview_events : [];
    const seatOf = (name) => seats.find((s) => s.name === name) || { name, colour: "white" };
    const waiting = state.waiting || {};
    const bases = [];
    for (const seat of seats) {
      const count = (waiting[seat.name] || []).length;
      const corners = seat.bases || (count === 2 ? [seat.corner, (seat.corner + 2) % 4] : [seat.corner]);
      (waiting[seat.name] || []).forEach((count, i) => {
        bases.push({ corner: corners[i] === undefined ? seat.corner : corners[i],
          colour: seat.colour, letter: seat.name.slice(0, 1), name: seat.name,
          waiting: count, moving: state.to_move === seat.name });
      });
    }
    /* Pegs ride their ring: a peg keeps its slot, so while the rings turn it is drawn at
       (slot + offset), its slot being (spoke - the game's offset). */
    const n = board.spokes;
    const gameOffsets = state.offsets || sensed;
    const key = (cell) => (Array.isArray(cell) ? `${cell[0]},${cell[1]}` : "");
    const sniped = new Set(events.filter((e) => e.kind === "snipe")
      .map((e) => key(e.cell || e.at || e.from)));
    const pegs = (state.pegs || []).map(([name, ring, spoke]) => {
      const slot = (((spoke - gameOffsets[ring]) % n) + n) % n;
      const at = (slot + offsets[ring]) % n;
      return { name, ring, spoke: at, colour: seatOf(name).colour, letter: name.slice(0, 1),
        sniped: sniped.has(`${ring},${at}`) };
    });
    if (!preview) return { offsets, bases, pegs, open: openPaths(board, offsets) };
    const moves = events.filter((e) => e.kind === "advance" || e.kind === "centre")
      .map((e) => ({ from: e.from, to: e.kind === "centre" ? "centre" : e.to }));
    return { offsets, pegs, bases, moves, open: live.open_paths || openPaths(board, offsets) };
  }

  return { draw, openPaths, scene, FILL };
})();
