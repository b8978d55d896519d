/* Draws the card game's public areas (cards.md): colour chips with letters, the three
   mandalas, a river; the game page (cards.js) and the table view use it. */
"use strict";

const CardsDraw = (() => {
  const { el, letter } = Panel;

  function card(colour, count) {
    return el("span", { class: "card " + colour, title: colour, "aria-label": (count > 1 ? count + " " : "") + colour },
      el("span", { class: "swatch" }), letter(colour) + (count > 1 ? " ×" + count : ""));
  }
  function cards(counts) {
    const entries = Object.entries(counts || {});
    if (!entries.length) return [el("span", { class: "muted", text: "none" })];
    return entries.map(([colour, n]) => card(colour, n));
  }
  function hidden(n) { return el("span", { class: "card hidden", text: n + (n === 1 ? " card" : " cards") }); }
  /* People count mountains, fields and mandalas from 1 (the API's indices start at 0). */
  const nth = (index) => String(Number(index) + 1);

  /* The three mandalas of state ``s`` (each seat's field and the mountain) into ``box``. */
  function mandalas(box, s, names) {
    box.replaceChildren();
    s.mandalas.forEach((m, i) => {
      const complete = s.claiming && s.claiming.mandala === i;
      box.append(el("div", { class: "mandala" + (complete ? " complete" : ""), "data-mandala": i },
        el("h3", { text: "Mandala " + nth(i) + (complete ? " — complete" : "") }),
        el("div", { class: "area" }, el("span", { text: names[0] + "'s field" }), el("span", {}, cards(m.fields[names[0]]))),
        el("div", { class: "area" }, el("span", { text: "Mountain" }), el("span", {}, cards(m.mountain))),
        el("div", { class: "area" }, el("span", { text: names[1] + "'s field" }), el("span", {}, cards(m.fields[names[1]])))));
    });
  }

  /* A seat's river: its spaces numbered from 1, each with its colour. */
  function river(list) {
    return el("span", { class: "river" }, list.length ?
      list.flatMap((c, i) => [el("span", { class: "space", text: String(i + 1) }), card(c, 1)]) :
      el("span", { class: "muted", text: "empty" }));
  }

  return { card, cards, hidden, nth, mandalas, river };
})();
