// What a screen reader hears of the game (a mixin of Table, table.js): the page's one live region
// (#announcer, in index.html and preview.html from the start, so that a screen reader follows it
// before anything is said in it) says each move in words ("Otto played 7 of hearts. Your turn."),
// the turn when it changes and a LAST CARD window when it opens, each once: one message per new
// view, added to the region (never rewritten), so each is read once.

import { cardName, shortName } from "./cards.js";
import { t, locale } from "./i18n.js";

// KEEP is how many messages stay in the region: the ones before are removed (a removal is not read).
const KEEP = 6;

// region is the page's live region, made now if the page has none (a page without it in its HTML).
function region() {
  let r = document.getElementById("announcer");
  if (!r) {
    r = document.createElement("div");
    r.id = "announcer";
    r.className = "sr-only";
    r.setAttribute("role", "log");
    r.setAttribute("aria-live", "polite");
    document.body.append(r);
  }
  return r;
}

// say adds one message to the live region.
export function say(text) {
  if (!text) return;
  const r = region();
  const p = document.createElement("p");
  p.textContent = text;
  r.append(p);
  while (r.childElementCount > KEEP) r.firstElementChild.remove();
}

// sentence ends a line with a full stop unless it ends with one already (or ! or ?).
const sentence = (s) => (/[.!?…]$/.test(s) ? s : s + ".");

export class TableSpeech {
  // speak says what a new view brings: its events as the move log words them, with every card
  // named in words ("7 of hearts", not "7♥"); the turn, when it changed or a turn event says it
  // came round again; a LAST CARD window newly open. The first view of a table says whose turn it is.
  speak(events, prev) {
    const v = this.view;
    this.spokenDeadlines ||= new Set();
    const parts = [];
    if (prev) {
      for (const e of this.tellOnce(events)) {
        const line = this.describe(e);
        if (line) parts.push(sentence(this.inWords(line, e)));
      }
    }
    if (v.phase === "playing") {
      for (const d of v.deadlines || []) {
        if (d.kind !== "last_card" || this.spokenDeadlines.has(d.id)) continue;
        this.spokenDeadlines.add(d.id);
        parts.push(d.seat === this.me && this.me >= 0 ? t("LAST CARD: call it now (the L key).") : t("{name} has one card left: LAST CARD.", { name: this.player(d.seat).name }));
      }
      const turned = !prev || prev.phase !== "playing" || prev.turn !== v.turn || events.some((e) => e.name === "turn");
      if (turned && v.turn >= 0) parts.push(v.turn === this.me && this.me >= 0 ? t("Your turn.") : t("{name}'s turn.", { name: this.player(v.turn).name }));
    }
    say(parts.join(" "));
  }

  // inWords names an event's cards in words in its line: each card's short name ("7♥", "R7")
  // becomes its name ("7 of hearts", "red (flame) 7"); cards the line does not name (a penalty
  // worded by its count: "Ada picked up 4 cards") are listed after it.
  inWords(line, e) {
    let out = line;
    // Several cards of one move, as the log lists them ("10♥ 10♣"), read as a list in words:
    // "10 of hearts and 10 of clubs".
    const cards = e.cards || [];
    const seq = cards.map(shortName).join(" ");
    if (cards.length > 1 && out.includes(seq)) return out.replace(seq, new Intl.ListFormat(locale(), { type: "conjunction" }).format(cards.map(cardName)));
    const rest = [];
    for (const c of e.cards || []) {
      const short = shortName(c);
      const i = out.indexOf(short);
      if (i >= 0) out = out.slice(0, i) + cardName(c) + out.slice(i + short.length);
      else if (!out.includes(cardName(c))) rest.push(cardName(c));
    }
    if (rest.length) out = t("{line}: {cards}", { line: out.replace(/[.!]$/, ""), cards: rest.join(", ") });
    return out;
  }
}
