/* A game page's "Speak the game" switch (_speech.html): this game's announcements spoken on
   this phone, off until turned on, remembered by the phone (static/speech.js). */
(() => {
  const input = document.getElementById("speak-game");
  const game = Panel.data.game;
  if (input && game) {
    Speech.attach(input, { game: game.id, note: document.getElementById("speak-note") });
  }
})();
