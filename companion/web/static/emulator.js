/* The emulator controls (turn each ring by a detent or a slot either way, press the two
   buttons) and the emulated LED strip, on any page with #emulator. */
"use strict";

const Emulator = (() => {
  const { el, api, letter, page, t } = Panel;
  const FILL = { red: "#d32f2f", blue: "#1f5fbf", green: "#2e8b3a", yellow: "#e6b800",
    brown: "#7b4a25" };

  let afterTurn = () => {};

  /* Each button's name, one whole message a way ("ring 3 one slot clockwise"). */
  const TURNS = {
    "-slot": (ring) => t("ring {ring} one slot counter-clockwise", { ring }),
    "+slot": (ring) => t("ring {ring} one slot clockwise", { ring }),
    "-detent": (ring) => t("ring {ring} one detent counter-clockwise", { ring }),
    "+detent": (ring) => t("ring {ring} one detent clockwise", { ring }),
  };

  function turnButton(ring, detents, label, way) {
    return el("button", { type: "button", class: "small", "data-turn": ring,
      "data-detents": detents, "aria-label": TURNS[way](ring), text: label,
      onclick: () => api("POST", `/api/emulator/rings/${ring}/turn`, { detents })
        .then(() => window.setTimeout(afterTurn, 400)).catch(() => {}) });
  }

  function build(box, colours) {
    const perSlot = page.detents_per_slot || [];
    for (let r = 0; r < 10; r += 1) {
      const slot = perSlot[r] || 1;
      const colour = colours && colours[r];
      // One click a slot: a detent is a slot, so one button each way does both.
      const buttons = slot === 1 ?
        [turnButton(r, -1, "⟲", "-slot"), turnButton(r, 1, "⟳", "+slot")] :
        [turnButton(r, -slot, t("⟲ slot"), "-slot"),
          turnButton(r, -1, "⟲", "-detent"),
          turnButton(r, 1, "⟳", "+detent"),
          turnButton(r, slot, t("slot ⟳"), "+slot")];
      box.append(el("div", { class: `emu-ring emu-${buttons.length}` },
        el("span", {}, colour ? el("span", { class: "dot", style: `background:${FILL[colour]}`,
          text: letter(colour) }) : null, " " + t("ring {ring}", { ring: r }),
          el("span", { class: "muted", "data-offset": r })),
        ...buttons));
    }
    for (const button of document.querySelectorAll("[data-press]")) {
      button.addEventListener("click", () => api("POST",
        `/api/emulator/buttons/${button.getAttribute("data-press")}/press`, {}).catch(() => {}));
    }
  }

  /* The strip's colours by name (the table's pixel values, companion/table/leds.py, and the
     same at a quarter for the seats not to move), so a pixel is never colour only. */
  const PIXELS = [["red", [255, 0, 0]], ["green", [0, 255, 0]], ["blue", [0, 0, 255]],
    ["yellow", [255, 200, 0]], ["brown", [150, 60, 0]], ["white", [255, 255, 255]],
    ["orange", [255, 96, 0]], ["purple", [160, 0, 255]], ["cyan", [0, 255, 255]],
    ["pink", [255, 64, 160]]];
  const NAMED = [["off", [0, 0, 0]], ...PIXELS,
    ...PIXELS.map(([name, rgb]) => [`dim ${name}`, rgb.map((v) => Math.floor(v / 4))])];
  /* A pixel's colour in the page's language ("dim red" is the dim one of red). */
  const COLOUR_WORDS = { red: t("red"), green: t("green"), blue: t("blue"), yellow: t("yellow"),
    brown: t("brown"), white: t("white"), orange: t("orange"), purple: t("purple"),
    cyan: t("cyan"), pink: t("pink") };
  function pixelWords(name) {
    if (name === "off") return t("off");
    return name.startsWith("dim ") ? t("dim {colour}", { colour: COLOUR_WORDS[name.slice(4)] }) :
      COLOUR_WORDS[name];
  }
  function pixelName(rgb) {
    let best = null;
    for (const [name, ref] of NAMED) {
      const d = ref.reduce((sum, v, i) => sum + (v - rgb[i]) ** 2, 0);
      if (!best || d < best[1]) best = [name, d];
    }
    return best[0];
  }

  function drawLeds(leds) {
    document.getElementById("leds").replaceChildren(...(leds || []).map(([r, g, b], i) => {
      const name = pixelName([r, g, b]);
      const mark = name === "off" ? "" : letter(name.replace("dim ", ""));
      return el("span", { class: "led" + (name === "off" ? " off" : ""),
        style: `background:rgb(${r},${g},${b});color:${r + g + b > 380 ? "#000" : "#fff"}`,
        "data-pixel": i, title: t("pixel {number}: {colour}", { number: i, colour: pixelWords(name) }),
        role: "img", "aria-label": t("pixel {number}: {colour}", { number: i, colour: pixelWords(name) }),
        text: name.startsWith("dim") ? mark.toLowerCase() : mark });
    }));
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
      const at = offsets[r];
      span.textContent = " · " + (status.aligned === false ? t("at {offset} (between slots)", { offset: at }) :
        status.settled === false ? t("at {offset} (settling)", { offset: at }) : t("at {offset}", { offset: at }));
    }
    drawLeds(sensed.leds);
  }

  return { render, drawLeds };
})();
