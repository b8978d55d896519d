/* A player's page (templates/player.html): rename the player or merge them into another
   (the owner only; the API's refusal is said next to the button). */
"use strict";
(() => {
  const { api, say } = Panel;
  const rename = document.getElementById("rename");
  const merge = document.getElementById("merge");
  const id = rename && rename.dataset.player;

  if (rename) rename.addEventListener("submit", async (event) => {
    event.preventDefault();
    const name = rename.elements.name.value.trim();
    try {
      const answer = await api("POST", `/api/players/${id}/rename`, { name });
      say(`Renamed: every game now shows ${answer.player.name}.`, "ok", rename);
      document.title = `${answer.player.name} · History · Mandala Companion`;
      window.setTimeout(() => window.location.reload(), 800);
    } catch (error) { /* said next to the button */ }
  });

  if (merge) merge.addEventListener("submit", async (event) => {
    event.preventDefault();
    const into = Number(merge.elements.into.value);
    try {
      const answer = await api("POST", `/api/players/${id}/merge`, { into });
      say(`Merged into ${answer.player.name}.`, "ok", merge);
      window.location.assign(`/players/${answer.player.id}`);
    } catch (error) { /* said next to the button */ }
  });
})();
