/* Shared by every page: the API call, messages, and the live stream (/api/events). */
"use strict";

const Panel = (() => {
  const page = JSON.parse(document.getElementById("page").textContent);
  const data = JSON.parse(document.getElementById("data").textContent);

  function el(tag, attrs, ...children) {
    return build(document.createElement(tag), attrs, children);
  }

  /* The same for SVG elements: svg("circle", { r: 4 }, svg("title", { text: "..." })). */
  function svg(tag, attrs, ...children) {
    return build(document.createElementNS("http://www.w3.org/2000/svg", tag), attrs, children);
  }

  function build(node, attrs, children) {
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
      else if (key === "text") node.textContent = value;
      // through the CSSOM: the panel's CSP refuses style attributes, not node.style
      else if (key === "style") node.style.cssText = value;
      else node.setAttribute(key, value === true ? "" : value);
    }
    for (const child of children.flat()) {
      if (child !== null && child !== undefined) node.append(child);
    }
    return node;
  }

  /* Feedback where the finger is: a line right after the block (marked ``data-feedback``)
     that holds the control the person last used, else a toast above the bottom bar; both
     stay inside the viewport. ``near``: an element to put the line after instead. */
  let lastControl = null;
  document.addEventListener("click", (event) => {
    const control = event.target.closest && event.target.closest("button, a, input, select");
    if (!control) return;
    lastControl = { control, at: Date.now() };
    // a new tap answers the last message: it goes (its cause may be gone)
    for (const box of document.querySelectorAll(".feedback, #message")) box.hidden = true;
  }, true);

  function feedbackAfter(near) {
    let box = near.nextElementSibling;
    if (!box || !box.classList.contains("feedback")) {
      box = el("p", { class: "feedback message", role: "alert", hidden: true });
      near.after(box);
    }
    return box;
  }

  function anchor() {
    if (!lastControl || Date.now() - lastControl.at > 5000 || !lastControl.control.isConnected) {
      return null;
    }
    return lastControl.control.closest("[data-feedback]");
  }

  function say(text, kind, near) {
    const toast = document.getElementById("message");
    const where = near === undefined ? anchor() : near;
    const box = where ? feedbackAfter(where) : toast;
    // one message at a time: the newest, where it was caused
    for (const other of document.querySelectorAll(".feedback, #message")) {
      if (other !== box) other.hidden = true;
    }
    box.textContent = text || "";
    box.className = (box === toast ? "message toast " : "feedback message ") + (kind || "error");
    box.hidden = !text;
    window.clearTimeout(say.timer);
    if (text && kind === "ok") say.timer = window.setTimeout(() => { box.hidden = true; }, 4000);
    if (text && where) box.scrollIntoView({ block: "nearest" });
  }

  /* An API message as the players read it: a stale version is never said in the API's words
     (each page fetches the game again on a 409). */
  function plain(message) {
    return /^version \d+ is stale/.test(message) ?
      t("The game changed on another phone: it is shown as it stands now.") : message;
  }

  /* Show the message ``words`` turns an API error into (or the API's own when it gives none). */
  function sayError(error, words, near) {
    say((words && words(error.message || "", error)) || plain(error.message), "error", near);
  }

  /* The phone's clock, which a box that never reached a time server takes (api_box). */
  function phoneTime() {
    return { "X-Phone-Time": String(Date.now()) };
  }

  /* Fetch a file the companion makes (GET ``url``) and hand it to the browser as a download;
     say "Downloaded NAME (n kB)." in ``said``. Throws the API's refusal as an Error. */
  async function download(url, accept, fallback, said) {
    const response = await fetch(url, { headers: { Accept: accept, ...phoneTime() } });
    if (!response.ok) {
      const answer = await response.json().catch(() => ({}));
      throw new Error((answer.error && answer.error.message) || response.statusText);
    }
    const blob = await response.blob();
    const name = (/filename="([^"]+)"/.exec(response.headers.get("Content-Disposition") ||
      "") || [])[1] || fallback;
    const link = el("a", { href: URL.createObjectURL(blob), download: name });
    document.body.append(link);
    link.click();
    link.remove();
    said.textContent = t("Downloaded {name} ({size} kB).",
      { name, size: Math.ceil(blob.size / 1024) });
  }

  /* POST a file the owner chose (a Blob, as application/octet-stream), or ``{}`` without one,
     for an answer said next to its control: throws the API's refusal as an Error, says
     nothing itself (backups and releases, box.js and update.js). */
  async function send(url, file) {
    const options = { method: "POST", headers: { Accept: "application/json", ...phoneTime() } };
    options.headers["Content-Type"] = file instanceof Blob ? "application/octet-stream" : "application/json";
    options.body = file instanceof Blob ? file : "{}";
    const response = await fetch(url, options);
    const answer = await response.json().catch(() => ({}));
    if (!response.ok) throw new Error((answer.error && answer.error.message) || response.statusText);
    return answer;
  }

  async function api(method, url, body, headers) {
    const options = { method, headers: { Accept: "application/json", ...phoneTime(), ...(headers || {}) } };
    if (body !== undefined) {
      options.headers["Content-Type"] = "application/json";
      options.body = JSON.stringify(body);
    }
    let response;
    try {
      response = await fetch(url, options);
    } catch (error) {
      say(t("The companion cannot be reached: {error}", { error: error.message }));
      say.unreachable = true;
      throw error;
    }
    const answer = await response.json().catch(() => ({}));
    if (!response.ok) {
      const message = (answer.error && answer.error.message) || response.statusText;
      say(plain(message));
      const error = new Error(message);
      error.status = response.status;
      error.code = answer.error && answer.error.code;
      throw error;
    }
    if (say.unreachable) { say.unreachable = false; say(""); }  // reached again
    return answer;
  }

  /* Follow /api/events; EventSource reconnects by itself and the table sends the current
     state first on every connection, so a phone that slept catches up at once. */
  /* The table's warnings (the data directory gone, the database kept aside...), on every
     page that follows the live stream, until they are gone. */
  function showWarnings(warnings) {
    const box = document.getElementById("warnings");
    box.replaceChildren(...warnings.map((text) => el("p", { text: t("Warning: {warning}", { warning: text }) })));
    box.hidden = warnings.length === 0;
  }

  /* ``url``: another view of the stream (the table view's, always the shared view). */
  function live(onItem, url) {
    const badge = document.getElementById("live");
    badge.hidden = false;
    const source = new EventSource(url || "/api/events");
    source.onopen = () => { badge.textContent = t("live"); badge.className = "live on"; };
    source.onerror = () => { badge.textContent = t("reconnecting"); badge.className = "live off"; };
    source.onmessage = (event) => {
      let item;
      try { item = JSON.parse(event.data); } catch (error) { return; }
      // The server ends the stream of a phone that fell behind: load the page afresh (a new
      // stream, the present state), whatever the page was showing.
      if (item && item.type === "reload") { source.close(); window.location.reload(); return; }
      if (item && Array.isArray(item.banner)) showWarnings(item.banner);
      if (item && item.type !== "warnings") onItem(item);
      // Parts of a page that follow the news too (exports.js) listen for this.
      if (item) document.dispatchEvent(new CustomEvent("panel:item", { detail: item }));
    };
    window.addEventListener("pagehide", () => source.close());
    return source;
  }

  /* Whether view (or stream item) ``a`` is older than ``b``: an earlier version, or the same
     version told earlier (``seq`` numbers what the table publishes, so a phone's own answer
     that arrives after the stream's news of a ring move never puts back the older turn). */
  function isOlder(a, b) {
    return a.version < b.version || (a.version === b.version && (a.seq || 0) < (b.seq || 0));
  }

  /* ``value`` with a stream item's ``changes`` applied: each ``[path, new]`` step puts
     ``new`` at the path of keys and indexes (companion/table/patch.py); ``value`` is kept. */
  function patched(value, changes) {
    const put = (at, path, i, now) => {
      if (i === path.length) return now;
      const copy = Array.isArray(at) ? at.slice() : { ...at };
      copy[path[i]] = put(at[path[i]], path, i + 1, now);
      return copy;
    };
    return changes.reduce((held, [path, now]) => put(held, path, 0, now), value);
  }

  /* A stream's "game" or "live" item put together with ``view``, the game the page holds:
     the stream sends changes (a changed game's log as the entries added since, a ring move's
     changes to the live turn). Answers the new whole view; ``view`` itself when the item is
     not newer; null when the page missed a change and must fetch the game. */
  function merge(view, item) {
    if (!isOlder(view, item)) return view;
    if (item.type === "live") {
      if (item.version !== view.version || (item.base !== null && item.base !== view.seq)) {
        return null;
      }
      return { ...view, seq: item.seq, state: patched(view.state, item.changes) };
    }
    const log = item.log;
    const held = (view.state && view.state.log) || [];
    if (!log || view.version < log.base || held.length < log.from) return null;
    return { id: item.id, kind: item.kind, version: item.version, seq: item.seq,
      state: { ...item.state, log: held.slice(0, log.from).concat(log.entries) } };
  }

  /* A stream's "board" item (the changes since the board numbered ``base``) put together with
     ``board``, the one the page holds (its LED frame comes in "leds" items): the new board,
     or null when the page missed a change and must fetch the board. */
  function mergeBoard(board, item) {
    if (!board || (item.base !== null && item.base !== board.seq)) return null;
    return { ...patched(board, item.changes), seq: item.seq };
  }

  /* Run ``task`` at most once at a time; calls while it runs coalesce into one more run. */
  function coalesce(task) {
    let running = false;
    let again = false;
    return async function run() {
      if (running) { again = true; return; }
      running = true;
      try {
        do { again = false; await task(); } while (again);
      } catch (error) {
        /* the message is already shown */
      } finally {
        running = false;
      }
    };
  }

  /* One colour per player (the table picks it, companion/table/colours.py): a dot in it
     with the player's initial, so colour is never the only signal. */
  const PLAYER_FILL = { orange: "#f08a00", purple: "#8e3fbf", cyan: "#00a5b5", white: "#f4f4f4",
    pink: "#e0559a", lime: "#8bc34a", teal: "#00897b" };
  const playerFill = (colour) => PLAYER_FILL[colour] || colour;
  function playerDot(name, colour) {
    const shown = colour || (data && data.colours && data.colours[name]) || "white";
    return el("span", { class: "dot player-dot", style: `background:${playerFill(shown)}`,
      title: `${name}: ${colourName(shown)}`, text: String(name).slice(0, 1).toUpperCase() });
  }

  /* The text of a phrase the server sent (companion/phrases.py: its English message, its
     values, and for a counted one its plural and count): the message in the page's language,
     then the values put in, nested phrases too. ``words`` maps a message to its translation,
     or a counted message to its forms, picked by ``pluralForm(count)``; empty, it is English. */
  const catalogue = { words: {}, pluralForm: (count) => (count === 1 ? 0 : 1), use };
  /* The plural rules there are, by the expression a catalogue's Plural-Forms gives (Babel's
     babel.messages.plurals); a catalogue with another rule needs its line here, and
     tests/test_catalogue.py says so. A table, so no catalogue text is ever evaluated. */
  const SLAVIC = (n) => (n % 10 === 1 && n % 100 !== 11 ? 0
    : n % 10 >= 2 && n % 10 <= 4 && (n % 100 < 12 || n % 100 > 14) ? 1 : 2);
  const PLURAL_RULES = {
    "(n != 1)": (n) => (n !== 1 ? 1 : 0),
    "0": () => 0,
    "(n > 1)": (n) => (n > 1 ? 1 : 0),
    "(n == 0 || n == 1) ? 0 : n != 0 && n % 1000000 == 0 ? 1 : 2": (n) =>
      (n === 0 || n === 1 ? 0 : n !== 0 && n % 1000000 === 0 ? 1 : 2),
    "(n == 1 ? 0 : n != 0 && n % 1000000 == 0 ? 1 : 2)": (n) =>
      (n === 1 ? 0 : n !== 0 && n % 1000000 === 0 ? 1 : 2),
    "n % 10 == 1 && n % 100 != 11 ? 0 : n % 10 >= 2 && n % 10 <= 4 && (n % 100 < 12 || n % 100 > 14) ? 1 : 2": SLAVIC,
    "n == 1 ? 0 : n % 10 >= 2 && n % 10 <= 4 && (n % 100 < 12 || n % 100 > 14) ? 1 : 2": (n) =>
      (n === 1 ? 0 : n % 10 >= 2 && n % 10 <= 4 && (n % 100 < 12 || n % 100 > 14) ? 1 : 2),
    "(n == 1 ? 0 : n >= 2 && n <= 4 ? 1 : 2)": (n) => (n === 1 ? 0 : n >= 2 && n <= 4 ? 1 : 2),
  };
  /* Take the page's catalogue (/catalogue/<code>.js, companion/web/i18n.py). */
  function use(found) {
    catalogue.words = found.words;
    catalogue.pluralForm = PLURAL_RULES[found.plural] || PLURAL_RULES["(n != 1)"];
    catalogue.language = found.language;
  }
  function phraseText(phrase) {
    const found = catalogue.words[phrase.text];
    let message = typeof found === "string" ? found : phrase.text;
    if (phrase.plural !== undefined && phrase.count !== undefined) {
      const forms = Array.isArray(found) ? found : [phrase.text, phrase.plural];
      message = forms[Math.min(catalogue.pluralForm(phrase.count), forms.length - 1)];
    }
    const values = { count: phrase.count, ...(phrase.values || {}) };
    return message.replace(/\{(\w+)\}/g, (whole, name) => {
      const value = values[name];
      if (value === undefined || value === null) return whole;
      return typeof value === "object" ? phraseText(value) : String(value);
    });
  }

  /* A message of the catalogue with its values: t("{name} moved", { name }) in the page's
     language; tn("{count} slot", "{count} slots", count, values) for a counted one. Each
     message is one whole literal, so tools/catalogue.py finds it. */
  const t = (text, values) => phraseText({ text, values });
  const tn = (singular, plural, count, values) =>
    phraseText({ text: singular, plural, count, values });

  /* A colour's name in the page's language ("red": "Rot"): the rings', the cards', the
     pieces' and the players' colours; any other as it is. */
  const COLOUR_NAMES = {
    red: () => t("red"), blue: () => t("blue"), green: () => t("green"),
    yellow: () => t("yellow"), brown: () => t("brown"), black: () => t("black"),
    orange: () => t("orange"), purple: () => t("purple"), cyan: () => t("cyan"),
    pink: () => t("pink"), lime: () => t("lime"), teal: () => t("teal"), white: () => t("white"),
  };
  const colourName = (colour) => (Object.hasOwn(COLOUR_NAMES, colour) ?
    COLOUR_NAMES[colour]() : String(colour));

  /* The locale for the browser's own date and number formats: the browser's preferred one
     when it is of the page's language (en-GB keeps "2 Dec"), else the page's language. */
  function locale() {
    const language = catalogue.language || document.documentElement.lang || "en";
    const own = (navigator.languages || [navigator.language]).find((code) =>
      String(code).toLowerCase().split("-")[0] === language);
    return own || language;
  }

  function letter(colour) { return page.letters[colour] || colour.slice(0, 1).toUpperCase(); }

  return { page, data, el, svg, say, sayError, api, send, phoneTime, download, live, coalesce, letter, playerDot,
    playerFill, plain, isOlder, merge, mergeBoard, phraseText, catalogue, t, tn, colourName, locale };
})();

/* A picture that scrolls sideways in its own box on a phone starts at its middle. */
for (const box of document.querySelectorAll("[data-scroll-centre]")) {
  box.scrollLeft = (box.scrollWidth - box.clientWidth) / 2;
}

/* A [data-zoom] button shows its box's picture twice as large on a phone (panel.css), from
   the middle; the zoomed box scrolls, so a keyboard can reach it. */
for (const button of document.querySelectorAll("[data-zoom]")) {
  const box = document.getElementById(button.getAttribute("data-zoom"));
  button.addEventListener("click", () => {
    const zoomed = box.classList.toggle("zoomed");
    button.setAttribute("aria-pressed", String(zoomed));
    if (zoomed) box.setAttribute("tabindex", "0"); else box.removeAttribute("tabindex");
    box.scrollLeft = (box.scrollWidth - box.clientWidth) / 2;
  });
}
