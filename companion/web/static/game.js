/* The generic game view: the summary live, a step in the record's format, undo. */
"use strict";
(() => {
  const { api, live, coalesce, say, t } = Panel;
  let game = Panel.data.game;
  const url = "/api/games/" + encodeURIComponent(game.id);
  const draw = () => {
    document.getElementById("summary").textContent = JSON.stringify(game.state, null, 1);
  };
  const refresh = coalesce(async () => { game = await api("GET", url); draw(); });
  document.getElementById("step").addEventListener("submit", async (event) => {
    event.preventDefault();
    let action;
    try { action = JSON.parse(document.getElementById("step-json").value); } catch (error) {
      say(t("The step is not JSON: {reason}", { reason: error.message })); return;
    }
    try { game = await api("POST", url + "/actions", { version: game.version, action }); draw(); }
    catch (error) { if (error.status === 409) refresh(); }
  });
  document.getElementById("undo").addEventListener("click", async () => {
    try { game = await api("POST", url + "/undo", { version: game.version }); draw(); }
    catch (error) { if (error.status === 409) refresh(); }
  });
  live((item) => {
    if (item.type === "game" && item.id === game.id && !item.deleted) {
      const view = Panel.merge(game, item);  // null: a change was missed
      if (view === null) refresh();
      else if (view !== game) { game = view; draw(); }
    } else if (item.type === "games" || item.type === "state") refresh();
  });
  draw();
})();
