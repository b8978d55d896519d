/* The card game (cards.md): track a real table, or play on the panel with two phones.
   The server sends each phone only what its seat may see; this page draws it and posts
   the steps of the record format. */
"use strict";
(() => {
  const { el, api, live, say, letter, t, colourName } = Panel;
  const COLOURS = ["red", "orange", "yellow", "green", "purple", "black"];
  let game = Panel.data.game;
  const url = "/api/games/" + encodeURIComponent(game.id);
  const seatKey = "mandala.cards." + game.id;  // {seat, token}: this phone's seat, kept
  const hostKey = "mandala.host." + game.id;   // the host token, kept by the creating phone
  let pick = { colour: null, count: 1 };       // the colour and count being entered
  let stream = null;

  function kept() {
    try { return JSON.parse(window.localStorage.getItem(seatKey) || "null"); } catch (e) { return null; }
  }
  function headers() {
    const out = {};
    const mine = kept();
    if (mine && mine.token) out["X-Seat-Token"] = mine.token;
    const host = window.localStorage.getItem(hostKey);
    if (host) out["X-Host-Token"] = host;
    return out;
  }
  const call = (method, path, body) => api(method, url + path, body, headers());

  const seatNames = () => Object.keys(game.state.rivers);
  const lettered = (colour) => letter(colour) + " " + colourName(colour);  // "R red"
  /* The companion's level, said in the page's language. */
  const LEVELS = { easy: () => t("easy"), medium: () => t("medium"), hard: () => t("hard") };
  const levelName = (level) => (Object.hasOwn(LEVELS, level) ? LEVELS[level]() : String(level));

  const { card, cards, hidden, nth } = CardsDraw;
  // key order differs between the page's data (sorted) and the API's answers
  const canon = (x) => JSON.stringify(Object.keys(x).sort().map((k) => [k, x[k]]));
  const same = (a, b) => canon(a) === canon(b);
  const isLegal = (action) => (game.state.legal || []).some((x) => same(x, action));
  const note = (p) => Panel.phraseText(p.values && "mandala" in p.values ? { ...p, values: { ...p.values, mandala: nth(p.values.mandala) } } : p);

  /* Why a play is not open now, in a line beside it (a tooltip is invisible on touch). */
  function whyNot(action) {
    if (!action.colour && !action.discard) return t("pick a colour first");
    const colour = action.colour || action.discard;
    const legal = game.state.legal || [];
    const target = (x) => ("mountain" in action ? x.mountain === action.mountain :
      "field" in action ? x.field === action.field : "discard" in x);
    const here = legal.filter(target);
    if (!here.length) return t("nothing may go there now");
    if (!here.some((x) => (x.colour || x.discard) === colour)) {
      // the rule that keeps it out, when the table shows it (cards.md: one colour, one place)
      const mandala = (game.state.mandalas || [])[action.field !== undefined ? action.field : action.mountain];
      if (mandala && "field" in action && (mandala.mountain || {})[colour]) {
        return t("{colour} is in mountain {number}", { colour: colourName(colour), number: nth(action.field) });
      }
      if (mandala && "mountain" in action &&
        Object.values(mandala.fields || {}).some((field) => (field || {})[colour])) {
        return t("{colour} is in a field of mandala {number}",
          { colour: colourName(colour), number: nth(action.mountain) });
      }
      return t("not {colour}: the rules keep it out now", { colour: colourName(colour) });
    }
    return t("not {count} at once", { count: action.count });
  }

  /* One tap, one action: the pick is used up at the tap; the answer is drawn only when the
     stream has not already drawn that version (a late answer drew the entry again while
     the next colour was being picked). */
  async function act(action) {
    const picked = pick;
    pick = { colour: null, count: 1 };
    try {
      const answer = await call("POST", "/actions", { version: game.version, action });
      if (Panel.isOlder(game, answer)) { game = answer; render(); }
    } catch (error) {
      pick = picked;  // refused: nothing happened, the pick stands
      if (error.status === 409) refresh();
    }
  }

  async function refresh() {
    try {
      const answer = await call("GET", "");
      if (!Panel.isOlder(answer, game)) { game = answer; render(); }  // a slow answer is not news
    } catch (error) { /* shown */ }
  }

  function statusText(s) {
    const names = seatNames();
    if (s.over) {
      const scores = names.map((n) => n + " " + s.scores[n]).join(" · ");
      return s.winner ? t("Game over: {name} wins ({scores})", { name: s.winner, scores }) :
        t("Game over: a shared win ({scores})", { scores });
    }
    if (s.due && "deal" in s.due) return t("Enter the cards turned up into mountain {number}", { number: nth(s.due.deal) });
    if (s.due && "cup" in s.due) return t("Play has ended: enter {name}'s two starting cup cards", { name: s.due.cup });
    if (s.claiming) {
      return t("Mandala {number} is complete: {name} claims a colour", { number: nth(s.claiming.mandala), name: s.to_move });
    }
    return t("{name} to play", { name: s.to_move });
  }

  function renderStatus(s) {
    const line = document.getElementById("cards-status");
    const mode = s.mode === "table" ? t("tracking a real table") : t("played on the panel");
    const who = s.mode === "table" ? null : (s.seat ? t("you are {name}", { name: s.seat }) : t("shared view"));
    line.replaceChildren(el("span", { class: "what", text: statusText(s) }),
      el("span", { class: "chip", text: mode }), ...(who ? [el("span", { class: "chip", text: who })] : []));
    const piles = { deck: s.deck, discard: s.discard };
    document.getElementById("cards-counts").textContent = s.end_triggered && !s.over ?
      t("Deck: {deck} · discard pile: {discard} · the end is triggered: the game ends after the next destruction", piles) :
      t("Deck: {deck} · discard pile: {discard}", piles);
    const alert = document.getElementById("cards-alert");
    alert.hidden = !(s.end_triggered && !s.over);
    alert.textContent = t("The deck ran out and was reshuffled: the game ends after the next destruction.");
  }

  function renderSeats(s) {
    const box = document.getElementById("cards-seats");
    box.hidden = s.mode !== "play";
    if (box.hidden) return;
    const list = document.getElementById("cards-seat-list");
    list.replaceChildren();
    seatNames().forEach((name, i) => {
      const mine = s.seat === name;
      const level = s.players && s.players[i] ? s.players[i].computer : null;
      const taken = Boolean(s.taken && s.taken[i]) || Boolean(level);  // the companion's seat is never free
      const state = mine ? t("your seat") : (level ? t("played by the companion ({level})", { level: levelName(level) }) :
        (taken ? t("taken by a phone") : t("free")));
      list.append(el("li", { "data-seat": i },
        el("strong", { text: name }), " — " + state,
        !mine && !taken && !s.over ? el("button", { type: "button", class: "small", "data-take": i, text: t("Take {name}'s seat", { name }) }) : null,
        s.host && taken && !level ? el("button", { type: "button", class: "small danger", "data-free": i, text: t("Free") }) : null));
    });
  }

  function renderClaim(s) {
    const box = document.getElementById("cards-claim");
    box.hidden = !s.claiming || s.over;
    if (box.hidden) return;
    const m = s.claiming.mandala;
    document.getElementById("cards-claim-title").textContent = t("Mandala {number} is complete: destruction", { number: nth(m) });
    document.getElementById("cards-claim-who").textContent =
      t("{chooser} chose first. Now {name} claims a colour from mountain {number}:",
        { chooser: s.claiming.chooser, name: s.to_move, number: nth(m) });
    const mayClaim = s.mode === "table" || isLegal({ claim: s.claims.length ? s.claims[0].colour : "" });
    const list = document.getElementById("cards-claim-list");
    list.replaceChildren();
    for (const c of s.claims) {
      let where;
      const to = { name: s.to_move, space: c.river_space, count: c.count - 1 };
      if (c.to === "discard") where = t("to the discard pile ({name}'s field there is empty)", to);
      else if (c.to === "river") {
        where = c.count > 1 ? t("1 to {name}'s river, space {space}, {count} to the cup", to) :
          t("1 to {name}'s river, space {space}", to);
      } else where = t("all to {name}'s cup", to);
      list.append(el("li", {},
        mayClaim
          ? el("button", { type: "button", class: "card " + c.colour, "data-claim": c.colour, onclick: () => act({ claim: c.colour }) },
              el("span", { class: "swatch" }), t("Claim {colour} ×{count}", { colour: lettered(c.colour), count: c.count }))
          : card(c.colour, c.count),
        " → " + where));
    }
  }

  function colourSelect(label, name) {
    return el("label", {}, label, el("select", { name },
      COLOURS.map((c) => el("option", { value: c, text: lettered(c) }))));
  }

  function renderEntry(s) {
    const box = document.getElementById("cards-entry");
    const body = document.getElementById("cards-entry-body");
    const title = document.getElementById("cards-entry-title");
    body.replaceChildren();
    box.hidden = true;
    if (s.over || s.claiming) return;
    if (s.due && "deal" in s.due) {
      const deal = (s.legal || []).find((a) => "deal" in a);
      const n = deal ? deal.colours.length : 2;
      box.hidden = false;
      title.textContent = t("Deal into mountain {number}", { number: nth(s.due.deal) });
      const selects = Array.from({ length: n }, (_, i) => colourSelect(t("card {number}", { number: i + 1 }), "deal-" + i));
      body.append(el("div", { class: "entry-grid" }, selects),
        el("button", { type: "button", class: "primary", id: "cards-enter-deal", text: n ? t("Enter the deal") : t("Nothing to deal: go on"),
          onclick: () => act({ deal: s.due.deal, colours: selects.map((l) => l.querySelector("select").value) }) }));
      return;
    }
    if (s.due && "cup" in s.due) {
      box.hidden = false;
      title.textContent = t("{name}'s starting cup cards", { name: s.due.cup });
      const selects = [colourSelect(t("card {number}", { number: 1 }), "cup-0"), colourSelect(t("card {number}", { number: 2 }), "cup-1")];
      body.append(el("div", { class: "entry-grid" }, selects),
        el("button", { type: "button", class: "primary", id: "cards-enter-cup", text: t("Enter {name}'s cup", { name: s.due.cup }),
          onclick: () => act({ cup: s.due.cup, colours: selects.map((l) => l.querySelector("select").value) }) }));
      return;
    }
    const mine = s.mode === "play" ? s.hands[s.seat] : null;
    if (s.mode === "play" && !(s.legal && s.legal.length)) return;  // not this phone's turn
    box.hidden = false;
    title.textContent = s.mode === "play" ? t("Your turn, {name}", { name: s.seat }) : t("{name}'s play", { name: s.to_move });
    const choices = s.mode === "play" ? Object.keys(mine) : COLOURS;
    if (!choices.includes(pick.colour)) pick = { colour: choices[0] || null, count: 1 };
    const held = s.mode === "play" ? (mine[pick.colour] || 0) : s.hands[s.to_move];
    if (pick.count > held) pick.count = Math.max(1, held);
    body.append(el("div", { class: "entry-grid", role: "group", "aria-label": t("colour") },
      choices.map((c) => el("button", { type: "button", class: "card " + c, "data-colour": c, "aria-pressed": String(c === pick.colour),
        onclick: () => { pick.colour = c; renderEntry(game.state); } },
        el("span", { class: "swatch" }), s.mode === "play" ? letter(c) + " ×" + mine[c] : lettered(c)))));
    body.append(el("label", {}, t("How many (field or discard)"),
      el("select", { id: "cards-count", onchange: (e) => { pick.count = Number(e.target.value); renderEntry(game.state); } },
        Array.from({ length: Math.max(1, held) }, (_, i) => el("option", { value: i + 1, selected: i + 1 === pick.count, text: String(i + 1) })))));
    const c = pick.colour;
    const n = pick.count;
    const times = (place) => place + " ×" + n;  // "Field 1 ×2": the place, then how many
    const options = [  // [the place, the button's text, the action]
      [t("Mountain {number}", { number: 1 }), null, { mountain: 0, colour: c }],
      [t("Mountain {number}", { number: 2 }), null, { mountain: 1, colour: c }],
      [t("Field {number}", { number: 1 }), times, { field: 0, colour: c, count: n }],
      [t("Field {number}", { number: 2 }), times, { field: 1, colour: c, count: n }],
      [t("Discard"), times, { discard: c, count: n }],
    ];
    body.append(el("div", { class: "entry-grid" }, options.map(([place, withCount, action]) =>
      el("button", { type: "button", class: "primary", "data-action": JSON.stringify(action),
        text: withCount ? withCount(place) : place, disabled: !c || !isLegal(action), onclick: () => act(action) }))));
    const closed = options.filter(([, , action]) => !c || !isLegal(action));
    if (closed.length) {
      body.append(el("ul", { class: "list why", id: "cards-why" }, closed.map(([place, , action]) =>
        el("li", { "data-why": JSON.stringify(action), text: `${place}: ${whyNot(action)}` }))));
    }
  }

  function renderMandalas(s) {
    CardsDraw.mandalas(document.getElementById("cards-mandalas"), s, seatNames());
  }

  /* A player's heading: the name, "(you)" on their own phone, "— to act" on their turn. */
  function heading(s, name) {
    const you = s.seat === name;
    if (s.to_move === name) return you ? t("{name} (you) — to act", { name }) : t("{name} — to act", { name });
    return you ? t("{name} (you)", { name }) : name;
  }

  function renderPlayers(s) {
    const box = document.getElementById("cards-players");
    box.replaceChildren();
    for (const name of seatNames()) {
      const river = s.rivers[name];
      const cup = s.cups[name];
      const hand = s.hands[name];
      const score = s.scores[name];
      box.append(el("div", { class: "player" + (s.to_move === name ? " turn" : ""), "data-player": name },
        el("h3", {}, Panel.playerDot(name), " " + heading(s, name)),
        el("div", { class: "area" }, el("span", { text: t("Score") }),
          el("strong", { class: "score", text: score === null ? t("hidden until the end") : String(score) })),
        el("div", { class: "area" }, el("span", { text: t("River") }),
          CardsDraw.river(river)),
        el("div", { class: "area" }, el("span", { text: t("Cup") }), el("span", { class: "cup" }, typeof cup === "number" ? hidden(cup) : cards(cup))),
        el("div", { class: "area" }, el("span", { text: t("Hand") }), el("span", { class: "hand" }, typeof hand === "number" ? hidden(hand) : cards(hand)))));
    }
  }

  /* What the companion is doing ("Bo (companion, easy) is thinking…"), in the page's language. */
  const ERRORS = {
    "the companion could not decide its action": () => t("the companion could not decide its action"),
    "the companion could not play its action": () => t("the companion could not play its action"),
  };
  function companionNow(c) {
    const values = { name: c.seat, level: levelName(c.level) };
    if (!c.error) return t("{name} (companion, {level}) is thinking…", values);
    const error = Object.hasOwn(ERRORS, c.error) ? ERRORS[c.error]() : c.error;
    return t("{name} (companion, {level}) could not play: {error}", { ...values, error });
  }

  // A game against the companion: what it is doing, and one line per action it played.
  function renderCompanion(s) {
    const box = document.getElementById("cards-companion");
    const said = s.companion_said || [];
    box.hidden = !s.companion && !said.length;
    if (box.hidden) return;
    const now = document.getElementById("cards-companion-now");
    now.textContent = s.companion ? companionNow(s.companion) : "";
    now.hidden = !s.companion;
    document.getElementById("cards-companion-said").replaceChildren(...said.slice(-4).reverse().map((line) =>
      el("li", { "data-action": line.action, text: note(line.phrase) })));
  }

  function renderLog(s) {
    const list = document.getElementById("cards-log");
    list.replaceChildren(...s.log.slice().reverse().map((entry) =>
      el("li", { text: entry.instructions.length ? entry.instructions.map(note).join(". ") : JSON.stringify(entry.action) })));
  }

  function render() {
    const s = game.state;
    renderStatus(s);
    renderSeats(s);
    renderClaim(s);
    renderCompanion(s);
    renderEntry(s);
    renderMandalas(s);
    renderPlayers(s);
    renderLog(s);
    const undo = document.getElementById("cards-undo");
    undo.disabled = s.undo !== null;
    undo.title = s.undo ? Panel.phraseText(s.undo) : t("undo the last action");
    const why = document.getElementById("cards-undo-why");  // the reason, visible
    why.hidden = s.undo === null;
    why.textContent = s.undo ? t("Undo: {reason}", { reason: Panel.phraseText(s.undo) }) : "";
  }

  async function take(seat, token) {
    const extra = token ? { "X-Seat-Token": token } : {};
    const answer = await api("POST", url + "/seats/" + seat + "/take", {}, extra);
    window.localStorage.setItem(seatKey, JSON.stringify({ seat, token: answer.token }));
    follow();  // the live stream shows this phone's seat from now on
    await refresh();
  }

  document.getElementById("cards-seat-list").addEventListener("click", async (event) => {
    const target = event.target;
    if (!target.getAttribute) return;
    const toTake = target.getAttribute("data-take");
    const toFree = target.getAttribute("data-free");
    try {
      if (toTake !== null) await take(Number(toTake), null);
      if (toFree !== null) { await call("POST", "/seats/" + toFree + "/free", {}); await refresh(); }
    } catch (error) { /* shown */ }
  });

  document.getElementById("cards-undo").addEventListener("click", async () => {
    try { game = await call("POST", "/undo", { version: game.version }); render(); say(t("Undone."), "ok"); }
    catch (error) { if (error.status === 409) refresh(); }
  });

  function onItem(item) {
    if (item.type !== "game" || item.id !== game.id) return;
    if (item.deleted) { say(t("This game was deleted.")); return; }
    if (item.version < game.version) return;
    if (item.state && item.state.seat !== game.state.seat) { refresh(); return; }
    const view = Panel.merge(game, item);  // null: a change was missed
    if (view === null) refresh();
    else if (view !== game) { game = view; render(); }
    if (typeof Join !== "undefined") Join.refresh();  // a seat taken or freed: its code goes or comes
  }

  function follow() {
    if (stream) stream.close();
    stream = live(onItem);
  }

  render();
  follow();
  // A phone that slept or reloaded without its cookie shows its seat again with the kept token.
  const mine = kept();
  if (game.state.mode === "play" && !game.state.over && !game.state.seat && mine && mine.token) {
    take(mine.seat, mine.token).catch(() => window.localStorage.removeItem(seatKey));
  }
  // A seat's join code (join.js: ...?seat=N) opens the game with that seat's Take button ready.
  const wanted = new URLSearchParams(window.location.search).get("seat");
  const ready = wanted === null ? null :
    document.querySelector('#cards-seat-list [data-take="' + Number(wanted) + '"]');
  if (ready) { ready.classList.add("primary"); ready.focus(); ready.scrollIntoView({ block: "center" }); }
})();
