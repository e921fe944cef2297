// The table's events (a mixin of Table, table.js): the move log's lines, the toasts and sounds
// a view's events make, and the card flights from one view to the next.

import { h } from "./dom.js";
import { cardEl, cardsWords, choiceName, SUITS, COLORS } from "./cards.js";
import { play as playSound } from "./sound.js";
import { burnMoment } from "./summary.js";
import { t, tv, num } from "./i18n.js";

// ENGINE_TEXTS word the events the SDK's engine adds to any variant's (sdk/engine), as a
// variant's Info.EventTexts word its own (in English: every sentence goes through t()).
const ENGINE_TEXTS = {
  house_rule_suspended: 'House rule "{rule}" is off for the rest of this game (it kept failing)',
};

// countWords is a number of cards in words: "1 card", "3 cards".
function countWords(n) {
  return t("{count} cards", { count: n });
}

export class TableLog {
  // ---- events, log and animations -----------------------------------------------------------------

  // describe is the move log's line for an event, or null for none: the ruleset's sentence for it
  // (Info.EventTexts: "NAME KEY=VALUE" for an event whose data has that value, before "NAME"); an
  // empty sentence writes no line. An event with none (a house rule's own, a variant that words
  // nothing) is written as its name in words, its cards in words, and the suits or colours its data
  // names ("Ada wild eight 8 of spades: Diamonds"); "turn" writes no line.
  describe(e) {
    const texts = { ...ENGINE_TEXTS, ...(this.rulesetInfo().event_texts || {}) };
    const d = e.data || {};
    const special = Object.keys(d).sort().map((k) => `${e.name} ${k}=${d[k]}`).find((k) => Object.hasOwn(texts, k));
    const text = special ? texts[special] : Object.hasOwn(texts, e.name) ? texts[e.name] : undefined;
    if (typeof text === "string") return this.eventText(tv(text), e) || null;
    if (e.name === "turn") return null;
    const who = e.seat >= 0 ? this.player(e.seat).name : "";
    const cards = cardsWords(e.cards);
    const hidden = !cards && e.private && e.count ? countWords(e.count) : "";
    const named = Object.values(d).filter((x) => SUITS[x] || COLORS[x]).map(choiceName).join(", ");
    return `${who} ${tv(e.name.replace(/_/g, " "))}${cards || hidden ? " " + (cards || hidden) : ""}${named ? ": " + named : ""}`.trim();
  }

  // eventText fills in a ruleset's sentence: {seat} (the acting seat's name), {cards} (in words,
  // or "a card" / "N cards" when hidden), {count}, {target} (Data "target" as a seat's name) and
  // {KEY} for any other key of the data (underscores as spaces). {FIELD:FORMAT} writes FIELD's
  // value (the seat number, the count, or Data[FIELD]) as: seat, the name of that seat ("you" for
  // the viewer's own); choice, a suit's or a colour's name; cards, "1 card" / "N cards".
  eventText(text, e) {
    const d = e.data || {};
    const n = e.count || (e.cards || []).length;
    const cards = cardsWords(e.cards);
    const raw = (k) => (k === "seat" ? e.seat : k === "count" ? n : d[k]);
    return text.replace(/\{(\w+)(?::(\w+))?\}/g, (m, k, format) => {
      if (format) {
        const v = raw(k);
        if (v === undefined || v === "") return "";
        switch (format) {
          case "seat": return Number(v) === this.me && this.me >= 0 ? t("you") : this.player(Number(v)).name;
          case "choice": return choiceName(String(v));
          case "cards": return countWords(Number(v));
        }
        return m;
      }
      switch (k) {
        case "seat": return e.seat >= 0 ? this.player(e.seat).name : "";
        case "cards": return cards || (n === 1 ? t("a card") : countWords(n));
        case "count": return num(n);
        case "target": return d.target !== undefined ? this.player(Number(d.target)).name : "";
      }
      return d[k] !== undefined ? tv(String(d[k]).replace(/_/g, " ")) : m;
    }).replace(/\s+/g, " ").trim();
  }

