/* The board editor: tap a ring's slots black or coloured, name the board, save it to
   <data>/boards/, then use it for a new game. */
"use strict";
(() => {
  const { el, api, say, letter } = Panel;
  let board = JSON.parse(JSON.stringify(Panel.data.board));
  let ring = 0;

  function slug(text) {
    return text.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 40);
  }

  function toggle(r, slot) {
    ring = r;
    const black = new Set(board.rings[r].black);
    if (black.has(slot)) black.delete(slot); else black.add(slot);
    board.rings[r].black = [...black].sort((a, b) => a - b);
    draw();
  }

  function draw() {
    const tabs = document.getElementById("ring-tabs");
    tabs.replaceChildren(...board.rings.map((info, r) => el("button", { type: "button",
      class: "small", "aria-pressed": String(r === ring), "data-ring-tab": r,
      text: `${r} ${letter(info.colour)}`, title: `ring ${r} (${info.colour})`,
      onclick: () => { ring = r; draw(); } })));
    BoardSvg.draw(document.getElementById("board"), board, {
      offsets: new Array(10).fill(0), selectedRing: ring, open: BoardSvg.openPaths(board,
        new Array(10).fill(0)),
      onSlot: (r, slot) => toggle(r, slot),
    });
    const info = board.rings[ring];
    document.getElementById("ring-summary").textContent = `Ring ${ring} (${info.colour}, ` +
      `${letter(info.colour)}): black slots ${info.black.join(" ") || "none"}`;
  }

  document.getElementById("start").addEventListener("change", async (event) => {
    const answer = await api("GET", "/api/boards/" + encodeURIComponent(event.target.value));
    board = answer.board;
    draw();
  });
  const nameInput = document.getElementById("board-name");
  const fileInput = document.getElementById("board-file");
  nameInput.addEventListener("input", () => { fileInput.value = slug(nameInput.value); });

  document.getElementById("save").addEventListener("submit", async (event) => {
    event.preventDefault();
    board.name = nameInput.value.trim();
    try {
      const answer = await api("POST", "/api/boards", { file: fileInput.value, board });
      say(`Saved as ${answer.file}.`, "ok");
      document.getElementById("use-board").href = "/?board=" + encodeURIComponent(answer.file);
      document.getElementById("saved").hidden = false;
    } catch (error) { /* shown */ }
  });
  draw();
})();
