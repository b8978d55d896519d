/* A finished game's links to BG Stats and BoardGameGeek (templates/_play_exports.html). The
   page shows them when the game was over as it loaded; this shows them when the game ends
   while the page is open, on the live stream's news of it (panel.js's "panel:item"). */
(() => {
  const box = document.getElementById("play-exports");
  if (!box || !box.hidden) return;
  const id = box.dataset.game;
  let asking = false;

  async function show() {
    if (asking || !box.hidden) return;
    asking = true;
    try {
      const response = await fetch(`/api/games/${encodeURIComponent(id)}/bgstats`,
        { headers: { Accept: "application/json" } });
      if (!response.ok) return;  // not over after all (an undo came first): stay hidden
      const answer = await response.json();
      document.getElementById("bgstats-web").href = answer.web_url;
      document.getElementById("bgstats-app").href = answer.url;
      document.getElementById("bgg-text").href = `/api/games/${encodeURIComponent(id)}/bgg.txt`;
      box.hidden = false;
    } catch (error) {
      /* unreachable now: the next news tries again */
    } finally {
      asking = false;
    }
  }

  function isOver(item) {
    if (item.id === id && item.state && item.state.over) return true;
    return Array.isArray(item.games) && item.games.some((game) => game.id === id && game.over);
  }

  document.addEventListener("panel:item", (event) => { if (event.detail && isOver(event.detail)) show(); });
})();
