/* Updates (templates/_box.html, on /box and on the Health page): the release the box runs,
   the last update's state, and a newer release installed from a file or from the box's git
   checkout (asked on the page). While the box restarts the page asks again every 2 s. */
"use strict";
(() => {
  const { phoneTime, send, t } = Panel;
  const $ = (id) => document.getElementById(id);
  const file = $("update-file");
  const upload = $("update-upload");
  const confirmBox = $("update-confirm");
  const said = $("update-said");
  const state = $("update-state");
  let pending = null;  // what "Yes, install it" sends
  let watching = null;

  function tell(box, text, kind) {
    box.textContent = text;
    box.className = "message " + (kind || "error");
    box.hidden = !text;
  }

  const KINDS = { updated: "ok", waiting: "ok", installing: "ok", "rolled-back": "error",
    refused: "error", failed: "error" };
  /* The heading of each state of the last update, before what it says. */
  const STATES = { updated: () => t("Updated"), "rolled-back": () => t("Not updated"),
    waiting: () => t("Waiting"), installing: () => t("Installing"), refused: () => t("Not updated"),
    failed: () => t("Update failed") };

  function show(answer) {
    $("update-release").textContent = answer.release;
    $("box-release").textContent = answer.release;
    const status = answer.status;
    if (status) {
      const heading = Object.hasOwn(STATES, status.state) ? STATES[status.state]() : t("Update");
      const values = { state: heading, text: Panel.phraseText(status.phrase) };
      const text = status.at ?
        t("{state}: {text} ({when}).", { ...values, when: status.at.replace("T", " ").replace("Z", " UTC") }) :
        t("{state}: {text}.", values);
      tell(state, text, KINDS[status.state]);
    } else {
      tell(state, "");
    }
    $("update-how").hidden = answer.from_file;
    $("update-ways").hidden = !answer.from_file;
    $("update-git-row").hidden = !answer.from_git;
    return answer;
  }

  async function about() {
    const response = await fetch("/api/box/update", { headers: { Accept: "application/json", ...phoneTime() } });
    if (!response.ok) throw new Error(response.statusText);
    return show(await response.json());
  }

  /* While the updater works the panel is away: ask every 2 s until the state is settled. */
  function watch() {
    window.clearTimeout(watching);
    watching = window.setTimeout(async () => {
      try {
        const answer = await about();
        if (answer.pending || (answer.status && ["waiting", "installing"].includes(answer.status.state))) watch();
        else tell(said, "");
      } catch (error) {
        tell(said, t("The box is restarting: this page asks again in a moment."), "ok");
        watch();
      }
    }, 2000);
  }

  function ask(question, sender) {
    pending = sender;
    $("update-question").textContent = question;
    confirmBox.hidden = false;
    tell(said, "");
    $("update-yes").focus();
  }

  file.addEventListener("change", () => { upload.disabled = !file.files.length; });
  upload.addEventListener("click", () => {
    const chosen = file.files[0];
    if (!chosen) return;
    ask(t("Install the release in {file} and restart the box?", { file: chosen.name }), () => send("/api/box/update", chosen));
  });
  $("update-git").addEventListener("click", () => {
    ask(t("Look for a newer release on the internet, install it and restart the box?"),
      () => send("/api/box/update/git"));
  });
  $("update-no").addEventListener("click", () => {
    confirmBox.hidden = true;
    pending = null;
    tell(said, t("Nothing was changed."), "ok");
  });
  $("update-yes").addEventListener("click", async () => {
    if (!pending) return;
    const sender = pending;
    pending = null;
    confirmBox.hidden = true;
    tell(said, t("Checking the release…"), "ok");
    try {
      const answer = await sender();
      if (!answer.status) {
        tell(said, t("{text}.", { text: answer.text }), "ok");
        return;
      }
      tell(said, t("Release {release} is being installed; a backup was made first. The panel is away for about a minute while the box restarts.",
        { release: answer.status.release }), "ok");
      file.value = "";
      upload.disabled = true;
      await about().catch(() => {});
      watch();
    } catch (error) {
      tell(said, t("Nothing was changed: {error}", { error: error.message }));
    }
  });

  about().then((answer) => {
    if (answer.pending || (answer.status && answer.status.state === "installing")) watch();
  }).catch(() => {});
})();
