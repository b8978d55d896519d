/* Join from a phone (issue 25): fills every element with id "join" from GET /api/join.

   The home page and the table view show the panel's address and its QR code; an element with
   data-game="<id>" also shows one code per free seat of that game when it hides cards
   ("Scan to take Bo's seat"; the code carries the game and the seat, never a token).
   data-only="seats" shows the seats' codes alone (the card game's page). The box's address
   and the free seats change, so the block is asked again when data-game changes, when the
   page comes back into view, and every REFRESH_MS while it is shown. Join.refresh() asks
   at once (a page that saw a seat taken). */
"use strict";

const Join = (() => {
  const REFRESH_MS = 15000;
  const el = Panel.el;

  function code(src, alt) {
    return el("img", { class: "qr", src, alt, width: 264, height: 264 });
  }

  function addressBlock(join) {
    if (!join.reachable) {
      const lines = [el("p", { class: "message", id: "join-words", text: Panel.phraseText(join.words) })];
      if (join.start) lines.push(el("p", {}, el("code", { id: "join-start", text: join.start })));
      return lines;
    }
    return [
      el("figure", { class: "join-code" },
        code(join.qr, Panel.phraseText(join.alt)),
        el("figcaption", {},
          el("a", { id: "join-url", class: "join-url", href: join.url, text: join.url }),
          join.name ? el("span", { id: "join-name", class: "join-name", text: join.name }) : null)),
      el("p", { id: "join-words", class: "muted", text: Panel.phraseText(join.words) }),
    ];
  }

  function seatBlock(join) {
    if (!join.seats || !join.seats.length) return [];
    return [el("ul", { class: "join-seats", id: "join-seats" },
      join.seats.map((seat) => el("li", { "data-seat": seat.seat },
        el("figure", { class: "join-code" },
          code(seat.qr, Panel.phraseText(seat.alt)),
          el("figcaption", { text: Panel.phraseText(seat.words) })))))];
  }

  function draw(box, join) {
    const seatsOnly = box.getAttribute("data-only") === "seats";
    const parts = seatsOnly ? seatBlock(join) : [...addressBlock(join), ...seatBlock(join)];
    box.querySelector("[data-join-body]").replaceChildren(...parts);
    box.hidden = parts.length === 0;
    box.setAttribute("data-join-url", join.url || "");
  }

  function body(box) {
    let inner = box.querySelector("[data-join-body]");
    if (!inner) {
      inner = el("div", { "data-join-body": "" });
      box.append(inner);
    }
    return inner;
  }

  async function fill(box) {
    body(box);
    const game = box.getAttribute("data-game");
    const url = "/api/join" + (game ? "?game=" + encodeURIComponent(game) : "");
    let response;
    try {
      response = await fetch(url, { headers: { Accept: "application/json" } });
    } catch (error) {
      return;  // the box is away for a moment: the block stays as it was
    }
    if (response.status === 404 && !game) { box.hidden = true; return; }  // no address known
    if (!response.ok) return;
    draw(box, await response.json());
  }

  function refresh() {
    for (const box of document.querySelectorAll("#join")) fill(box);
  }

  for (const box of document.querySelectorAll("#join")) {
    let asked = box.getAttribute("data-game");
    new MutationObserver(() => {  // another game shown: its seats (only when it changed)
      if (box.getAttribute("data-game") === asked) return;
      asked = box.getAttribute("data-game");
      fill(box);
    }).observe(box, { attributes: true, attributeFilter: ["data-game"] });
  }
  document.addEventListener("visibilitychange", () => { if (!document.hidden) refresh(); });
  window.setInterval(() => { if (!document.hidden) refresh(); }, REFRESH_MS);
  refresh();
  return { refresh };
})();
