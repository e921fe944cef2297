// The end of a round or a game, for everyone at the table (players and spectators): who won,
// every hand left (the cards each seat still held: the rulesets show them once the round is
// over), how the points were counted, the standings over the rounds this page has seen, and what
// comes next (the host's Rematch or next round, a player's request for one, Leave). Also the two
// moments of play that have their own banner: the winner's celebration and DRUGS' burn.
//
//   summary(table, rounds)   the summary panel (rounds: Table.noteRound's list)
//   celebration(table)       the confetti over the felt for a game won; none with reduced motion
//   askNote(table)           the summary's line of who asked the host for what comes next
//   burnMoment(table, event) the banner of a burn ("burned") or an Overdose ("overdose")

import { cardEl, parseCard } from "./cards.js";
import { h } from "./dom.js";
import { sheetTable } from "./sheet.js";
import { meldName } from "./melds.js";

const WORDS = ["no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"];

const reduced = () => !!window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;

// who is a seat's name as a sentence starts with it: "You" for the viewer's own.
function who(t, seat) {
  return seat === t.me && t.me >= 0 ? "You" : t.player(seat).name;
}

function smallCard(t, code) {
  const c = cardEl(code, { roles: t.view.roles, back: t.backKind() });
  c.classList.add("summary-card");
  return c;
}

// leftOf is what seat still holds, zone by zone (hand, face-up and face-down rows, the deadwood of
// a hand laid out): [{label, cards, count}] with cards null where the view does not show them.
function leftOf(t, seat) {
  const zs = (t.view.zones || []).filter((z) => z.owner === seat && (z.kind === "hand" || z.kind === "row" || z.kind === "deadwood"));
  return zs.map((z) => ({ id: z.id, label: z.kind === "hand" ? "hand" : z.kind === "deadwood" ? "deadwood" : z.label || z.kind, cards: z.cards && z.cards.length ? z.cards : null, count: z.count || 0 }))
    .filter((z) => z.count > 0);
}

function handsLeft(t) {
  const v = t.view;
  const seats = (v.players || []).map((p) => p.seat);
  // The winner first, then the others in seat order.
  seats.sort((a, b) => (a === v.winner ? -1 : b === v.winner ? 1 : a - b));
  return h("ul", { class: "hands-left", "aria-label": "hands left" }, seats.map((seat) => {
    const p = (v.players || []).find((x) => x.seat === seat) || {};
    const left = leftOf(t, seat);
    // A trick game's points are those taken in tricks, not left in a hand: the sheet has them.
    const points = p.points !== undefined && p.points !== null && !v.trick && !v.last_trick ? p.points : null;
    const n = left.reduce((a, z) => a + z.count, 0);
    const head = h("div", { class: "row" }, h("b", { class: "grow" }, t.player(seat).name, seat === t.me && t.me >= 0 ? " (you)" : ""),
      seat === v.winner ? h("span", { class: "chip gold" }, "Winner") : "",
      h("span", { class: "chip", "data-left-count": n }, n ? `${n} card${n === 1 ? "" : "s"} left` : "no cards left"),
      points !== null ? h("span", { class: "chip green", "data-points": points }, `${points} pts`) : "");
    // A hand laid out (Gin Rummy) shows its melds too, with what was laid off onto them: not cards
    // left, but how the hand ended.
    const melds = (v.zones || []).filter((z) => z.owner === seat && z.kind === "meld" && (z.cards || []).length).sort((a, b) => (a.meld ?? 0) - (b.meld ?? 0));
    const laid = melds.length ? h("div", { class: "left-zone left-melds", "data-melds-left": seat }, h("span", { class: "help" }, "melds"),
      melds.map((z) => h("div", { class: "left-cards left-meld", "data-meld-left": z.id, role: "group", "aria-label": meldName(z) }, z.cards.map((c) => smallCard(t, c))))) : "";
    const cards = left.map((z) => h("div", { class: "left-zone", "data-zone-left": z.id }, left.length > 1 || melds.length ? h("span", { class: "help" }, z.label) : "",
      h("div", { class: "left-cards" }, z.cards ? z.cards.map((c) => smallCard(t, c)) : Array.from({ length: Math.min(z.count, 12) }, () => smallCard(t, "")))));
    return h("li", { "data-hand-left": seat }, head, laid, cards);
  }));
}

