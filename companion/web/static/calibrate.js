/* Calibration (zero all rings, set one ring) and the sensor diagnostics, live. */
"use strict";
(() => {
  const { el, api, live, say } = Panel;
  let sensed = Panel.data.rings;

  function draw() {
    document.getElementById("mode").textContent = sensed.emulated ?
      "Emulated rings (no Raspberry Pi pins): turn them below." : "Sensing the real rings.";
    const body = document.getElementById("diag");
    body.replaceChildren(...(sensed.rings || []).map((ring, r) => el("tr", { "data-ring": r },
      el("td", { text: String(r) }),
      el("td", { text: String((sensed.offsets || [])[r]) }),
      el("td", { text: ring.aligned ? "yes" : "between slots" }),
      el("td", { text: ring.settled ? "yes" : "moving" }),
      el("td", { text: String(ring.edges) }),
      el("td", { text: String(ring.errors) }),
      el("td", { text: ring.last_movement === null || ring.last_movement === undefined ? "—" :
        String(ring.last_movement) }))));
    Emulator.render(sensed, Panel.data.colours);
  }

  document.getElementById("zero").addEventListener("click", async () => {
    if (!window.confirm("Is every ring's mark at the star? Zero all ten rings.")) return;
    sensed = await api("POST", "/api/board/zero", {});
    say("All rings set to 0.", "ok");
    draw();
  });
  document.getElementById("set-ring").addEventListener("submit", async (event) => {
    event.preventDefault();
    const ring = document.getElementById("set-ring-number").value;
    const text = document.getElementById("set-ring-offset").value.trim();
    const offset = /^\d+$/.test(text) ? Number(text) : text;
    try {
      sensed = await api("POST", `/api/board/rings/${ring}/offset`, { offset });
      say(`Ring ${ring} set to ${offset}.`, "ok");
      draw();
    } catch (error) { /* shown */ }
  });

  live((item) => {
    if ((item.type === "board" || item.type === "state") && item.board) {
      sensed = item.board;
      draw();
    } else if (item.type === "leds" && item.leds) Emulator.drawLeds(item.leds);
  });
  draw();
})();
