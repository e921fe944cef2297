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
import { teamOf } from "./teams.js";
import { t, tv, num } from "./i18n.js";


// WORDS are the numbers a burn's moment says in words (in English, shown through t()).
const WORDS = ["no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"];

const reduced = () => !!window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;

// mine says whether seat is the viewer's own: sentences about it say "you".
function mine(tb, seat) {
  return seat === tb.me && tb.me >= 0;
}

function smallCard(tb, code) {
  const c = cardEl(code, { roles: tb.view.roles, back: tb.backKind() });
  c.classList.add("summary-card");
  return c;
}

// leftOf is what seat still holds, zone by zone (hand, face-up and face-down rows, the deadwood of
// a hand laid out): [{label, cards, count}] with cards null where the view does not show them.
function leftOf(tb, seat) {
  const zs = (tb.view.zones || []).filter((z) => z.owner === seat && (z.kind === "hand" || z.kind === "row" || z.kind === "deadwood"));
  return zs.map((z) => ({ id: z.id, label: z.kind === "hand" ? t("hand") : z.kind === "deadwood" ? t("deadwood") : tv(z.label || z.kind), cards: z.cards && z.cards.length ? z.cards : null, count: z.count || 0 }))
    .filter((z) => z.count > 0);
}

function handsLeft(tb) {
  const v = tb.view;
  const seats = (v.players || []).map((p) => p.seat);
  // The winner first, then the others in seat order. A partnership wins together: each partner
  // of the winning seat is a winner too (Spades).
  seats.sort((a, b) => (a === v.winner ? -1 : b === v.winner ? 1 : a - b));
  const partners = v.winner >= 0 ? teamOf(tb, v.winner)?.seats || [v.winner] : [];
  return h("ul", { class: "hands-left", "aria-label": t("hands left") }, seats.map((seat) => {
    const p = (v.players || []).find((x) => x.seat === seat) || {};
    const left = leftOf(tb, seat);
    // A trick game's points are those taken in tricks, not left in a hand: the sheet has them.
    const points = p.points !== undefined && p.points !== null && !v.trick && !v.last_trick ? p.points : null;
    const n = left.reduce((a, z) => a + z.count, 0);
    const head = h("div", { class: "row" }, h("b", { class: "grow" }, tb.player(seat).name, mine(tb, seat) ? " " + t("(you)") : ""),
      seat === v.winner || partners.includes(seat) ? h("span", { class: "chip gold", "data-winner": seat }, t("Winner")) : "",
      h("span", { class: "chip", "data-left-count": n }, n ? t("{count} cards left", { count: n }) : t("no cards left")),
      // What the cards still held count (for the winner, or against their holder): a plain chip,
      // never a green one that reads as a gain; none for an empty hand.
      points ? h("span", { class: "chip", "data-points": points }, t("cards worth {count} pts", { count: points })) : "");
    // A hand laid out (Gin Rummy) shows its melds too, with what was laid off onto them: not cards
    // left, but how the hand ended.
    const melds = (v.zones || []).filter((z) => z.owner === seat && z.kind === "meld" && (z.cards || []).length).sort((a, b) => (a.meld ?? 0) - (b.meld ?? 0));
    const laid = melds.length ? h("div", { class: "left-zone left-melds", "data-melds-left": seat }, h("span", { class: "help" }, t("melds")),
      melds.map((z) => h("div", { class: "left-cards left-meld", "data-meld-left": z.id, role: "group", "aria-label": meldName(z) }, z.cards.map((c) => smallCard(tb, c))))) : "";
    const cards = left.map((z) => h("div", { class: "left-zone", "data-zone-left": z.id }, left.length > 1 || melds.length ? h("span", { class: "help" }, z.label) : "",
      h("div", { class: "left-cards" }, z.cards ? z.cards.map((c) => smallCard(tb, c)) : Array.from({ length: Math.min(z.count, 12) }, () => smallCard(tb, "")))));
    return h("li", { "data-hand-left": seat }, head, laid, cards);
  }));
}

// howCounted says where the winner's points came from: the points of each hand left (Last Card).
// A game with a score sheet says it there, hand by hand (Gin Rummy's knock, gin or undercut), and
// a trick game's points are taken in tricks, not left in hands.
function howCounted(tb) {
  const v = tb.view;
  if (v.sheet || v.trick || v.last_trick) return "";
  const hands = (v.players || []).filter((p) => p.seat !== v.winner && p.points !== undefined && p.points !== null);
  if (!hands.length || v.winner < 0) return "";
  const total = hands.reduce((a, p) => a + p.points, 0);
  const parts = hands.map((p) => `${num(p.points)} (${tb.player(p.seat).name})`).join(" + ");
  const text = mine(tb, v.winner) ? t("You score {count} points: the cards left in the other hands, {parts}.", { count: total, parts })
    : t("{name} scores {count} points: the cards left in the other hands, {parts}.", { name: tb.player(v.winner).name, count: total, parts });
  return h("p", { class: "how-counted", "data-total": total }, text);
}