  // tellOnce folds what one penalty sends into one line: a ruleset reports the penalty (caught,
  // missed_last_card, penalty_drawn) and the draw that carries it out ("drew", just before or
  // after); Last Card's catch-out also says penalty_drawn after caught. The draw and the repeat go;
  // the penalty event takes the draw's count and, for its player, its cards ({count}, {cards}).
  tellOnce(events) {
    const penalty = new Set(["caught", "missed_last_card", "penalty_drawn"]);
    const out = events.map((e) => ({ ...e }));
    const drop = new Set();
    out.forEach((e, i) => {
      if (!penalty.has(e.name)) return;
      for (const j of [i + 1, i - 1]) {
        const d = out[j];
        if (d && d.name === "drew" && d.seat === e.seat && !drop.has(j)) {
          drop.add(j);
          e.count = d.count || (d.cards || []).length;
          if ((d.cards || []).length) e.cards = d.cards;
          break;
        }
      }
      let k = i - 1;
      while (k >= 0 && drop.has(k)) k--;
      const prev = out[k];
      if (e.name === "penalty_drawn" && prev && prev.name === "caught" && prev.seat === e.seat) {
        drop.add(i);
        prev.count = e.count || prev.count;
      }
    });
    return out.filter((_, i) => !drop.has(i));
  }

  announce(events, prev) {
    if (!prev) return;
    this.logLines = this.logLines || [];
    for (const e of this.tellOnce(events)) {
      const line = this.describe(e);
      if (!line) continue;
      this.logLines.unshift(line);
      // Penalties show in the middle of the table, where the player looks, as well as in the log.
      const big = { missed_last_card: "missed", joker: "chaos", won: "win", picked_up: "", caught: "missed", last_card: "", round_scored: "win", gift: "", penalty_drawn: (e.data || {}).reason === "no_call" ? "missed" : undefined }[e.name];
      // A burn has its own moment over the pile, which names who burned it and why.
      if (e.name === "burned" || e.name === "overdose") this.showMoment(burnMoment(this, e));
      // The end of a game or round has its own panel, which names the winner and the scores.
      const told = this.view.phase !== "playing" && (e.name === "won" || e.name === "round_scored");
      if (big !== undefined && !told) this.toast(line, big);
      if (e.name === "turn" && e.seat === this.me && this.me >= 0) this.toast(t("Your turn"), "");
    }
    this.logLines = this.logLines.slice(0, 12);
    const log = this.root.querySelector(".log");
    if (log) log.replaceChildren(...this.logLines.map((l) => h("div", {}, l)));
    this.fillLogStrip();
    const sound = this.soundFor(events, prev);
    if (sound) playSound(sound);
  }

  // logStrip is the move log as a phone shows it (css/app.css hides it on wider screens, where
  // the log lies beside the pile): a strip at the top of the centre saying the last move, which
  // opens (and closes) a drawer of the last moves, newest first, over the centre only: the hand
  // and the action bar stay in sight and in reach. The drawer stays open across redraws.
  logStrip() {
    // Made once and moved into each new centre: a tap that spans a redraw still lands on it.
    if (!this.logStripEls) {
      const strip = h("button", { type: "button", class: "log-strip", id: "log-strip", "aria-controls": "log-drawer",
        onclick: () => { this.logOpen = !this.logOpen; this.fillLogStrip(); } },
        h("span", { class: "log-strip-icon", "aria-hidden": "true" }, "\u2630"), h("span", { class: "log-strip-text" }));
      const drawer = h("div", { class: "log-drawer", id: "log-drawer", role: "region", "aria-label": t("Last moves"), hidden: true },
        h("div", { class: "log-drawer-head" }, h("b", {}, t("Last moves")),
          h("button", { type: "button", class: "btn small ghost log-close", onclick: () => { this.logOpen = false; this.fillLogStrip(); strip.focus(); } }, t("Close"))),
        h("ol", { class: "log-lines" }));
      this.logStripEls = [strip, drawer];
    }
    queueMicrotask(() => this.fillLogStrip());
    return this.logStripEls;
  }

