/* Home: the games here (resume, export, delete), a new game, an import. */
"use strict";
(() => {
  const { el, api, live, say, coalesce } = Panel;

  function seatNames(seats) {
    return (seats || []).map((s) => (typeof s === "string" ? s : s.name)).join(", ");
  }

  // The list is paged, newest first (?page=N); live updates carry the first page.
  const pages = document.getElementById("pages");
  const page = Number(pages.dataset.page) || 1;

  function renderPages(answer) {
    const link = (n, rel, text) => el("a", { class: "button", rel, href: "/?page=" + n, text });
    pages.replaceChildren(...[
      answer.page > 1 ? link(answer.page - 1, "prev", "Newer games") : null,
      el("small", { text: `page ${answer.page} of ${answer.pages} (${answer.total} games)` }),
      answer.page < answer.pages ? link(answer.page + 1, "next", "More games") : null,
    ].filter(Boolean));
    pages.hidden = answer.pages <= 1 && answer.page === 1;
  }

  function render(games) {
    const list = document.getElementById("games");
    list.replaceChildren();
    if (!games.length) {
      list.append(el("li", { class: "empty", text: page > 1 ? "No games on this page." : "No games yet." }));
    }
    for (const g of games) {
      const href = "/games/" + encodeURIComponent(g.id);
      list.append(el("li", { "data-id": g.id },
        el("a", { class: "resume", href, text: g.kind + ": " + seatNames(g.seats) }),
        el("small", { text: (g.over ? "over" : "in play") + " · version " + g.version }),
        el("span", { class: "row" },
          el("a", { class: "button", href, text: "Resume" }),
          el("a", { class: "button", href: href.replace("/games/", "/api/games/") + "/record",
            download: true, text: "Export" }),
          el("button", { type: "button", class: "danger", "data-delete": g.id, text: "Delete" }))));
    }
  }

  const refresh = coalesce(async () => {
    const answer = await api("GET", "/api/games?page=" + page);
    render(answer.games);
    renderPages(answer);
  });

  document.getElementById("games").addEventListener("click", async (event) => {
    const id = event.target.getAttribute && event.target.getAttribute("data-delete");
    if (!id || !window.confirm("Delete this game? It cannot be brought back.")) return;
    try {
      await api("DELETE", "/api/games/" + encodeURIComponent(id));
    } catch (error) { return; /* shown */ }
    say("Game deleted.", "ok");
    refresh();
  });

  const kind = document.getElementById("kind");
  const ringsOptions = document.getElementById("rings-options");
  const showOptions = () => {
    ringsOptions.hidden = kind.value !== "rings";
    document.getElementById("cards-options").hidden = kind.value !== "cards";
    // corners and colours are ring-board seats' only
    for (const select of document.querySelectorAll("#seats select")) select.hidden = ringsOptions.hidden;
  };
  kind.addEventListener("change", showOptions);
  showOptions();

  // cards played on the panel: against another phone, or against the companion
  const cardsMode = document.getElementById("cards-mode");
  const opponent = document.getElementById("cards-opponent");
  const companionSeat = document.getElementById("cards-companion-seat");
  const showOpponent = () => {
    document.getElementById("cards-opponent-row").hidden = cardsMode.value !== "play";
    document.getElementById("cards-companion-seat-row").hidden = cardsMode.value !== "play" || !opponent.value;
  };
  cardsMode.addEventListener("change", showOpponent);
  opponent.addEventListener("change", showOpponent);
  showOpponent();
  const against = () => (kind.value === "cards" && cardsMode.value === "play" ? opponent.value : "");

  document.getElementById("new-game").addEventListener("submit", async (event) => {
    event.preventDefault();
    const seats = [];
    for (const row of document.querySelectorAll("#seats .seat")) {
      const name = row.querySelector("[name=seat-name]").value.trim();
      if (!name) continue;
      const seat = { name };
      if (kind.value === "rings") {
        seat.corner = Number(row.querySelector("[name=seat-corner]").value);
        seat.colour = row.querySelector("[name=seat-colour]").value;
        const player = row.querySelector("[name=seat-player]").value;
        if (player !== "human") seat.computer = player;  // easy, medium or hard
        if (row.querySelector("[name=seat-hints]").value === "on") seat.hints = true;
      }
      seats.push(kind.value === "rings" ? seat : name);  // other games: plain names
    }
    const body = { kind: kind.value, seats };
    if (kind.value === "rings") {
      body.variant = document.getElementById("variant").value;
      body.board = document.getElementById("board").value;
    }
    if (kind.value === "cards") body.mode = cardsMode.value;
    const level = against();
    const theirs = Number(companionSeat.value);
    if (level && seats[theirs]) seats[theirs] = { name: seats[theirs], computer: level };
    const seed = document.getElementById("seed").value.trim();
    if (seed) body.seed = Number(seed);
    try {
      const game = await api("POST", "/api/games", body);
      // cards played on the panel: this phone is the host (frees seats, deletes the game)
      if (game.host_token) window.localStorage.setItem("mandala.host." + game.id, game.host_token);
      if (level) {  // this phone plays the other seat: take it now (the card page keeps it)
        const seat = 1 - theirs;
        const taken = await api("POST", "/api/games/" + encodeURIComponent(game.id) + "/seats/" + seat + "/take", {});
        window.localStorage.setItem("mandala.cards." + game.id, JSON.stringify({ seat, token: taken.token }));
      }
      window.location.href = "/games/" + encodeURIComponent(game.id);
    } catch (error) { /* shown */ }
  });

  document.getElementById("import").addEventListener("submit", async (event) => {
    event.preventDefault();
    const file = document.getElementById("import-file").files[0];
    if (!file) { say("Choose a record file first."); return; }
    let record;
    try { record = JSON.parse(await file.text()); } catch (error) {
      say(file.name + ": not JSON: " + error.message); return;
    }
    try {
      const game = await api("POST", "/api/games", { record });
      window.location.href = "/games/" + encodeURIComponent(game.id);
    } catch (error) { /* shown */ }
  });

  const boardSelect = document.getElementById("board");
  const wanted = new URLSearchParams(window.location.search).get("board");
  if (wanted && boardSelect.querySelector(`option[value="${CSS.escape(wanted)}"]`)) {
    boardSelect.value = wanted;
    kind.value = "rings";
    showOptions();
  }

  live((item) => {
    if ((item.type === "games" || item.type === "state") && Array.isArray(item.games)) {
      if (page === 1) render(item.games);
      refresh();  // the page's own games, and how many pages there are now
    }
  });
})();