// verdict says who won and by how much, in one sentence under the title: a partnership's score
// against the best other team's (Spades), else the winner's total against the next best's, the
// lowest being best where the lowest wins (Hearts; View.low_wins). A round's end says who leads
// the game and by how much. A game without running scores says nothing here (Last Card's single
// round says what the winner scores in howCounted).
function verdict(tb) {
  const v = tb.view;
  const over = v.phase === "game_over";
  const low = !!v.low_wins;
  const better = (a, b) => (low ? a < b : a > b);
  const teams = (v.teams || []).filter((x) => x.score !== undefined && x.score !== null);
  if (over && v.winner >= 0 && teams.length > 1) {
    const win = teamOf(tb, v.winner);
    if (!win) return "";
    const rest = teams.filter((x) => x !== win).sort((a, b) => (low ? a.score - b.score : b.score - a.score));
    const other = rest[0];
    const margin = Math.abs(win.score - other.score);
    const names = (win.seats || []).map((s) => tb.player(s).name).join(" & ");
    const ours = (win.seats || []).some((s) => mine(tb, s));
    const params = { names, count: margin, score: num(win.score), other: num(other.score) };
    const text = ours ? t("Your team wins by {count} points: {score} to {other}.", params) : t("{names} win by {count} points: {score} to {other}.", params);
    return h("p", { class: "verdict", "data-margin": margin, "data-winner-team": win.id }, text);
  }
  const scored = (v.players || []).filter((p) => p.score !== undefined && p.score !== null);
  if (scored.length < 2) return "";
  const ranked = [...scored].sort((a, b) => (low ? a.score - b.score : b.score - a.score) || a.seat - b.seat);
  const first = over && v.winner >= 0 ? scored.find((p) => p.seat === v.winner) || ranked[0] : ranked[0];
  const next = ranked.find((p) => p !== first);
  const margin = Math.abs(first.score - next.score);
  const you = mine(tb, first.seat);
  const params = { name: tb.player(first.seat).name, other: tb.player(next.seat).name, score: num(first.score), count: margin };
  let text;
  if (over) {
    if (low) text = you ? t("You win with {score} points, {count} fewer than {other}.", params) : t("{name} wins with {score} points, {count} fewer than {other}.", params);
    else text = you ? t("You win with {score} points, {count} more than {other}.", params) : t("{name} wins with {score} points, {count} more than {other}.", params);
  } else {
    if (margin === 0 || !better(first.score, next.score)) text = t("{name} and {other} are level on {score} points.", params);
    else if (low) text = you ? t("You lead with {score} points, {count} fewer than {other}.", params) : t("{name} leads with {score} points, {count} fewer than {other}.", params);
    else text = you ? t("You lead with {score} points, {count} more than {other}.", params) : t("{name} leads with {score} points, {count} more than {other}.", params);
  }
  return h("p", { class: "verdict", "data-margin": margin, "data-first": first.seat }, text);
}

// standings is the table of the scores: a column for each round this page saw end (what each
// seat gained in it), then the total, best first.
function standings(tb, rounds) {
  const v = tb.view;
  const scored = (v.players || []).filter((p) => p.score !== undefined && p.score !== null);
  if (!scored.length) return "";
  const cols = (rounds || []).filter((r) => r.gained);
  // Best first: the lowest when the lowest wins (View.low_wins: Hearts).
  const low = !!v.low_wins;
  const rows = [...scored].sort((a, b) => (low ? a.score - b.score : b.score - a.score) || a.seat - b.seat).map((p, i) => h("tr", { "data-standing": p.seat },
    h("td", {}, num(i + 1)), h("td", { class: "name" }, tb.player(p.seat).name),
    cols.map((r) => h("td", { "data-round": r.round }, r.gained[p.seat] > 0 ? `+${num(r.gained[p.seat])}` : num(r.gained[p.seat] || 0))),
    h("td", { class: "total" }, h("b", {}, num(p.score)))));
  return h("div", { class: "standings-wrap" }, h("table", { class: "scores standings", "aria-label": t("standings") },
    h("tr", {}, h("th", {}, "#"), h("th", {}, t("Player")), cols.map((r) => h("th", {}, t("R{round}", { round: r.round }))), h("th", {}, t("Total"))), rows));
}