// howCounted says where the winner's points came from: the points of each hand left (Last Card).
// A game with a score sheet says it there, hand by hand (Gin Rummy's knock, gin or undercut), and
// a trick game's points are taken in tricks, not left in hands.
function howCounted(t) {
  const v = t.view;
  if (v.sheet || v.trick || v.last_trick) return "";
  const hands = (v.players || []).filter((p) => p.seat !== v.winner && p.points !== undefined && p.points !== null);
  if (!hands.length || v.winner < 0) return "";
  const total = hands.reduce((a, p) => a + p.points, 0);
  const parts = hands.map((p) => `${p.points} (${t.player(p.seat).name})`).join(" + ");
  return h("p", { class: "how-counted", "data-total": total }, `${who(t, v.winner)} ${v.winner === t.me ? "score" : "scores"} ${total} points: the cards left in the other hands, ${parts}.`);
}

// standings is the table of the scores: a column for each round this page saw end (what each
// seat gained in it), then the total, best first.
function standings(t, rounds) {
  const v = t.view;
  const scored = (v.players || []).filter((p) => p.score !== undefined && p.score !== null);
  if (!scored.length) return "";
  const cols = (rounds || []).filter((r) => r.gained);
  // Best first: the lowest when the lowest wins (View.low_wins: Hearts).
  const low = !!v.low_wins;
  const rows = [...scored].sort((a, b) => (low ? a.score - b.score : b.score - a.score) || a.seat - b.seat).map((p, i) => h("tr", { "data-standing": p.seat },
    h("td", {}, String(i + 1)), h("td", { class: "name" }, t.player(p.seat).name),
    cols.map((r) => h("td", { "data-round": r.round }, r.gained[p.seat] > 0 ? `+${r.gained[p.seat]}` : String(r.gained[p.seat] || 0))),
    h("td", { class: "total" }, h("b", {}, String(p.score)))));
  return h("div", { class: "standings-wrap" }, h("table", { class: "scores standings", "aria-label": "standings" },
    h("tr", {}, h("th", {}, "#"), h("th", {}, "Player"), cols.map((r) => h("th", {}, `R${r.round}`)), h("th", {}, "Total")), rows));
}

// next is what comes after: the host deals (a rematch, the next round); a player may ask the host
// for it (the host sees who asked); anyone may leave.
function next(t) {
  const v = t.view;
  const o = t.opts;
  const over = v.phase === "game_over";
  const bar = h("div", { class: "summary-actions" });
  const key = `${v.round}:${v.winner}:${v.phase}`;
  if (o.onDeal && o.canDeal && o.canDeal()) {
    bar.append(h("button", { class: "btn primary big", type: "button", "data-action": "deal", onclick: () => o.onDeal() }, over ? "Rematch" : "Deal next round"));
  } else if (t.me >= 0 && o.onAsk) {
    const asked = t.asked === key || !!o.askedByMe?.(); // asked here, or before a reload
    bar.append(h("button", { class: "btn go big", type: "button", "data-action": "rematch", disabled: asked, onclick: (e) => {
      t.asked = key;
      e.currentTarget.disabled = true;
      e.currentTarget.textContent = "Asked the host";
      o.onAsk(over);
    } }, asked ? "Asked the host" : over ? "Rematch" : "Next round"));
  }
  if (o.onLeave) bar.append(h("button", { class: "btn ghost big", type: "button", "data-action": "leave", onclick: () => o.onLeave() }, "Leave"));
  // The foot stays in sight at the panel's bottom while a long list of hands scrolls.
  return h("div", { class: "summary-foot" }, askNote(t), bar);
}

// askNote tells the host who asked for a rematch (or the next round), and the others that the
// host deals it.
export function askNote(t) {
  const o = t.opts;
  const over = t.view.phase === "game_over";
  const host = o.onDeal && o.canDeal && o.canDeal();
  const asks = host && o.asks ? o.asks() : [];
  let note = `Waiting for the host to ${over ? "deal a rematch" : "deal the next round"}.`;
  if (host) note = asks.length ? `${asks.join(", ")} ${asks.length === 1 ? "asks" : "ask"} for ${over ? "a rematch" : "the next round"}.` : "";
  return h("p", { class: "rematch-note" + (asks.length ? " asked" : " help"), "data-asks": asks.length, role: "status" }, note);
}

