/* A player's page (templates/player.html): rename the player or merge them into another
   (the owner only; the API's refusal is said next to the button). */
"use strict";
(() => {
  const { api, say, t } = Panel;
  const rename = document.getElementById("rename");
  const merge = document.getElementById("merge");
  const id = rename && rename.dataset.player;

  if (rename) rename.addEventListener("submit", async (event) => {
    event.preventDefault();
    const name = rename.elements.name.value.trim();
    try {
      const answer = await api("POST", `/api/players/${id}/rename`, { name });
      say(t("Renamed: every game now shows {name}.", { name: answer.player.name }), "ok", rename);
      document.title = t("{name} · History · Mandala Companion", { name: answer.player.name });
      window.setTimeout(() => window.location.reload(), 800);
    } catch (error) { /* said next to the button */ }
  });

  if (merge) merge.addEventListener("submit", async (event) => {
    event.preventDefault();
    const into = Number(merge.elements.into.value);
    try {
      const answer = await api("POST", `/api/players/${id}/merge`, { into });
      say(t("Merged into {name}.", { name: answer.player.name }), "ok", merge);
      window.location.assign(`/players/${answer.player.id}`);
    } catch (error) { /* said next to the button */ }
  });
})();
