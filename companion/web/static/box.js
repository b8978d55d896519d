/* Backups and the time's source (templates/_box.html, on /box and on the Health page):
   download a backup, restore one from a file or from those kept on the box (asked on the
   page, not in a dialog), and where the time comes from. */
"use strict";
(() => {
  const { el, api, send, t, tn } = Panel;
  const $ = (id) => document.getElementById(id);
  const file = $("restore-file");
  const upload = $("restore-upload");
  const confirmBox = $("restore-confirm");
  const restoreSaid = $("restore-said");
  let pending = null;  // what "Yes, restore it" restores: { what, send }

  function tell(box, text, kind) {
    box.textContent = text;
    box.className = "message " + (kind || "error");
    box.hidden = !text;
  }

  function utc(stamp) { return stamp.replace("T", " ").replace("Z", " UTC"); }

  async function about() {
    const answer = await api("GET", "/api/box");
    $("time-said").textContent = t("The time: {time}.", { time: Panel.phraseText(answer.time.phrase) });
    $("box-release").textContent = answer.release;
  }

  async function kept() {
    const list = $("kept-backups");
    const owner = await api("GET", "/api/owner");
    if (!owner.owner) {
      list.replaceChildren();
      $("kept-said").textContent = t("Only the box's owner sees the kept backups: become the owner on the home page.");
      return;
    }
    const answer = await api("GET", "/api/box/backups");
    $("kept-said").textContent = answer.backups.length ? "" : t("No backup is kept yet: the first is made today.");
    list.replaceChildren(...answer.backups.map((b) => el("li", { "data-kept": b.name },
      el("span", { text: b.name }),
      el("small", { text: t("made {when}, {size} kB", { when: utc(b.made), size: Math.ceil(b.bytes / 1024) }) }),
      el("button", { type: "button", "data-restore-kept": b.name, text: t("Restore this one") }))));
  }

  function ask(question, sender) {
    pending = sender;
    $("restore-question").textContent = question;
    confirmBox.hidden = false;
    tell(restoreSaid, "");
    $("restore-yes").focus();
  }

  $("backup-download").addEventListener("click", async () => {
    const said = $("backup-said");
    said.textContent = t("making it…");
    try {
      await Panel.download("/api/box/backup", "application/octet-stream", "mandala.mandala-backup", said);
    } catch (error) {
      said.textContent = "";
      Panel.say(t("No backup was made: {error}", { error: error.message }));
    }
  });

  file.addEventListener("change", () => { upload.disabled = !file.files.length; });
  upload.addEventListener("click", () => {
    const chosen = file.files[0];
    if (!chosen) return;
    ask(t("Replace everything on this box with the backup in {file}?", { file: chosen.name }),
      () => send("/api/box/restore", chosen));
  });
  $("kept-backups").addEventListener("click", (event) => {
    const button = event.target.closest && event.target.closest("[data-restore-kept]");
    if (!button) return;
    const name = button.getAttribute("data-restore-kept");
    ask(t("Replace everything on this box with the kept backup {name}?", { name }),
      () => send(`/api/box/backups/${encodeURIComponent(name)}/restore`));
  });
  $("restore-no").addEventListener("click", () => {
    confirmBox.hidden = true;
    pending = null;
    tell(restoreSaid, t("Nothing was changed."), "ok");
  });
  $("restore-yes").addEventListener("click", async () => {
    if (!pending) return;
    const sender = pending;
    pending = null;
    confirmBox.hidden = true;
    tell(restoreSaid, t("Restoring…"), "ok");
    try {
      const answer = await sender();
      const values = { when: utc(answer.restored.created), release: answer.restored.release };
      const restored = tn("Restored the backup made {when} by release {release}: {count} game on the box now.",
        "Restored the backup made {when} by release {release}: {count} games on the box now.", answer.games, values);
      const text = answer.owner ? restored : t("{restored} This phone is not the owner any more: the backup's owners are.",
        { restored });
      tell(restoreSaid, text, "ok");
      file.value = "";
      upload.disabled = true;
    } catch (error) {
      tell(restoreSaid, t("Nothing was changed: {error}", { error: error.message }));
    }
    await kept().catch(() => {});
  });

  about().catch(() => {});
  kept().catch((error) => { $("kept-said").textContent = error.message; });
})();
