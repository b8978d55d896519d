/* The Wi-Fi page (templates/wifi.html; owner only): where the box is, join a network (look,
   choose, password), be its own Wi-Fi or stop it, forget a known network. Joining and the
   access point run on the box after the answer (this phone may be on the network being
   closed), so the page follows /api/wifi until the change has ended and says how. */
"use strict";
(() => {
  const { el, api, data, t, phraseText } = Panel;
  const $ = (id) => document.getElementById(id);
  let chosen = null;  // the network the form joins: { ssid, security, known }
  let known = [];

  function tell(box, text, kind) {
    box.textContent = text;
    box.className = "message " + (kind || "error");
    box.hidden = !text;
  }

  function strength(signal) {
    if (signal >= 67) return t("strong signal ({signal}%)", { signal });
    if (signal >= 34) return t("fair signal ({signal}%)", { signal });
    return t("weak signal ({signal}%)", { signal });
  }

  function describe(state) {
    if (!state.running) return t("NetworkManager is not running on the box, so it cannot change its Wi-Fi.");
    if (!state.device) return t("The box has no Wi-Fi device.");
    if (state.access_point) return t("The box is its own Wi-Fi now: {ssid}.", { ssid: state.own_network.ssid });
    if (state.connection) return t("The box is on the Wi-Fi {name}.", { name: state.connection });
    return t("The box is on no Wi-Fi now.");
  }

  // The panel's address on another host name, by this page's own scheme and port.
  function here(host) {
    return `${location.protocol}//${host}${location.port ? ":" + location.port : ""}`;
  }

  function doingText(doing) {
    if (doing.action === "join") {
      return t("Joining {ssid}… This phone may lose the box now: join {ssid} on this phone too, then open {url}/wifi. If the box cannot join, it opens its own Wi-Fi again.",
        { ssid: doing.ssid, url: here(data.hostname + ".local") });
    }
    if (doing.action === "access_point") return t("Opening the box's own Wi-Fi… This phone may lose the box for a moment.");
    return t("Stopping the box's own Wi-Fi… The box joins a network it knows.");
  }

  function show(state) {
    $("wifi-said").textContent = describe(state);
    const own = state.own_network;
    tell($("wifi-own"), t("Its own Wi-Fi is {ssid}, password {password}. A phone that joins it is shown this panel, or open {url}/.",
      { ssid: own.ssid, password: own.password, url: here(own.address) }), "info");
    const outcome = $("wifi-outcome");
    if (state.doing) {
      // The change says how it goes up here; the networks seen before may be gone after it.
      tell(outcome, doingText(state.doing), "info");
      tell($("join-said"), "");
      tell($("ap-said"), "");
      $("wifi-networks").replaceChildren();
      $("scan-said").textContent = "";
    }
    else if (state.last) {
      const message = phraseText(state.last.phrase);
      tell(outcome, state.last.ok ? t("Done: {message}.", { message })
        : t("It did not work: {message}.", { message }), state.last.ok ? "ok" : "error");
    }
    else tell(outcome, "");
    const usable = state.running && !!state.device;
    $("wifi-join").hidden = !usable;
    $("wifi-ap").hidden = !usable;
    $("wifi-known").hidden = !usable;
    $("ap-open").hidden = state.access_point;
    $("ap-close").hidden = !state.access_point;
    $("ap-explain").textContent = state.access_point
      ? t("The box stays its own Wi-Fi ({ssid}) until you join a network here or stop it.", { ssid: own.ssid })
      : t("The box can be its own Wi-Fi: phones join it and open the panel, with no router and no internet.");
    known = state.known;
    $("known-list").replaceChildren(...known.map((name) => el("li", {},
      el("span", { text: name === state.connection ? t("{name} (in use)", { name }) : name }),
      el("button", { type: "button", "data-forget": name, text: t("Forget {name}", { name }) }))));
    if (!known.length) $("known-list").replaceChildren(el("li", {}, el("span", { text: t("None yet.") })));
  }

  /* Answers may come back out of order: the page shows only the newest asked, and follows
     one timer while a change runs. */
  let asked = 0;
  let shown = 0;
  let timer = 0;
  async function refresh() {
    const mine = ++asked;
    const state = await api("GET", "/api/wifi");
    if (mine < shown) return state;
    shown = mine;
    show(state);
    window.clearTimeout(timer);
    if (state.doing) timer = window.setTimeout(() => refresh().catch(() => {}), 1500);
    return state;
  }

  function choose(network) {
    chosen = network;
    $("join-title").textContent = t("Join {ssid}", { ssid: network.ssid });
    const open = network.security === "open";
    const saved = known.includes(network.ssid);
    $("password-row").hidden = open;
    $("wifi-password").value = "";
    $("wifi-password").placeholder = saved ? t("leave empty to use the one it knows") : "";
    $("wifi-join-button").textContent = t("Join {ssid}", { ssid: network.ssid });
    tell($("join-said"), "");
    $("wifi-form").hidden = false;
    (open ? $("wifi-join-button") : $("wifi-password")).focus();
  }

  $("wifi-scan").addEventListener("click", async () => {
    const said = $("scan-said");
    said.textContent = t("looking…");
    try {
      const answer = await api("GET", "/api/wifi/networks");
      said.textContent = answer.networks.length
        ? t("{count} in reach; choose one.", { count: answer.networks.length })
        : t("No network in reach.");
      $("wifi-networks").replaceChildren(...answer.networks.map((n) => el("li", {},
        el("span", { text: n.in_use ? t("{name} (in use)", { name: n.ssid }) : n.ssid }),
        el("small", { text: n.security === "open"
          ? t("{signal}, open, no password", { signal: strength(n.signal) })
          : t("{signal}, needs a password", { signal: strength(n.signal) }) }),
        el("button", { type: "button", "data-choose": n.ssid, text: t("Choose {ssid}", { ssid: n.ssid }) }))));
      $("wifi-networks").onclick = (event) => {
        const button = event.target.closest && event.target.closest("[data-choose]");
        if (button) choose(answer.networks.find((n) => n.ssid === button.getAttribute("data-choose")));
      };
    } catch (error) {
      said.textContent = t("Could not look: {error}", { error: error.message });
    }
  });

  $("wifi-show").addEventListener("change", () => {
    $("wifi-password").type = $("wifi-show").checked ? "text" : "password";
  });
  $("wifi-cancel").addEventListener("click", () => { $("wifi-form").hidden = true; chosen = null; });
  $("wifi-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    if (!chosen) return;
    const password = $("wifi-password").value;
    const needs = chosen.security !== "open" && !known.includes(chosen.ssid);
    if (needs && password.length < 8) {
      tell($("join-said"), t("A Wi-Fi password has at least 8 characters."));
      $("wifi-password").focus();
      return;
    }
    try {
      await api("POST", "/api/wifi/join", { ssid: chosen.ssid, password: password || null });
      $("wifi-form").hidden = true;
      await refresh();
    } catch (error) {
      tell($("join-said"), t("Not joined: {error}", { error: error.message }));
    }
  });

  async function accessPoint(open) {
    try {
      await api("POST", "/api/wifi/access-point", { open });
      await refresh();
    } catch (error) {
      tell($("ap-said"), t("Nothing was changed: {error}", { error: error.message }));
    }
  }
  $("ap-open").addEventListener("click", () => accessPoint(true));
  $("ap-close").addEventListener("click", () => accessPoint(false));

  $("known-list").addEventListener("click", async (event) => {
    const button = event.target.closest && event.target.closest("[data-forget]");
    if (!button) return;
    const name = button.getAttribute("data-forget");
    try {
      await api("POST", "/api/wifi/forget", { name });
      tell($("known-said"), t("Forgot {name}: the box no longer joins it.", { name }), "ok");
      await refresh();
    } catch (error) {
      tell($("known-said"), t("Not forgotten: {error}", { error: error.message }));
    }
  });

  refresh().catch((error) => {
    if (error.code === "owner_required") {
      $("wifi-said").textContent = t("Only the box's owner changes its Wi-Fi: become the owner on the home page (Owner).");
    } else {
      $("wifi-said").textContent = error.message;
    }
  });
})();
