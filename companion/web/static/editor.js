/* The board editor: tap a ring's slots black or coloured, name the board, save it to
   <data>/boards/, then use it for a new game. The slots are buttons, a finger wide; on a
   wide screen the picture's slots can be clicked too. */
"use strict";
(() => {
  const { el, api, say, letter, t, colourName } = Panel;
  let board = JSON.parse(JSON.stringify(Panel.data.board));
  let ring = 0;
  const wide = window.matchMedia("(min-width: 900px)");

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
      text: `${r} ${letter(info.colour)}`, title: t("ring {ring} ({colour})", { ring: r, colour: colourName(info.colour) }),
      onclick: () => { ring = r; draw(); } })));
    const info = board.rings[ring];
    const black = new Set(info.black);
    const slots = [];
    for (let slot = 0; slot < board.spokes; slot += 1) {
      slots.push(el("button", { type: "button", class: "slot", "data-slot-button": slot,
        "aria-pressed": String(black.has(slot)),
        style: black.has(slot) ? null : `--slot: ${BoardSvg.FILL[info.colour]}`,
        onclick: () => toggle(ring, slot) },
      el("span", { text: String(slot) }), el("small", { text: black.has(slot) ? t("black") :
        `${letter(info.colour)} ${colourName(info.colour)}` })));
    }
    document.getElementById("slot-buttons").replaceChildren(...slots);
    BoardSvg.draw(document.getElementById("board"), board, {
      offsets: new Array(10).fill(0), selectedRing: ring, open: BoardSvg.openPaths(board,
        new Array(10).fill(0)),
      onSlot: wide.matches ? (r, slot) => toggle(r, slot) : null,
    });
    document.getElementById("ring-summary").textContent = t("Ring {ring} ({colour}, {letter}): black slots {slots}",
      { ring, colour: colourName(info.colour), letter: letter(info.colour), slots: info.black.join(" ") || t("none") });
  }

  document.getElementById("start").addEventListener("change", async (event) => {
    const answer = await api("GET", "/api/boards/" + encodeURIComponent(event.target.value));
    board = answer.board;
    draw();
  });
  const nameInput = document.getElementById("board-name");
  const fileInput = document.getElementById("board-file");
  nameInput.addEventListener("input", () => { fileInput.value = slug(nameInput.value); });

  /* The API's refusals in the editor's words, next to Save (a name in use may be saved over):
     ``{ text, taken }``, ``taken`` when the name is one of the owner's boards. The refusal of
     a name in use comes in the page's language (the catalogue's message, the name quoted as
     the server quotes it); a board or file name that cannot be saved stays English
     (companion/games/base.py) and is read by its words. */
  const saveRow = document.getElementById("save-row");
  function plainSave(message) {
    const used = t("file: a board named {name} exists already; choose another name",
      { name: `'${fileInput.value}'` });
    if (message === used || /exists already/.test(message)) {
      return Panel.data.boards.bundled.includes(fileInput.value) ?
        { text: t("“{name}” is a board that comes with the companion: choose another name.",
          { name: fileInput.value }) } :
        { text: t("The board's name is already used: choose another or overwrite."), taken: true };
    }
    const m = /^board(?:\.(\w+))?(?:\[(\d+)\])?[^:]*: (.*)$/.exec(message);
    if (m) {
      return { text: m[1] ? t("The board cannot be saved: {reason} ({field}).", { reason: m[3], field: m[1] }) :
        t("The board cannot be saved: {reason}.", { reason: m[3] }) };
    }
    const file = /^file: (.*)$/.exec(message);
    return { text: file ? t("File name: {reason}", { reason: file[1] }) : message };
  }

  async function save(overwrite) {
    board.name = nameInput.value.trim();
    const body = { file: fileInput.value, board };
    if (overwrite) body.overwrite = true;
    try {
      const answer = await api("POST", "/api/boards", body);
      say(t("Saved as {file}.", { file: answer.file }), "ok", null);
      document.getElementById("use-board").href = "/?board=" + encodeURIComponent(answer.file);
      document.getElementById("saved").hidden = false;
    } catch (error) {
      const { text, taken } = plainSave(error.message);
      say(text, "error", saveRow);
      if (taken) {
        saveRow.nextElementSibling.append(" ", el("button", { type: "button", class: "danger",
          id: "overwrite", text: t("Overwrite {file}", { file: fileInput.value }), onclick: () => save(true) }));
        saveRow.nextElementSibling.scrollIntoView({ block: "nearest" });
      }
    }
  }
  document.getElementById("save").addEventListener("submit", (event) => {
    event.preventDefault();
    save(false);
  });
  wide.addEventListener("change", draw);
  draw();
})();
