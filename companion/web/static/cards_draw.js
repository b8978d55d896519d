/* Draws the card game's public areas (cards.md): colour chips with letters, the three
   mandalas, a river; the game page (cards.js) and the table view use it. */
"use strict";

const CardsDraw = (() => {
  const { el, letter, t, tn, colourName } = Panel;

  function card(colour, count) {
    const name = colourName(colour);
    return el("span", { class: "card " + colour, title: name, "aria-label": count > 1 ? `${count} ${name}` : name },
      el("span", { class: "swatch" }), letter(colour) + (count > 1 ? " ×" + count : ""));
  }
  function cards(counts) {
    const entries = Object.entries(counts || {});
    if (!entries.length) return [el("span", { class: "muted", text: t("none") })];
    return entries.map(([colour, n]) => card(colour, n));
  }
  function hidden(n) { return el("span", { class: "card hidden", text: tn("{count} card", "{count} cards", n) }); }
  /* People count mountains, fields and mandalas from 1 (the API's indices start at 0). */
  const nth = (index) => String(Number(index) + 1);

  /* The three mandalas of state ``s`` (each seat's field and the mountain) into ``box``. */
  function mandalas(box, s, names) {
    box.replaceChildren();
    s.mandalas.forEach((m, i) => {
      const complete = s.claiming && s.claiming.mandala === i;
      box.append(el("div", { class: "mandala" + (complete ? " complete" : ""), "data-mandala": i },
        el("h3", { text: complete ? t("Mandala {number} — complete", { number: nth(i) }) :
          t("Mandala {number}", { number: nth(i) }) }),
        el("div", { class: "area" }, el("span", { text: t("{name}'s field", { name: names[0] }) }), el("span", {}, cards(m.fields[names[0]]))),
        el("div", { class: "area" }, el("span", { text: t("Mountain") }), el("span", {}, cards(m.mountain))),
        el("div", { class: "area" }, el("span", { text: t("{name}'s field", { name: names[1] }) }), el("span", {}, cards(m.fields[names[1]])))));
    });
  }

  /* A seat's river: its spaces numbered from 1, each with its colour. */
  function river(list) {
    return el("span", { class: "river" }, list.length ?
      list.flatMap((c, i) => [el("span", { class: "space", text: String(i + 1) }), card(c, 1)]) :
      el("span", { class: "muted", text: t("empty") }));
  }

  return { card, cards, hidden, nth, mandalas, river };
})();
