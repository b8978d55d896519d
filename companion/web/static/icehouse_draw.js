/* Draws an Icehouse Mandala layout as a spiral of pyramids (place 0 outermost, 74 next to
   the Eye) with the seats' pawns: the game page (icehouse.js) and the table view use it. */
"use strict";

const IcehouseDraw = (() => {
  const { svg, letter, t, colourName } = Panel;
  const PLACES = 75;
  const PITCH = 17.5;  // viewBox units from one place to the next, and from turn to turn
  const EYE = 1.5 * PITCH;  // radius of the innermost place (74)
  const WIDTH = { 1: 0.56, 2: 0.72, 3: 0.9 };  // a pyramid's base per size, in pitches
  const SEAT_FILL = ["#6a1b9a", "#00838f", "#ef6c00", "#5d4037", "#c2185b"];
  const kindParts = (kind) => { const [colour, size] = kind.split("-"); return { colour, size }; };
  const label = (kind) => { const k = kindParts(kind); return letter(k.colour) + k.size; };
  /* "red small": a piece's colour and size, said as the glossary says (docs/glossary-de.md). */
  const SIZE_WORDS = {
    1: (colour) => t("{colour} small", { colour }),
    2: (colour) => t("{colour} medium", { colour }),
    3: (colour) => t("{colour} large", { colour }),
  };
  const kindWords = (kind) => {
    const k = kindParts(kind);
    return Object.hasOwn(SIZE_WORDS, k.size) ? SIZE_WORDS[k.size](colourName(k.colour)) :
      `${colourName(k.colour)} ${k.size}`;
  };

  function seatMark(s, name, colours) {
    /* A seat's token: its colour and its initial (its number when initials repeat). */
    const names = Object.keys(s.pawns || {});
    const i = names.indexOf(name);
    const initials = names.map((n) => n.slice(0, 1).toUpperCase());
    const unique = new Set(initials).size === initials.length;
    // the player's own colour (the same in every game), else one of the page's
    const own = (colours || {})[name];
    const fill = own ? Panel.playerFill(own) : SEAT_FILL[i % SEAT_FILL.length];
    return { fill, text: unique ? initials[i] : String(i + 1) };
  }

  function ahead(s) {
    /* The places the seat to move may take: on the path, ahead of its pawn. */
    if (s.over || !s.to_move) return [];
    const pawnAt = s.pawns[s.to_move];
    const out = [];
    (s.places || []).forEach((where, i) => { if (where === "path" && i > pawnAt) out.push(i); });
    return out;
  }

  /* ---- the spiral: an Archimedean spiral, places one pitch apart along it ---- */
  const B = PITCH / (2 * Math.PI);
  const arc = (t) => (B / 2) * (t * Math.sqrt(1 + t * t) + Math.asinh(t));
  function turnAt(length) {
    let t = Math.sqrt((2 * length) / B);
    for (let k = 0; k < 8; k += 1) t -= (arc(t) - length) / (B * Math.sqrt(1 + t * t));
    return t;
  }
  const INNER = arc(EYE / B);
  const OUTER = turnAt(INNER + PITCH * PLACES);
  function spot(i) {
    /* Where place i sits (i < 0: the start, before place 0); clockwise from the top, inward. */
    const t = turnAt(INNER + PITCH * (PLACES - 1 - i));
    const r = B * t;
    const angle = OUTER - t;
    return { x: r * Math.sin(angle), y: -r * Math.cos(angle) };
  }
  const SPOTS = Array.from({ length: PLACES }, (_, i) => spot(i));
  const f = (v) => v.toFixed(1);

  function pyramid(i, kind, where, cls) {
    const { colour, size } = kindParts(kind);
    const w = WIDTH[size] * PITCH;
    const h = w * 1.05;
    const outline = `M0 ${f(-h / 2)}L${f(w / 2)} ${f(h / 2)}L${f(-w / 2)} ${f(h / 2)}Z`;
    const status = where === "path" ? "" : " " + (where === "eye" ? t("(in the Eye)") :
      t("({name} took it)", { name: where }));
    const { x, y } = SPOTS[i];
    const gone = where !== "path";
    return svg("g", { class: "piece " + cls, transform: `translate(${f(x)} ${f(y)})`,
      "data-index": i, "data-kind": kind, "data-place": where },
      svg("title", { text: `${i}: ${label(kind)}, ${kindWords(kind)}${status}` }),
      svg("circle", { class: "hit", r: f(PITCH * 0.5) }),
      gone ? svg("path", { class: "ghost", d: outline }) : [
        svg("path", { class: "body pc-" + colour, d: outline }),
        svg("path", { class: "body shade", d: `M0 ${f(-h / 2)}L${f(w / 2)} ${f(h / 2)}L0 ${f(h / 2)}Z` }),
        svg("path", { class: "body edge", d: outline }),
        svg("text", { class: "body", y: f(h * 0.2), text: label(kind) })]);
  }

  function pawn(mark, name, x, y, moving) {
    return svg("g", { class: "pawn" + (moving ? " moving" : ""), "data-pawn": name,
      transform: `translate(${f(x)} ${f(y)})` },
      svg("title", { text: t("{name}'s pawn", { name }) }),
      svg("circle", { r: f(PITCH * 0.3), fill: mark.fill }),
      svg("text", { text: mark.text }));
  }

  /* Draw state ``s`` into the SVG ``box``; opts: ahead (the places the seat to move may
     take; the others are dimmed), picked (the place chosen), colours (each player's own). */
  function spiral(box, s, opts) {
    const kinds = s.path || [];
    const where = s.places || [];
    const ahead = new Set(opts.ahead || []);
    const picked = opts.picked === undefined ? null : opts.picked;
    const line = SPOTS.map((p, i) => `${i ? "L" : "M"}${f(p.x)} ${f(p.y)}`).join("");
    const start = spot(-1);
    const parts = [
      svg("path", { class: "spiral", d: `M${f(start.x)} ${f(start.y)}` + line.replace(/^M/, "L") }),
      svg("circle", { class: "eye", r: f(EYE - 0.6 * PITCH) }),
      svg("text", { class: "mark eye-text", y: -3, text: t("Eye") }),
      svg("text", { class: "mark eye-text", y: 4, text: String(Object.values(s.eye || {}).reduce((a, n) => a + n, 0)) }),
    ];
    for (let i = 0; i * PITCH < 2 * Math.PI * (B * OUTER - PITCH); i += 5) {
      // the outermost turn's places, numbered every five just outside the spiral
      const p = SPOTS[i];
      const out = 1 + (0.68 * PITCH) / Math.hypot(p.x, p.y);
      parts.push(svg("text", { class: "mark", x: f(p.x * out), y: f(p.y * out), text: String(i) }));
    }
    kinds.forEach((kind, i) => {
      const cls = where[i] !== "path" ? "gone" : ahead.has(i) ? "legal" : "behind";
      parts.push(pyramid(i, kind, where[i], cls + (i === picked ? " picked" : "")));
    });
    let waiting = 0;
    for (const name of Object.keys(s.pawns || {})) {
      const at = s.pawns[name];
      const p = at >= 0 ? SPOTS[at] : spot(-1 - waiting++);
      parts.push(pawn(seatMark(s, name, opts.colours), name, p.x, p.y, name === s.to_move));
    }
    box.replaceChildren(...parts);
  }

  return { spiral, seatMark, ahead, kindParts, label, kindWords };
})();
