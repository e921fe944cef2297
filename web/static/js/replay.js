// The replay viewer (#/replay/CODE/N, #/replay/CODE/N/SEAT; issue 32): a finished game stepped
// back and forth, or played, action by action, from any seat's view or the spectators', with the
// moves beside it and a link to share. The server sends the frames as that seat saw them
// (GET /api/games/CODE/N?seat=SEAT), so no frame holds a hand before the game showed it.

import { t, tv, num } from "./i18n.js";
import { api } from "./api.js";
import { h } from "./dom.js";
import { Table } from "./table.js";
import { cardsWords } from "./cards.js";
import { state, app, topbar, copyButton, nameOf } from "./shell.js";

const PLAY_MS = 900;

// who names a seat of the game by the name of the player dealt it (the replay's names), else
// "Seat N"; the clock's and the dealer's own moves by what they are.
function who(seat, names) {
  if (seat === -1) return t("The clock");
  if (seat === -2) return t("The dealer");
  return (names || [])[seat] || t("Seat {n}", { n: seat + 1 });
}

// moveWords says one logged action in words: who did what, with which cards.
function moveWords(l, names) {
  const a = l.action || {};
  const cards = cardsWords(a.cards);
  const what = cards ? t("{action}: {cards}", { action: tv(a.type.replace(/_/g, " ")), cards }) : tv(a.type.replace(/_/g, " "));
  return t("{who}: {what}", { who: who(l.seat, names), what });
}

export async function replayPage(code, n, seatPart) {
  const seat = seatPart === undefined || seatPart === "" || seatPart === "s" ? null : Number(seatPart);
  const rs = state.rulesets || (await api("GET", "/api/rulesets")).rulesets;
  state.rulesets = rs;
  const rep = await api("GET", `/api/games/${code}/${n}` + (seat === null ? "" : `?seat=${seat}`));
  const frames = rep.frames || [];
  let i = 0;
  let timer = null;

  const tableEl = h("div", { class: "table-host", id: "table" });
  const table = new Table(tableEl, {
    send: () => {}, check: () => {}, canDeal: () => false, onDeal: () => {}, onAsk: () => {}, asks: () => [], askedByMe: () => false, onLeave: () => { location.hash = "#/"; },
    isSetting: () => false, settingValue: (_id, v) => String(v),
    rulesetInfo: () => rs.find((d) => d.id === rep.ruleset),
    player: (s) => ({ name: who(s, rep.names) }),
    deadlineMs: () => 5000,
  });
  const pos = h("p", { class: "help", id: "replay-pos", "aria-live": "polite" });
  const slider = h("input", { type: "range", min: 0, max: Math.max(0, frames.length - 1), value: 0, id: "replay-slider", "aria-label": t("Move") });
  const log = h("ol", { class: "replay-log", id: "replay-log", "aria-label": t("Moves") });
  rep.log.forEach((l, k) => log.append(h("li", { "data-seq": l.seq }, h("button", { type: "button", class: "linkish", onclick: () => go(k + 1) }, moveWords(l, rep.names)))));
  const btn = (id, label, text, f) => h("button", { class: "btn small", type: "button", id, "aria-label": label, title: label, onclick: f }, text);
  const play = btn("replay-play", t("Play"), t("Play"), () => (timer ? stop() : start()));
  const controls = h("div", { class: "row replay-controls", role: "group", "aria-label": t("Replay controls") },
    btn("replay-first", t("First move"), "|◀", () => go(0)), btn("replay-back", t("Back one move"), "◀", () => go(i - 1)), play,
    btn("replay-forward", t("Forward one move"), "▶", () => go(i + 1)), btn("replay-last", t("Last move"), "▶|", () => go(frames.length - 1)));
  const viewAs = h("select", { id: "replay-seat", "aria-label": t("See the game as") },
    h("option", { value: "s", selected: seat === null }, t("A spectator")),
    Array.from({ length: rep.seats }, (_, s) => h("option", { value: s, selected: seat === s }, who(s, rep.names))));
  viewAs.addEventListener("change", () => { location.hash = `#/replay/${code}/${n}/${viewAs.value}`; });

  function go(k) {
    i = Math.max(0, Math.min(frames.length - 1, k));
    const f = frames[i];
    if (!f) return;
    const v = { ...f.view, actions: [], deadlines: [] }; // a replay offers no move
    table.update(v, {});
    slider.value = String(i);
    pos.textContent = t("Move {move} of {count}", { move: num(i), count: frames.length - 1 });
    pos.dataset.seq = String(f.seq);
    for (const li of log.children) li.classList.toggle("current", Number(li.dataset.seq) === f.seq);
    // Scroll the moves alone (scrollIntoView would scroll the page and the panel too, and take
    // the controls out from under the finger).
    const cur = log.querySelector(".current");
    if (cur && (cur.offsetTop < log.scrollTop || cur.offsetTop + cur.offsetHeight > log.scrollTop + log.clientHeight)) {
      log.scrollTop = Math.max(0, cur.offsetTop - log.clientHeight / 2);
    }
    if (i >= frames.length - 1) stop();
  }
  function start() {
    if (i >= frames.length - 1) go(0);
    play.textContent = t("Pause");
    play.setAttribute("aria-label", t("Pause"));
    timer = setInterval(() => go(i + 1), PLAY_MS);
  }
  function stop() {
    clearInterval(timer);
    timer = null;
    play.textContent = t("Play");
    play.setAttribute("aria-label", t("Play"));
  }
  slider.addEventListener("input", () => go(Number(slider.value)));

  const share = `${location.origin}${location.pathname}#/replay/${code}/${n}`;
  // The controls come first: on a phone they sit right under the table, in reach.
  const side = h("aside", { class: "replay-side", "aria-label": t("Replay") },
    controls, slider, pos,
    h("h1", {}, t("Replay: {name}", { name: nameOf(rep.ruleset) })),
    h("p", { class: "help" }, t("Room {code}, game {n}", { code, n: num(Number(n)) })),
    h("label", { class: "field" }, h("span", {}, t("See the game as")), viewAs),
    copyButton(share, t("Copy the replay's link")), h("h2", {}, t("Moves")), log);
  const root = h("div", { class: "room replay", id: "replay", "data-room": code, "data-game": n, "data-seat": seat === null ? "s" : seat }, h("div", { class: "table-wrap" }, tableEl), side);
  root.addEventListener("keydown", (e) => {
    if (e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement) return;
    if (e.key === "ArrowLeft") { go(i - 1); e.preventDefault(); }
    if (e.key === "ArrowRight") { go(i + 1); e.preventDefault(); }
  });
  document.body.classList.add("in-room");
  app.replaceChildren(topbar(), root);
  window.addEventListener("hashchange", stop, { once: true });
  go(0);
}