export function summary(t, rounds) {
  const v = t.view;
  const over = v.phase === "game_over";
  const won = v.winner >= 0;
  const winner = won ? who(t, v.winner) : "";
  let title;
  if (over) title = won ? (winner === "You" ? "You win!" : `${winner} wins!`) : "Game over";
  else title = won ? `Round ${v.round || ""} to ${winner === "You" ? "you" : winner}` : `Round ${v.round || ""} is over`;
  const p = h("div", { class: "panel over summary", id: "summary", "data-phase": v.phase, "aria-label": "summary" },
    h("h2", { class: over && won ? "winner-title" : "" }, over && won ? h("span", { class: "trophy", "aria-hidden": "true" }, "\u2605") : "", title),
    howCounted(t), h("h3", {}, "Hands left"), handsLeft(t), standings(t, rounds), t.view.sheet ? h("h3", {}, "Score sheet") : "", sheetTable(t), next(t));
  return p;
}

// celebration is the confetti falling over the felt when a game is won: slow pieces (each falls
// in 2.4 s or more, twice, and nothing blinks), none at all with reduced motion (the summary still
// names the winner).
export function celebration(t) {
  const layer = h("div", { class: "celebration", "aria-hidden": "true", "data-motion": reduced() ? "none" : "confetti" });
  if (reduced()) return layer;
  const colours = ["#f2c14e", "#e0393e", "#3fb68b", "#2f6fd6", "#c68cff", "#ffffff"];
  for (let i = 0; i < 36; i++) {
    const c = h("span", { class: "confetti" });
    c.style.setProperty("--x", `${(i * 37) % 100}%`);
    c.style.setProperty("--delay", `${((i * 13) % 20) / 10}s`);
    c.style.setProperty("--fall", `${2.4 + ((i * 7) % 12) / 10}s`);
    c.style.setProperty("--spin", `${((i * 53) % 2 ? 1 : -1) * (180 + (i * 29) % 360)}deg`);
    c.style.background = colours[i % colours.length];
    layer.append(c);
  }
  return layer;
}

// flame is the burn moment's flame (drawn: no emoji font is needed).
function flame() {
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", "0 0 24 32");
  svg.setAttribute("class", "flame");
  svg.setAttribute("aria-hidden", "true");
  for (const [d, fill] of [["M12 1c2 6 9 9 9 18a9 9 0 0 1-18 0c0-5 3-7 4-11 1 3 2 4 3 4 0-4 0-7 2-11z", "#ff7a1a"], ["M12 14c1 3 5 5 5 9a5 5 0 0 1-10 0c0-3 2-4 3-6 .5 1.5 1 2 2 2 0-2-.5-3 0-5z", "#ffd23c"]]) {
    const p = document.createElementNS(ns, "path");
    p.setAttribute("d", d);
    p.setAttribute("fill", fill);
    svg.append(p);
  }
  return svg;
}

// burnMoment names who burned the pile and why: a 10 (burned), or the run of one rank that
// reached the Overdose count (D-5; the cards of the event are the pile burned, bottom first).
export function burnMoment(t, e) {
  const name = who(t, e.seat);
  let why;
  if (e.name === "overdose") {
    const cards = e.cards || [];
    const rank = cards.length ? parseCard(cards[cards.length - 1]).rank : "";
    let n = 0;
    for (let i = cards.length - 1; i >= 0 && parseCard(cards[i]).rank === rank; i--) n++;
    why = `Overdose: ${WORDS[n] || n} ${rank}${n === 1 ? "" : "s"} in a row`;
  } else {
    why = "a 10 burns the pile";
  }
  const again = t.view.phase === "playing" && t.view.turn === e.seat;
  return h("div", { class: `burn-moment ${e.name}`, role: "status", "data-moment": e.name, "data-burned-by": e.seat },
    flame(),
    h("b", {}, e.name === "overdose" ? "OVERDOSE!" : "BURNED!"),
    h("span", {}, `${name} burned the pile: ${why}.`),
    again ? h("span", { class: "help" }, name === "You" ? "You play again." : `${name} plays again.`) : "");
}
