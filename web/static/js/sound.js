// The table's sounds: short tones made in the page with the Web Audio API (no audio file, no
// network). One sound a moment: your turn, LAST CARD (a call, a window opening), caught (a
// penalty), burn (DRUGS: a burn or an Overdose) and win.
//
//   play(name)        plays a sound, if sound is on and the page may make one; true if it did
//   soundOn()         whether sound is on (the player's choice, kept in localStorage; on at first)
//   setSound(on)      switches sound on or off
//   soundSwitch()     the top bar's button that mutes and unmutes
//
// A browser lets a page make sound only once its user has pressed something in it: the first
// press (pointer or key) unlocks the audio; a sound asked for before that is not played.
// window.__cardhouseSounds lists the sounds played ({name, n}), newest last: the browser tests
// count them.

import { t } from "./i18n.js";

const KEY = "cardhouse.sound";
const played = (window.__cardhouseSounds = window.__cardhouseSounds || []);
let audio = null;
let unlocked = false;

// TUNES are a sound's notes: [frequency Hz, start s, length s, wave].
const TUNES = {
  turn: [[660, 0, 0.12], [880, 0.1, 0.18]],
  last_card: [[880, 0, 0.09, "square"], [880, 0.13, 0.09, "square"], [1175, 0.26, 0.22, "square"]],
  caught: [[392, 0, 0.16, "sawtooth"], [262, 0.15, 0.32, "sawtooth"]],
  burn: [[740, 0, 0.12, "sawtooth"], [523, 0.08, 0.14, "sawtooth"], [330, 0.18, 0.3, "sawtooth"]],
  win: [[523, 0, 0.14], [659, 0.13, 0.14], [784, 0.26, 0.14], [1047, 0.39, 0.4]],
};

export function soundOn() {
  try {
    return localStorage.getItem(KEY) !== "off";
  } catch {
    return true; // storage refused (a private window): sound stays on, as at first
  }
}

export function setSound(on) {
  try { localStorage.setItem(KEY, on ? "on" : "off"); } catch { /* kept for this page only */ }
  memo = on;
}

// memo is the choice made on this page when storage refuses it.
let memo = null;

function enabled() {
  return memo === null ? soundOn() : memo;
}

function unlock() {
  unlocked = true;
  if (!audio) {
    try { audio = new AudioContext(); } catch { audio = null; }
  }
  if (audio && audio.state === "suspended") audio.resume().catch(() => {});
}
for (const type of ["pointerdown", "keydown"]) window.addEventListener(type, unlock, { capture: true, passive: true });

export function play(name) {
  const notes = TUNES[name];
  if (!notes || !unlocked || !audio || !enabled()) return false;
  const t0 = audio.currentTime + 0.02;
  for (const [freq, at, len, wave] of notes) {
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.type = wave || "sine";
    osc.frequency.setValueAtTime(freq, t0 + at);
    // A short rise and a fall to silence: no click at either end.
    gain.gain.setValueAtTime(0.0001, t0 + at);
    gain.gain.exponentialRampToValueAtTime(wave ? 0.08 : 0.2, t0 + at + 0.015);
    gain.gain.exponentialRampToValueAtTime(0.0001, t0 + at + len);
    osc.connect(gain).connect(audio.destination);
    osc.start(t0 + at);
    osc.stop(t0 + at + len + 0.05);
  }
  played.push({ name, n: played.length + 1 });
  return true;
}

// speaker draws the switch's icon: a loudspeaker with its waves, or crossed out.
function speaker(on) {
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("width", "18");
  svg.setAttribute("height", "18");
  svg.setAttribute("aria-hidden", "true");
  const paths = ["M3 9h4l5-4v14l-5-4H3z"].concat(on ? ["M15.5 8.5a5 5 0 0 1 0 7", "M18 6a8.5 8.5 0 0 1 0 12"] : ["M16 9l6 6", "M22 9l-6 6"]);
  paths.forEach((d, i) => {
    const p = document.createElementNS(ns, "path");
    p.setAttribute("d", d);
    p.setAttribute("fill", i === 0 ? "currentColor" : "none");
    p.setAttribute("stroke", "currentColor");
    p.setAttribute("stroke-width", i === 0 ? "1" : "2");
    p.setAttribute("stroke-linecap", "round");
    svg.append(p);
  });
  return svg;
}

// soundSwitch is the top bar's mute switch: a button pressed while sound is on.
export function soundSwitch() {
  const b = document.createElement("button");
  b.type = "button";
  b.id = "sound-switch";
  b.className = "btn ghost small sound-switch";
  const icon = document.createElement("span");
  icon.className = "sound-icon";
  const word = document.createElement("span");
  word.className = "sound-word";
  b.append(icon, word);
  const show = () => {
    const on = enabled();
    b.setAttribute("aria-pressed", String(on));
    b.setAttribute("aria-label", on ? t("Sound is on: mute") : t("Sound is off: unmute"));
    b.title = on ? t("Sound on (tap to mute)") : t("Sound off (tap to unmute)");
    icon.replaceChildren(speaker(on));
    word.textContent = on ? t("Sound") : t("Muted");
  };
  b.addEventListener("click", () => { setSound(!enabled()); show(); });
  show();
  return b;
}
