/* Your-turn alerts (issue 25): the phone vibrates and beeps when it becomes its seat's turn.

   The seat is the one this phone holds in a card game played on the panel (its token), or,
   on the ring board, the one claimed with "This is my seat" (kept by the phone in
   localStorage, no token: anybody may claim any seat, it only decides what this phone
   signals). The alert is on by default, a switch per phone; browsers vibrate and play sound
   only after a tap on the page, so the first tap opens the sound (a WebAudio oscillator, no
   file). It follows the stream's "game" items of this page's game (their state's
   ``to_move``; a card game's carries this phone's ``seat``). */
const Alerts = (() => {
  const game = Panel.data.game;
  const input = document.getElementById("turn-alert");
  const chooser = document.getElementById("my-seat");
  if (!game || !game.state || !input) return null;
  const onKey = "mandala.alerts";
  const seatKey = "mandala.myseat." + game.id;
  const kind = game.kind;
  let toMove = game.state.to_move;
  let held = game.state.seat || null;  // a card game's seat on this phone
  let sound = null;
  let beeps = 0;

  const keep = (key, value) => { try { localStorage.setItem(key, value); } catch (e) { /* */ } };
  const kept = (key) => { try { return localStorage.getItem(key); } catch (e) { return null; } };

  function mine() {
    if (kind === "rings") return (chooser && chooser.value) || null;
    return held;
  }

  /* The sound needs a tap first: the first one on the page makes (or resumes) it. */
  function openSound() {
    const Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return;
    if (!sound) sound = new Context();
    if (sound.state === "suspended") sound.resume();
  }

  function beep() {
    if (!sound || sound.state === "closed") return false;  // no tap yet: no sound allowed
    if (sound.state === "suspended") sound.resume();  // it plays as soon as it runs
    const tone = sound.createOscillator();
    const level = sound.createGain();
    tone.frequency.value = 880;
    level.gain.setValueAtTime(0.2, sound.currentTime);
    level.gain.exponentialRampToValueAtTime(0.001, sound.currentTime + 0.3);
    tone.connect(level).connect(sound.destination);
    tone.start();
    tone.stop(sound.currentTime + 0.3);
    beeps += 1;
    return true;
  }

  function alert() {
    if (navigator.vibrate) navigator.vibrate([200, 100, 200]);
    beep();
  }

  function seen(state) {
    if (!state || state.to_move === undefined) return;
    if (kind !== "rings" && "seat" in state) held = state.seat || null;
    const now = state.to_move;
    const me = mine();
    if (input.checked && me && now === me && now !== toMove && !state.over) alert();
    toMove = now;
  }

  // The switch and the seat.
  const section = document.getElementById("turn-alerts");
  if (kind === "rings" && chooser) {
    for (const seat of Panel.data.seats || []) {
      chooser.append(Panel.el("option", { value: seat.name, text: seat.name }));
    }
    const claimed = kept(seatKey);
    if (claimed && [...chooser.options].some((o) => o.value === claimed)) chooser.value = claimed;
    chooser.addEventListener("change", () => keep(seatKey, chooser.value));
    document.getElementById("my-seat-box").hidden = false;
  } else if (kind !== "cards") {
    return null;  // no seat a phone holds or claims here
  }
  section.hidden = false;
  input.checked = kept(onKey) !== "off";
  input.addEventListener("change", () => keep(onKey, input.checked ? "on" : "off"));
  document.addEventListener("pointerdown", openSound);
  document.addEventListener("keydown", openSound);

  document.addEventListener("panel:item", (event) => {
    const item = event.detail;
    if (item.type === "game" && item.id === game.id && item.state) seen(item.state);
    else if (item.type === "state" && item.game && item.game.id === game.id) seen(item.game.state);
  });

  return { mine, beeps: () => beeps, sound: () => sound };
})();