// next is what comes after: the host deals (a rematch, the next round); a player may ask the host
// for it (the host sees who asked); anyone may leave.
function next(tb) {
  const v = tb.view;
  const o = tb.opts;
  const over = v.phase === "game_over";
  const bar = h("div", { class: "summary-actions" });
  const key = `${v.round}:${v.winner}:${v.phase}`;
  if (o.onDeal && o.canDeal && o.canDeal()) {
    bar.append(h("button", { class: "btn primary big", type: "button", "data-action": "deal", onclick: () => o.onDeal() }, over ? t("Rematch") : t("Deal next round")));
  } else if (tb.me >= 0 && o.onAsk) {
    const asked = tb.asked === key || !!o.askedByMe?.(); // asked here, or before a reload
    bar.append(h("button", { class: "btn go big", type: "button", "data-action": "rematch", disabled: asked, onclick: (e) => {
      tb.asked = key;
      e.currentTarget.disabled = true;
      e.currentTarget.textContent = t("Asked the host");
      o.onAsk(over);
    } }, asked ? t("Asked the host") : over ? t("Rematch") : t("Next round")));
  }
  if (o.onLeave) bar.append(h("button", { class: "btn ghost big", type: "button", "data-action": "leave", onclick: () => o.onLeave() }, t("Leave")));
  // The foot stays in sight at the panel's bottom while a long list of hands scrolls.
  return h("div", { class: "summary-foot" }, askNote(tb), bar);
}

// askNote tells the host who asked for a rematch (or the next round), and the others that the
// host deals it.
export function askNote(tb) {
  const o = tb.opts;
  const over = tb.view.phase === "game_over";
  const host = o.onDeal && o.canDeal && o.canDeal();
  const asks = host && o.asks ? o.asks() : [];
  let note = over ? t("Waiting for the host to deal a rematch.") : t("Waiting for the host to deal the next round.");
  if (host) note = asks.length ? t(over ? "{names} asks for a rematch." : "{names} asks for the next round.", { names: asks.join(", "), count: asks.length }) : "";
  return h("p", { class: "rematch-note" + (asks.length ? " asked" : " help"), "data-asks": asks.length, role: "status" }, note);
}

export function summary(tb, rounds) {
  const v = tb.view;
  const over = v.phase === "game_over";
  const won = v.winner >= 0;
  const name = won ? tb.player(v.winner).name : "";
  const round = v.round || "";
  let title;
  // A partnership wins together (Spades): the title names the team's players.
  const team = over && won && (v.teams || []).length ? teamOf(tb, v.winner) : null;
  if (team) title = (team.seats || []).some((s) => mine(tb, s)) ? t("Your team wins!") : t("{names} win!", { names: (team.seats || []).map((s) => tb.player(s).name).join(" & ") });
  else if (over) title = won ? (mine(tb, v.winner) ? t("You win!") : t("{name} wins!", { name })) : t("Game over");
  else title = won ? (mine(tb, v.winner) ? t("Round {round} to you", { round }) : t("Round {round} to {name}", { round, name })) : t("Round {round} is over", { round });
  const p = h("div", { class: "panel over summary", id: "summary", "data-phase": v.phase, "aria-label": t("summary") },
    h("h2", { class: over && won ? "winner-title" : "" }, over && won ? h("span", { class: "trophy", "aria-hidden": "true" }, "\u2605") : "", title),
    verdict(tb), howCounted(tb), h("h3", {}, t("Hands left")), handsLeft(tb), standings(tb, rounds), tb.view.sheet ? h("h3", {}, t("Score sheet")) : "", sheetTable(tb), next(tb));
  return p;
}

// celebration is the confetti falling over the felt when a game is won: slow pieces (each falls
// in 2.4 s or more, twice, and nothing blinks), none at all with reduced motion (the summary still
// names the winner).
export function celebration(tb) {
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
export function burnMoment(tb, e) {
  const you = mine(tb, e.seat);
  const name = tb.player(e.seat).name;
  let why;
  if (e.name === "overdose") {
    const cards = e.cards || [];
    const rank = cards.length ? parseCard(cards[cards.length - 1]).rank : "";
    let n = 0;
    for (let i = cards.length - 1; i >= 0 && parseCard(cards[i]).rank === rank; i--) n++;
    why = t("Overdose: {n} {rank}s in a row", { n: n < WORDS.length ? t(WORDS[n]) : num(n), count: n, rank });
  } else {
    why = t("a 10 burns the pile");
  }
  const again = tb.view.phase === "playing" && tb.view.turn === e.seat;
  return h("div", { class: `burn-moment ${e.name}`, role: "status", "data-moment": e.name, "data-burned-by": e.seat },
    flame(),
    h("b", {}, e.name === "overdose" ? t("OVERDOSE!") : t("BURNED!")),
    h("span", {}, you ? t("You burned the pile: {why}.", { why }) : t("{name} burned the pile: {why}.", { name, why })),
    again ? h("span", { class: "help" }, you ? t("You play again.") : t("{name} plays again.", { name })) : "");
}
