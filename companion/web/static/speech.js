/* Spoken announcements (issue 25): the stream's "say" items spoken through the browser's
   speech synthesis, one announcement at a time.

   The table sends {"type": "say", "game", "kind", "n", "topic", "phrases"} after each change
   (companion/table/announce.py). This queue speaks them in order, never two at once. A
   waiting announcement is stale, and dropped unspoken, when
   - a newer one of the same game and topic arrives, for every topic but "events" (a newer
     "Bo's turn" replaces a waiting "Ann's turn"; newer dice, instructions or re-sync steps
     replace older ones), or
   - it has waited more than STALE_MS (what a turn did, said long after, only confuses).
   What a step did ("events") is never replaced by another step's: only its age drops it.

   Voices: one of the page's language (document's lang, English now), an offline one
   (localService) when there is one. Speech.attach(input, options) ties a switch to it:
   remembered per phone (localStorage), off until the switch is turned on (a browser speaks
   only after a tap on the page). Used by the game pages (_speech.html) and the table view. */
const Speech = (() => {
  const STALE_MS = 30000;
  const synth = window.speechSynthesis;
  const waiting = [];  // {item, at}
  let current = null;  // {item, left: [phrase...], guard}
  let on = false;
  let game = null;  // speak only this game's items (null: any game)

  function pickVoice() {
    const lang = (document.documentElement.lang || "en").toLowerCase();
    const voices = (synth && synth.getVoices ? synth.getVoices() : []) || [];
    const fits = voices.filter((v) => (v.lang || "").toLowerCase().startsWith(lang.slice(0, 2)));
    return fits.find((v) => v.localService) || fits[0] || null;
  }

  function dropStale(now) {
    for (let i = waiting.length - 1; i >= 0; i -= 1) {
      if (now - waiting[i].at > STALE_MS) waiting.splice(i, 1);
    }
  }

  function next() {
    if (current && current.left.length === 0) { clearTimeout(current.guard); current = null; }
    if (!on || !synth) return;
    if (!current) {
      dropStale(Date.now());
      const found = waiting.shift();
      if (!found) return;
      current = { item: found.item, left: found.item.phrases.slice(), guard: 0 };
      if (current.left.length === 0) { current = null; next(); return; }
    }
    const text = Panel.phraseText(current.left.shift());
    const utterance = new SpeechSynthesisUtterance(text);
    utterance.lang = document.documentElement.lang || "en";
    const voice = pickVoice();
    if (voice) utterance.voice = voice;
    const spoken = current;
    let ended = false;
    const done = () => {
      if (ended || current !== spoken) return;
      ended = true;
      clearTimeout(spoken.guard);
      next();
    };
    utterance.onend = done;
    utterance.onerror = done;
    // Some browsers never end an utterance (a voice gone, the tab hidden): move on anyway.
    spoken.guard = setTimeout(done, 4000 + 150 * text.length);
    synth.speak(utterance);
  }

  /* Queue a "say" item (the stream's); dropped while off or of another game. */
  function take(item) {
    if (!item || item.type !== "say" || !on || !Array.isArray(item.phrases)) return;
    if (game !== null && item.game !== game) return;
    if (item.topic !== "events") {
      for (let i = waiting.length - 1; i >= 0; i -= 1) {
        const held = waiting[i].item;
        if (held.game === item.game && held.topic === item.topic) waiting.splice(i, 1);
      }
    }
    waiting.push({ item, at: Date.now() });
    if (!current) next();
  }

  function stop() {
    waiting.length = 0;
    if (current) clearTimeout(current.guard);
    current = null;
    if (synth && (synth.speaking || synth.pending)) synth.cancel();
  }

  function setOn(value) {
    on = Boolean(value) && Boolean(synth);
    if (!on) stop();
  }

  /* Tie a checkbox to the speech: its state kept in localStorage under ``options.key``
     (default "mandala.speak"), ``options.game`` the game whose items are spoken (null:
     any), ``options.note`` an element that says what happens (or why it cannot). */
  function attach(input, options = {}) {
    const key = options.key || "mandala.speak";
    game = options.game === undefined ? null : options.game;
    const note = options.note || null;
    if (!synth) {
      input.disabled = true;
      if (note) note.textContent = Panel.t("This browser cannot speak: it has no speech synthesis.");
      return;
    }
    let kept = null;
    try { kept = localStorage.getItem(key); } catch (error) { /* private mode: not kept */ }
    input.checked = kept === null ? Boolean(options.defaultOn) : kept === "on";
    setOn(input.checked);
    const tell = () => {
      if (!note) return;
      note.textContent = input.checked
        ? Panel.t("On: this phone says whose turn it is, the dice and what each turn did. After a reload it speaks from your first tap on this page (browsers ask for one).")
        : Panel.t("Off: this phone stays quiet.");
    };
    if (kept !== null) tell();
    input.addEventListener("change", () => {
      setOn(input.checked);
      try { localStorage.setItem(key, input.checked ? "on" : "off"); } catch (error) { /* */ }
      tell();
    });
  }

  /* Speak only game ``id`` from now on (the table view follows the game in play). */
  function follow(id) { if (id !== game) { game = id; stop(); } }

  document.addEventListener("panel:item", (event) => take(event.detail));
  window.addEventListener("pagehide", stop);

  return { attach, take, follow, STALE_MS };
})();