  // fillLogStrip writes the last moves into the phone's strip and drawer, and shows the drawer if
  // it is open.
  fillLogStrip() {
    if (!this.logStripEls) return;
    const [strip, drawer] = this.logStripEls;
    const lines = this.logLines || [];
    const open = !!this.logOpen;
    strip.querySelector(".log-strip-text").textContent = lines.length ? lines[0] : t("No moves yet");
    strip.setAttribute("aria-expanded", String(open));
    strip.setAttribute("aria-label", open ? t("Hide the last moves") : t("Show the last moves: {line}", { line: lines[0] || t("No moves yet") }));
    drawer.hidden = !open;
    // Made once: its words follow a change of language here.
    drawer.setAttribute("aria-label", t("Last moves"));
    drawer.querySelector(".log-drawer-head b").textContent = t("Last moves");
    drawer.querySelector(".log-close").textContent = t("Close");
    drawer.querySelector(".log-lines").replaceChildren(...lines.map((l) => h("li", {}, l)));
  }

  // soundFor picks the one sound a new view makes, the most important of what happened: a win, a
  // burn, a penalty for a forgotten LAST CARD, a LAST CARD call or window opening for the viewer,
  // the viewer's turn coming.
  soundFor(events, prev) {
    const v = this.view;
    const me = this.me;
    const has = (name) => events.some((e) => e.name === name);
    if (has("won")) return "win";
    if (has("burned") || has("overdose")) return "burn";
    if (events.some((e) => e.name === "caught" || e.name === "missed_last_card" || (e.name === "penalty_drawn" && (e.data || {}).reason === "no_call"))) return "caught";
    const opened = me >= 0 && (v.deadlines || []).some((d) => d.kind === "last_card" && d.seat === me && !(prev.deadlines || []).some((p) => p.id === d.id));
    if (has("last_card") || opened) return "last_card";
    if (me >= 0 && v.phase === "playing" && v.turn === me && (prev.turn !== me || prev.phase !== "playing")) return "turn";
    return null;
  }

  // showMoment shows a moment of play (a burn) over the table for a few seconds; the table's
  // redraws keep it until then.
  showMoment(el) {
    if (this.view.phase !== "playing") return; // the summary tells the end
    this.moment?.remove();
    this.moment = el;
    this.felt?.append(el);
    clearTimeout(this.momentTimer);
    this.momentTimer = setTimeout(() => { if (this.moment === el) { el.remove(); this.moment = null; } }, 3200);
  }

  toast(text, cls) {
    if (!this.toastLayer) return;
    const t = h("div", { class: `toast ${cls || ""}`, role: "status", "data-toast": cls || "info" }, text);
    this.toastLayer.append(t);
    setTimeout(() => t.remove(), 3200);
  }

  snapshot() {
    const cards = [];
    for (const el of this.root.querySelectorAll(".card")) {
      cards.push({ code: el.dataset.code || "", zone: el.dataset.zone, rect: el.getBoundingClientRect(), used: false });
    }
    const zones = {};
    for (const el of this.root.querySelectorAll("[data-zone].zone")) zones[el.dataset.zone] = el.getBoundingClientRect();
    const seats = {};
    for (const el of this.root.querySelectorAll("[data-seat]")) seats[el.dataset.seat] = el.getBoundingClientRect();
    return { cards, zones, seats };
  }

