/* The Wi-Fi page (templates/wifi.html; owner only): where the box is, join a network (look,
   choose, password), be its own Wi-Fi or stop it, forget a known network. Joining and the
   access point run on the box after the answer (this phone may be on the network being
   closed), so the page follows /api/wifi until the change has ended and says how. */
"use strict";
(() => {
  const { el, api, data } = Panel;
  const $ = (id) => document.getElementById(id);
  let chosen = null;  // the network the form joins: { ssid, security, known }
  let known = [];

  function tell(box, text, kind) {
    box.textContent = text;
    box.className = "message " + (kind || "error");
    box.hidden = !text;
  }

  function strength(signal) {
    const word = signal >= 67 ? "strong" : signal >= 34 ? "fair" : "weak";
    return `${word} signal (${signal}%)`;
  }

  function describe(state) {
    if (!state.running) return "NetworkManager is not running on the box, so it cannot change its Wi-Fi.";
    if (!state.device) return "The box has no Wi-Fi device.";
    if (state.access_point) return `The box is its own Wi-Fi now: ${state.own_network.ssid}.`;
    if (state.connection) return `The box is on the Wi-Fi ${state.connection}.`;
    return "The box is on no Wi-Fi now.";
  }

  // The panel's address on another host name, by this page's own scheme and port.
  function here(host) {
    return `${location.protocol}//${host}${location.port ? ":" + location.port : ""}`;
  }

  function doingText(doing) {
    if (doing.action === "join") {
      return `Joining ${doing.ssid}… This phone may lose the box now: join ${doing.ssid} on ` +
        `this phone too, then open ${here(data.hostname + ".local")}/wifi. If the box cannot join, ` +
        "it opens its own Wi-Fi again.";
    }
    if (doing.action === "access_point") return "Opening the box's own Wi-Fi… This phone may lose the box for a moment.";
    return "Stopping the box's own Wi-Fi… The box joins a network it knows.";
  }

  function show(state) {
    $("wifi-said").textContent = describe(state);
    const own = state.own_network;
    tell($("wifi-own"), `Its own Wi-Fi is ${own.ssid}, password ${own.password}. A phone that ` +
      `joins it is shown this panel, or open ${here(own.address)}/.`, "info");
    const outcome = $("wifi-outcome");
    if (state.doing) {
      // The change says how it goes up here; the networks seen before may be gone after it.
      tell(outcome, doingText(state.doing), "info");
      tell($("join-said"), "");
      tell($("ap-said"), "");
      $("wifi-networks").replaceChildren();
      $("scan-said").textContent = "";
    }
    else if (state.last) tell(outcome, (state.last.ok ? "Done: " : "It did not work: ") + state.last.message + ".", state.last.ok ? "ok" : "error");
    else tell(outcome, "");
    const usable = state.running && !!state.device;
    $("wifi-join").hidden = !usable;
    $("wifi-ap").hidden = !usable;
    $("wifi-known").hidden = !usable;
    $("ap-open").hidden = state.access_point;
    $("ap-close").hidden = !state.access_point;
    $("ap-explain").textContent = state.access_point
      ? `The box stays its own Wi-Fi (${own.ssid}) until you join a network here or stop it.`
      : "The box can be its own Wi-Fi: phones join it and open the panel, with no router and no internet.";
    known = state.known;
    $("known-list").replaceChildren(...known.map((name) => el("li", {},
      el("span", { text: name + (name === state.connection ? " (in use)" : "") }),
      el("button", { type: "button", "data-forget": name, text: `Forget ${name}` }))));
    if (!known.length) $("known-list").replaceChildren(el("li", {}, el("span", { text: "None yet." })));
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
    $("join-title").textContent = `Join ${network.ssid}`;
    const open = network.security === "open";
    const saved = known.includes(network.ssid);
    $("password-row").hidden = open;
    $("wifi-password").value = "";
    $("wifi-password").placeholder = saved ? "leave empty to use the one it knows" : "";
    $("wifi-join-button").textContent = `Join ${network.ssid}`;
    tell($("join-said"), "");
    $("wifi-form").hidden = false;
    (open ? $("wifi-join-button") : $("wifi-password")).focus();
  }

  $("wifi-scan").addEventListener("click", async () => {
    const said = $("scan-said");
    said.textContent = "looking…";
    try {
      const answer = await api("GET", "/api/wifi/networks");
      said.textContent = answer.networks.length ? `${answer.networks.length} in reach; choose one.` : "No network in reach.";
      $("wifi-networks").replaceChildren(...answer.networks.map((n) => el("li", {},
        el("span", { text: n.ssid + (n.in_use ? " (in use)" : "") }),
        el("small", { text: `${strength(n.signal)}, ${n.security === "open" ? "open, no password" : "needs a password"}` }),
        el("button", { type: "button", "data-choose": n.ssid, text: `Choose ${n.ssid}` }))));
      $("wifi-networks").onclick = (event) => {
        const button = event.target.closest && event.target.closest("[data-choose]");
        if (button) choose(answer.networks.find((n) => n.ssid === button.getAttribute("data-choose")));
      };
    } catch (error) {
      said.textContent = `Could not look: ${error.message}`;
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
      tell($("join-said"), "A Wi-Fi password has at least 8 characters.");
      $("wifi-password").focus();
      return;
    }
    try {
      await api("POST", "/api/wifi/join", { ssid: chosen.ssid, password: password || null });
      $("wifi-form").hidden = true;
      await refresh();
    } catch (error) {
      tell($("join-said"), `Not joined: ${error.message}`);
    }
  });

  async function accessPoint(open) {
    try {
      await api("POST", "/api/wifi/access-point", { open });
      await refresh();
    } catch (error) {
      tell($("ap-said"), `Nothing was changed: ${error.message}`);
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
      tell($("known-said"), `Forgot ${name}: the box no longer joins it.`, "ok");
      await refresh();
    } catch (error) {
      tell($("known-said"), `Not forgotten: ${error.message}`);
    }
  });

  refresh().catch((error) => {
    if (error.code === "owner_required") {
      $("wifi-said").textContent = "Only the box's owner changes its Wi-Fi: become the owner on the home page (Owner).";
    } else {
      $("wifi-said").textContent = error.message;
    }
  });
})();
