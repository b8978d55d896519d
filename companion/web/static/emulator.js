/* The emulator controls (turn each ring by a detent or a slot either way, press the two
   buttons) and the emulated LED strip, on any page with #emulator. */
"use strict";

const Emulator = (() => {
  const { el, api, letter, page } = Panel;
  const FILL = { red: "#d32f2f", blue: "#1f5fbf", green: "#2e8b3a", yellow: "#e6b800",
    brown: "#7b4a25" };

  let afterTurn = () => {};

  function turnButton(ring, detents, label, aria) {
    return el("button", { type: "button", class: "small", "data-turn": ring,
      "data-detents": detents, "aria-label": `ring ${ring} ${aria}`, text: label,
      onclick: () => api("POST", `/api/emulator/rings/${ring}/turn`, { detents })
        .then(() => window.setTimeout(afterTurn, 400)).catch(() => {}) });
  }

  function build(box, colours) {
    const perSlot = page.detents_per_slot || [];
    for (let r = 0; r < 10; r += 1) {
      const slot = perSlot[r] || 1;
      const colour = colours && colours[r];
      box.append(el("div", { class: "emu-ring" },
        el("span", {}, colour ? el("span", { class: "dot", style: `background:${FILL[colour]}`,
          text: letter(colour) }) : null, ` ring ${r}`,
          el("span", { class: "muted", "data-offset": r })),
        turnButton(r, -slot, "⟲ slot", "one slot counter-clockwise"),
        turnButton(r, -1, "⟲", "one detent counter-clockwise"),
        turnButton(r, 1, "⟳", "one detent clockwise"),
        turnButton(r, slot, "slot ⟳", "one slot clockwise")));
    }
    for (const button of document.querySelectorAll("[data-press]")) {
      button.addEventListener("click", () => api("POST",
        `/api/emulator/buttons/${button.getAttribute("data-press")}/press`, {}).catch(() => {}));
    }
  }

  function drawLeds(leds) {
    document.getElementById("leds").replaceChildren(...(leds || []).map(([r, g, b], i) =>
      el("span", { class: "led", style: `background:rgb(${r},${g},${b})`, "data-pixel": i,
        title: `pixel ${i}: ${r},${g},${b}` })));
  }

  /* Show the controls when the rings are emulated; label each ring with where it stands. */
  /* ``then``: called a moment after each turn, in case the live stream is slow. */
  function render(sensed, colours, then) {
    if (then) afterTurn = then;
    const section = document.getElementById("emulator");
    section.hidden = !(sensed && sensed.emulated);
    if (section.hidden) return;
    const box = document.getElementById("emu-rings");
    if (!box.children.length) build(box, colours);
    const offsets = sensed.offsets || [];
    for (const span of box.querySelectorAll("[data-offset]")) {
      const r = Number(span.getAttribute("data-offset"));
      const status = (sensed.rings || [])[r] || {};
      span.textContent = ` · at ${offsets[r]}` + (status.aligned === false ? " (between slots)" :
        status.settled === false ? " (settling)" : "");
    }
    drawLeds(sensed.leds);
  }

  return { render, drawLeds };
})();