  // animate moves every card from where it was (or from where the events say it came from) to
  // where it is now, so nothing jumps: FLIP with the CSS translate property, which composes with
  // the cards' own transforms (fan rotation, pile scatter).
  animate(before, events) {
    if (window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches) return;
    const now = [...this.root.querySelectorAll(".card")].map((el) => ({ el, code: el.dataset.code || "", zone: el.dataset.zone, rect: el.getBoundingClientRect() }));
    const from = (src, dst) => {
      const dx = src.left + src.width / 2 - (dst.left + dst.width / 2);
      const dy = src.top + src.height / 2 - (dst.top + dst.height / 2);
      return { dx, dy, s: src.width && dst.width ? src.width / dst.width : 1 };
    };
    const fly = (el, src, dst, delay = 0) => {
      const { dx, dy, s } = from(src, dst);
      if (Math.abs(dx) < 1 && Math.abs(dy) < 1) return;
      el.animate([{ translate: `${dx}px ${dy}px`, scale: String(s) }, { translate: "0 0", scale: "1" }], { duration: 420, delay, easing: "cubic-bezier(.2,.7,.2,1)", fill: "backwards" });
    };
    const zoneOfSeat = (seat, kind = "hand") => before.zones[`${kind}.${seat}`] || before.seats[seat];
    const played = events.filter((e) => ["played", "dumped", "flipped"].includes(e.name));
    const drew = events.filter((e) => ["drew", "penalty_drawn", "picked_up", "gift"].includes(e.name));
    // 1. Same card, same zone: slide from its old place (hand re-fans, pile shifts).
    const pending = [];
    for (const n of now) {
      const m = n.code && before.cards.find((b) => !b.used && b.code === n.code && b.zone === n.zone);
      if (m) { m.used = true; fly(n.el, m.rect, n.rect); } else pending.push(n);
    }
    // 2. Same card seen elsewhere (my hand to the pile, face-up to the pile, pile to my hand).
    let stagger = 0;
    for (const n of pending) {
      const m = n.code && before.cards.find((b) => !b.used && b.code === n.code);
      if (m) { m.used = true; fly(n.el, m.rect, n.rect, stagger); stagger += 60; continue; }
      // 3. A card that came out of hiding: from the player who played it, or from the deck.
      const p = played.find((e) => (e.cards || []).includes(n.code));
      if (p && n.code) { const src = p.name === "flipped" ? (before.zones[`face_down.${p.seat}`] || zoneOfSeat(p.seat)) : zoneOfSeat(p.seat); if (src) { fly(n.el, src, n.rect, stagger); stagger += 60; } continue; }
      const d = drew.find((e) => e.seat >= 0 && n.zone === `hand.${e.seat}`);
      if (d && before.zones.deck && d.name !== "picked_up") { fly(n.el, before.zones.deck, n.rect, stagger); stagger += 60; continue; }
      if (d && d.name === "picked_up" && before.zones.pile) { fly(n.el, before.zones.pile, n.rect, stagger); stagger += 30; continue; }
      const old = before.cards.find((b) => !b.used && !b.code && b.zone === n.zone);
      if (old) { old.used = true; fly(n.el, old.rect, n.rect); continue; }
      const z = before.zones[n.zone];
      if (z) n.el.animate([{ opacity: 0, scale: "0.6" }, { opacity: 1, scale: "1" }], { duration: 300, easing: "ease-out" });
    }
    // 4. Cards that went out of sight fly as ghosts: the pile picked up, burned, a hidden draw.
    const ghost = (src, dst, code, delay) => {
      if (!src || !dst) return;
      const g = cardEl(code, { roles: this.view.roles, back: this.backKind() });
      g.classList.add("flyer");
      Object.assign(g.style, { left: `${src.left}px`, top: `${src.top}px`, width: `${src.width}px` });
      document.body.append(g);
      const dx = dst.left + dst.width / 2 - (src.left + src.width / 2);
      const dy = dst.top + dst.height / 2 - (src.top + src.height / 2);
      g.animate([{ transform: "none", opacity: 1 }, { transform: `translate(${dx}px, ${dy}px) scale(.6)`, opacity: 0.2 }], { duration: 500, delay, easing: "ease-in" }).finished.then(() => g.remove(), () => g.remove());
    };
    const nowZones = {};
    for (const el of this.root.querySelectorAll("[data-zone].zone")) nowZones[el.dataset.zone] = el.getBoundingClientRect();
    for (const e of events) {
      if (e.name === "picked_up") before.cards.filter((b) => !b.used && b.zone === "pile").slice(-5).forEach((b, i) => ghost(b.rect, nowZones[`hand.${e.seat}`], b.code, i * 40));
      if (e.name === "burned" || e.name === "overdose") before.cards.filter((b) => !b.used && b.zone === "pile").slice(-5).forEach((b, i) => ghost(b.rect, nowZones.burned || nowZones.out, b.code, i * 40));
      if ((e.name === "drew" || e.name === "penalty_drawn") && e.seat !== this.me && before.zones.deck) {
        for (let i = 0; i < Math.min(e.count || 1, 5); i++) ghost(before.zones.deck, nowZones[`hand.${e.seat}`] || this.root.querySelector(`[data-seat="${e.seat}"]`)?.getBoundingClientRect(), "", i * 80);
      }
    }
  }
}
