/* Calibration (zero all rings, set one ring) and the sensor diagnostics, live. */
"use strict";
(() => {
  const { el, api, live, say } = Panel;
  let sensed = Panel.data.rings;
  /* The Pi's clock minus this phone's: the last-move times are the Pi's. */
  const skew = Panel.data.now - Date.now() / 1000;

  function ago(time) {
    if (time === null || time === undefined) return "—";
    const seconds = Math.max(0, Math.round(Date.now() / 1000 + skew - time));
    if (seconds < 60) return `${seconds} s ago`;
    if (seconds < 3600) return `${Math.floor(seconds / 60)} min ago`;
    if (seconds < 86400) return `${Math.floor(seconds / 3600)} h ago`;
    return `${Math.floor(seconds / 86400)} days ago`;
  }

  function draw() {
    document.getElementById("mode").textContent = sensed.emulated ?
      "Emulated rings (no Raspberry Pi pins): turn them below." : "Sensing the real rings.";
    const body = document.getElementById("diag");
    /* data-label names each value where a phone stacks the table (one block a ring) */
    body.replaceChildren(...(sensed.rings || []).map((ring, r) => el("tr", { "data-ring": r },
      el("td", { "data-label": "ring", text: String(r) }),
      el("td", { "data-label": "offset", text: String((sensed.offsets || [])[r]) }),
      el("td", { "data-label": "aligned", text: ring.aligned ? "yes" : "between slots" }),
      el("td", { "data-label": "settled", text: ring.settled ? "yes" : "moving" }),
      el("td", { "data-label": "edges", text: String(ring.edges) }),
      el("td", { "data-label": "errors", text: String(ring.errors) }),
      el("td", { "data-label": "last move", "data-last-move": r,
        text: ago(ring.last_movement) }))));
    Emulator.render(sensed, Panel.data.colours);
  }

  /* Zeroing asks first, on the page next to the button (no browser dialog). */
  const zero = document.getElementById("zero");
  const confirmBox = document.getElementById("zero-confirm");
  const done = document.getElementById("zero-done");
  zero.addEventListener("click", () => {
    confirmBox.hidden = false;
    zero.setAttribute("aria-expanded", "true");
    done.textContent = "";
    document.getElementById("zero-yes").focus();
  });
  function closeConfirm() {
    confirmBox.hidden = true;
    zero.setAttribute("aria-expanded", "false");
  }
  document.getElementById("zero-no").addEventListener("click", () => {
    closeConfirm();
    zero.focus();
  });
  document.getElementById("zero-yes").addEventListener("click", async () => {
    try {
      sensed = await api("POST", "/api/board/zero", {});
    } catch (error) { return; /* shown */ }
    closeConfirm();
    done.textContent = "All rings set to 0.";
    draw();
  });
  /* Keep "12 s ago" true while the page stays open. */
  window.setInterval(() => {
    for (const cell of document.querySelectorAll("[data-last-move]")) {
      const ring = (sensed.rings || [])[Number(cell.getAttribute("data-last-move"))] || {};
      cell.textContent = ago(ring.last_movement);
    }
  }, 1000);
  document.getElementById("set-ring").addEventListener("submit", async (event) => {
    event.preventDefault();
    const ring = document.getElementById("set-ring-number").value;
    const text = document.getElementById("set-ring-offset").value.trim();
    const offset = /^\d+$/.test(text) ? Number(text) : text;
    try {
      sensed = await api("POST", `/api/board/rings/${ring}/offset`, { offset });
      say(`Ring ${ring} set to ${offset}.`, "ok");
      draw();
    } catch (error) {  // in the form's words, next to Set
      Panel.sayError(error, (message) => {
        let m = /^offset: (-?\d+) is out of (\d+)\.\.(\d+)/.exec(message);
        if (m) return `Ring ${ring}: ${m[1]} is not a slot of this board; an offset is ${m[2]} to ${m[3]}.`;
        m = /^offset: expected a whole number/.exec(message);
        if (m) return `Ring ${ring}: the offset is a whole number of slots from the star, like 3.`;
        return message;
      });
    }
  });

  const reload = Panel.coalesce(async () => {
    sensed = await api("GET", "/api/board");
    draw();
  });
  live((item) => {
    if (item.type === "state" && item.board) {
      sensed = item.board;
      draw();
    } else if (item.type === "board") {
      const board = Panel.mergeBoard(sensed, item);  // null: a change was missed
      if (board === null) reload();
      else { sensed = board; draw(); }
    } else if (item.type === "leds" && item.leds) {
      sensed = Object.assign({}, sensed, { leds: item.leds });
      Emulator.drawLeds(item.leds);
    }
  });
  draw();
})();
