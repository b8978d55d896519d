/* The table view's "Speak the game" switch (static/speech.js): on unless this screen turned it
   off, the game shown (main's data-shown, set by table.js) the one whose announcements are
   spoken, followed as the view moves to another game. */
(() => {
  const input = document.getElementById("tv-speak");
  const main = document.querySelector("main.tv");
  if (!input || !main) return;
  Speech.attach(input, { key: "mandala.speak.table", defaultOn: true, game: main.dataset.shown || null });
  const follow = () => Speech.follow(main.dataset.shown || null);
  new MutationObserver(follow).observe(main, { attributes: true, attributeFilter: ["data-shown"] });
})();
