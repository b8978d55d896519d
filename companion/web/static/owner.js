/* The home page's Owner section: become the owner (the done button or a code), and the
   owner's list of phones holding the role, each with a Remove button. */
"use strict";
(() => {
  const { el, t } = Panel;
  const status = document.getElementById("owner-status");
  const pairing = document.getElementById("owner-pair");
  const phonesBox = document.getElementById("owner-phones");
  const list = document.getElementById("owner-phone-list");
  const askStatus = document.getElementById("owner-ask-status");
  const codeStatus = document.getElementById("owner-code-status");

  /* Like Panel.api, but the answer (or the refusal) is said next to the control. */
  async function call(method, url, body) {
    const options = { method, headers: { Accept: "application/json", ...Panel.phoneTime() } };
    if (body !== undefined) {
      options.headers["Content-Type"] = "application/json";
      options.body = JSON.stringify(body);
    }
    const response = await fetch(url, options);
    const answer = await response.json().catch(() => ({}));
    if (!response.ok) {
      throw new Error((answer.error && answer.error.message) || response.statusText);
    }
    return { status: response.status, answer };
  }

  /* A phone's name as the box stored it (companion/table/owner.py's phone_label: "Chrome on
     Android", a browser or a system alone, or what its browser calls itself), in the page's
     language. */
  function phoneName(label) {
    if (label === "a device without a name") return t("a device without a name");
    const m = /^(Firefox|Edge|Chrome|Safari|curl) on (iPhone|iPad|Android|Windows|Mac|Chromebook|Linux)$/.exec(label);
    return m ? t("{browser} on {system}", { browser: m[1], system: m[2] }) : label;
  }

  /* How a phone became the owner (stored as "the done button" or "a code") and when. */
  function pairedLine(phone) {
    const when = phone.paired.replace("T", " ").replace("Z", " UTC");
    if (phone.how === "the done button") return t("paired with the done button on {when}", { when });
    if (phone.how === "a code") return t("paired with a code on {when}", { when });
    return t("paired with {how} on {when}", { how: phone.how, when });
  }

  function tell(box, text, kind) {
    box.textContent = text;
    box.className = "message " + (kind || "error");
    box.hidden = !text;
  }

  async function show() {
    const { answer } = await call("GET", "/api/owner");
    // a display style, not the hidden attribute: the panel's .stack style would show it
    pairing.style.display = answer.owner ? "none" : "";
    phonesBox.hidden = !answer.owner;
    status.textContent = answer.owner
      ? t("This phone is the box's owner: it can delete and import games, save boards and set the rings.")
      : t("This phone is not the owner. Only the box's owner can delete or import games, save boards and set the rings. Playing needs no owner.");
    if (!answer.owner) return;
    const { answer: listed } = await call("GET", "/api/owner/phones");
    list.replaceChildren(...listed.phones.map((phone) => el("li", { "data-owner": phone.id },
      el("span", { text: phone.this ? t("{phone} (this phone)", { phone: phoneName(phone.label) }) :
        phoneName(phone.label) }),
      el("small", { text: pairedLine(phone) }),
      el("button", { type: "button", class: "danger", "data-revoke": phone.id, text: t("Remove") }))));
  }

  document.getElementById("owner-ask").addEventListener("click", async () => {
    try {
      const { answer } = await call("POST", "/api/owner/pair", { button: true });
      tell(askStatus, t("Now press the done button on the box (within a minute)."), "ok");
      const until = Date.now() + answer.expires_in * 1000;
      while (Date.now() < until) {
        await new Promise((resolve) => window.setTimeout(resolve, 1000));
        const polled = await call("POST", "/api/owner/pair", { request: answer.request });
        if (polled.status === 200) {
          tell(askStatus, t("Done: this phone is now the owner."), "ok");
          await show();
          return;
        }
      }
      tell(askStatus, t("Nobody pressed the done button in time. Ask again."));
    } catch (error) {
      tell(askStatus, error.message);
    }
  });

  document.getElementById("owner-code").addEventListener("submit", async (event) => {
    event.preventDefault();
    const code = document.getElementById("owner-code-input").value.trim();
    if (!code) { tell(codeStatus, t("Type the code first.")); return; }
    try {
      await call("POST", "/api/owner/pair", { code });
      tell(codeStatus, "");
      tell(askStatus, t("Done: this phone is now the owner."), "ok");
      await show();
    } catch (error) {
      tell(codeStatus, error.message);
    }
  });

  /* Remove asks on the phone's own row, not in a browser dialog. */
  function askRevoke(row, button, id) {
    button.hidden = true;
    const said = el("p", { class: "message error", role: "alert", hidden: true });
    const ask = el("div", { class: "row confirm-revoke", role: "group",
      "aria-label": t("take the owner role from this phone?") },
      el("span", { text: t("Take the owner role from this phone?") }),
      el("button", { type: "button", class: "danger", "data-revoke-yes": id, text: t("Remove it"),
        onclick: async () => {
          try {
            await call("DELETE", "/api/owner/phones/" + encodeURIComponent(id));
            await show();
          } catch (error) { tell(said, error.message); }
        } }),
      el("button", { type: "button", text: t("Keep it"),
        onclick: () => { ask.remove(); said.remove(); button.hidden = false; } }));
    row.append(ask, said);
  }

  list.addEventListener("click", (event) => {
    const button = event.target.closest && event.target.closest("[data-revoke]");
    if (button) askRevoke(button.closest("li"), button, button.getAttribute("data-revoke"));
  });

  const damaged = document.getElementById("damaged");
  if (damaged) {
    document.getElementById("damaged-dismiss").addEventListener("click", async () => {
      try {
        await call("DELETE", "/api/damaged");
        damaged.remove();
      } catch (error) { Panel.say(error.message, "error", damaged); }
    });
  }

  show().catch((error) => { status.textContent = error.message; });
})();
