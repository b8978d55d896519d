/* Draws the Mandala Stones main board (7x7: stacks of stones, artist spaces): the game page
   (stones.js) and the table view use it. Every stone shows its colour, its drawn pattern and
   a letter with the pattern's mark. */
"use strict";

const StonesDraw = (() => {
  const { el, letter, t, colourName } = Panel;
  const DIRS = ["N", "E", "S", "W"];  // the values the server takes and sends
  /* A direction's letter as shown (German says O for east); DIRS stay the values sent. */
  const DIR_LETTERS = {
    // TRANSLATORS: compass letters of a Stones pick's first stone: north, east, south, west
    N: () => t("N"), E: () => t("E"), S: () => t("S"), W: () => t("W"),
  };
  const dirLetter = (d) => (Object.hasOwn(DIR_LETTERS, d) ? DIR_LETTERS[d]() : String(d));
  const STEP = { N: [-1, 0], E: [0, 1], S: [1, 0], W: [0, -1] };
  const MARK = { dots: "•", lines: "≡" };
  const PATTERN_NAMES = { dots: () => t("dots"), lines: () => t("lines") };
  const patternName = (pattern) => (Object.hasOwn(PATTERN_NAMES, pattern) ?
    PATTERN_NAMES[pattern]() : String(pattern));
  /* A stone as people say it: "red-dots" (its name) in English. */
  const stoneWords = (name) => {
    const [colour, pattern] = String(name).split("-");
    if (pattern === undefined) return String(name);
    return t("{colour}-{pattern}", { colour: colourName(colour), pattern: patternName(pattern) });
  };
  const key = (cell) => cell[0] + "," + cell[1];
  const same = (a, b) => Boolean(a && b) && a[0] === b[0] && a[1] === b[1];
  const cellText = (cell) => `[${cell[0]}, ${cell[1]}]`;
  const next = (cell, d) => [cell[0] + STEP[d][0], cell[1] + STEP[d][1]];
  const artistAt = (s, cell) => (s.artists || []).find((a) => same(a.at, cell));
  const picksOf = (s, artist) => (s.picks || []).filter((p) => same(p.artist, artist));
  const movePick = (s, pick) => (s.picks || []).find((p) => same(p.artist, pick.artist) &&
    same(p.to, pick.to));

  function stone(name, big) {
    const [colour, pattern] = name.split("-");
    const said = stoneWords(name);
    return el("span", { class: `stone ${colour} ${pattern}${big ? " big" : ""}`, role: "img",
      title: said, "aria-label": said, "data-stone": name },
    el("span", { class: "t", text: letter(colour) + (MARK[pattern] || "?") }));
  }

  /* A stone inside a control whose text already names it (said once, not twice). */
  function hidden(node) {
    node.setAttribute("aria-hidden", "true");
    return node;
  }

  /* The stones the PICK takes, clockwise from the first: [direction, stone] pairs. */
  function tower(s, pick) {
    const move = movePick(s, pick);
    if (!move || !pick.first) return [];
    const start = DIRS.indexOf(pick.first);
    const turn = DIRS.slice(start).concat(DIRS.slice(0, start));
    return turn.filter((d) => move.first.includes(d)).map((d) => {
      const stack = s.stacks[key(next(pick.to, d))] || [];
      return [d, stack[stack.length - 1]];
    });
  }

  /* ---- the main board ---- */
  /* Draw state ``s``'s main board into ``board``, with what ``pick`` has chosen so far of a
     PICK ({} for nothing: the table view). */
  function drawBoard(board, s, pick) {
    const move = movePick(s, pick);
    const taken = tower(s, pick);
    const movable = new Set((s.picks || []).map((p) => key(p.artist)));
    const targets = new Set(pick.artist ? picksOf(s, pick.artist).map((p) => key(p.to)) : []);
    const cells = [];
    for (let r = 1; r <= 7; r += 1) {
      for (let c = 1; c <= 7; c += 1) {
        const cell = [r, c];
        if (r % 2 === 0 && c % 2 === 0) cells.push(artistSpace(s, pick, cell, movable, targets));
        else if ((r + c) % 2 === 1) cells.push(stackSpace(s, pick, cell, move, taken));
        else cells.push(el("div", { class: "cell unused", "aria-hidden": "true" }));
      }
    }
    board.replaceChildren(...cells);
  }

  function artistSpace(s, pick, cell, movable, targets) {
    const artist = artistAt(s, cell);
    const classes = ["cell", "aspace"];
    if (artist && movable.has(key(cell))) classes.push("target");
    if (same(cell, pick.artist) || same(cell, pick.to)) classes.push("chosen");
    else if (targets.has(key(cell))) classes.push("target");
    let label = t("artist space {cell}", { cell: cellText(cell) });
    let inside = null;
    if (artist) {
      const moving = same(cell, pick.artist) && pick.to;
      const pattern = patternName(artist.pattern);
      label += ": " + (moving ? t("{pattern} artist (moving)", { pattern }) : t("{pattern} artist", { pattern }));
      inside = el("span", { class: `artist ${artist.pattern}${moving ? " moving" : ""}` },
        el("span", { text: patternName(artist.pattern) }));
    } else if (same(cell, pick.to)) {
      const mover = artistAt(s, pick.artist);
      label += ": " + t("the {pattern} artist moves here", { pattern: mover ? patternName(mover.pattern) : "" });
      inside = el("span", { class: `artist ${mover ? mover.pattern : ""}` }, el("span", { text: t("→ here") }));
    }
    return el("button", { type: "button", class: classes.join(" "), "data-cell": key(cell),
      "data-artist": artist ? key(cell) : null, "aria-label": label }, inside);
  }

  function stackSpace(s, pick, cell, move, taken) {
    const stack = s.stacks[key(cell)] || [];
    const classes = ["cell", "stack"];
    let badge = null;
    let label = t("stack {cell}, bottom to top: {stones}",
      { cell: cellText(cell), stones: stack.map(stoneWords).join(", ") || t("empty") });
    if (move) {
      const d = DIRS.find((dir) => same(next(pick.to, dir), cell));
      if (d && move.first.includes(d)) {
        classes.push("eligible");
        const place = taken.findIndex(([dir]) => dir === d);
        if (place >= 0) badge = el("span", { class: "order-badge", text: `${place + 1}.` });
        label += "; " + (place >= 0 ? t("eligible ({direction}), taken {number}.", { direction: dirLetter(d), number: place + 1 }) :
          t("eligible ({direction})", { direction: dirLetter(d) }));
      } else if (d) classes.push("blocked");
    }
    if (!stack.length) classes.push("empty-stack");
    /* the label is the button's text (hidden on screen), the stones and the badge show it */
    /* an empty stack shows the word "empty" (stones.css draws it from data-empty) */
    return el("button", { type: "button", class: classes.join(" "), "data-cell": key(cell),
      "data-empty": stack.length ? null : t("empty") },
      el("span", { class: "sr-only", text: label }), stack.map((name) => hidden(stone(name))),
      badge && hidden(badge));
  }

  return { board: drawBoard, stone, tower, movePick, artistAt, picksOf, DIRS, dirLetter, key, same,
    cellText, next, patternName, stoneWords };
})();
