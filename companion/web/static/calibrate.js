/* Calibration (zero all rings, set one ring) and the sensor diagnostics, live. */
"use strict";
(() => {
  const { el, api, live, say, t, tn } = Panel;
  let sensed = Panel.data.rings;
  /* The Pi's clock minus this phone's: the last-move times are the Pi's. */
  const skew = Panel.data.now - Date.now() / 1000;

  function ago(time) {
    if (time === null || time === undefined) return "—";
    const seconds = Math.max(0, Math.round(Date.now() / 1000 + skew - time));
    if (seconds < 60) return t("{seconds} s ago", { seconds });
    if (seconds < 3600) return t("{minutes} min ago", { minutes: Math.floor(seconds / 60) });
    if (seconds < 86400) return t("{hours} h ago", { hours: Math.floor(seconds / 3600) });
    return tn("{count} day ago", "{count} days ago", Math.floor(seconds / 86400));
  }

  function draw() {
    document.getElementById("mode").textContent = sensed.emulated ?
      t("Emulated rings (no Raspberry Pi pins): turn them below.") : t("Sensing the real rings.");
    const body = document.getElementById("diag");
    /* data-label names each value where a phone stacks the table (one block a ring) */
    body.replaceChildren(...(sensed.rings || []).map((ring, r) => el("tr", { "data-ring": r },
      el("td", { "data-label": t("ring"), text: String(r) }),
      el("td", { "data-label": t("offset"), text: String((sensed.offsets || [])[r]) }),
      el("td", { "data-label": t("aligned"), text: ring.aligned ? t("yes") : t("between slots") }),
      el("td", { "data-label": t("settled"), text: ring.settled ? t("yes") : t("moving") }),
      el("td", { "data-label": t("edges"), text: String(ring.edges) }),
      el("td", { "data-label": t("errors"), text: String(ring.errors) }),
      el("td", { "data-label": t("last move"), "data-last-move": r,
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
    done.textContent = t("All rings set to 0.");
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
      say(t("Ring {ring} set to {offset}.", { ring, offset }), "ok");
      draw();
    } catch (error) {  // in the form's words, next to Set
      Panel.sayError(error, (message) => {
        let m = /^offset: (-?\d+) is out of (\d+)\.\.(\d+)/.exec(message);
        if (m) {
          return t("Ring {ring}: {offset} is not a slot of this board; an offset is {low} to {high}.",
            { ring, offset: m[1], low: m[2], high: m[3] });
        }
        m = /^offset: expected a whole number/.exec(message);
        if (m) return t("Ring {ring}: the offset is a whole number of slots from the star, like 3.", { ring });
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
