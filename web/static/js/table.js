// The generic table: renders an sdk.View (sdk/view.go) alone, so every variant plugin is playable
// without new client code. Per-variant touches are keyed by the view's Roles (card faces), its
// indicator IDs ("fire") and its deadline kinds ("last_card"), never by code paths per ruleset.
//
//   const t = new Table(element, {send, check, player, onDeal});
//   t.update(view, {now});        // render, animating what moved since the last view
//   t.refused(reason);            // show why the last action was refused
//
// send(action) returns a Promise resolving to {ok, reason} (and, when ok, seen: true if the view
// the action produced has already been given to update, or local: true if none will come);
// check(action) (optional) the same for a dry run. player(seat) returns {name, color, avatar, tags} for a seat's name plate.
// At a round's end the summary (summary.js) offers the host's deal (canDeal, onDeal) and, when
// given, onAsk (a player's request for the next game or round) and onLeave.

import { cardEl, cardName, shortName, symbolSVG, choiceName, parseCard, SUITS, COLORS } from "./cards.js";
import { play as playSound } from "./sound.js";
import { summary, celebration, burnMoment, askNote } from "./summary.js";
import { fitting, needsCardChoice, ownChoices, choiceOptions, choiceTitle, flagArgs, argLabel } from "./moves.js";

const h = (tag, attrs = {}, ...children) => {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") e.className = v;
    else if (k === "dataset") Object.assign(e.dataset, v);
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else if (k === "style") e.style.cssText = v;
    else e.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children.flat()) if (c !== null && c !== undefined && c !== false) e.append(c instanceof Node ? c : String(c));
  return e;
};
export { h };

// playerWords takes the ruling ids out of a ruleset's sentence ("... three or more (H-7)"): they
// are for the people who keep the rules, not for the table.
export function playerWords(text) {
  return String(text ?? "").replace(/\s*\((?:[DHLP]-\d+(?:[,;]\s*|\s+and\s+)?)+\)/g, "");
}

const TAG_LABELS = {
  called: ["Called", "gold"], last_card: ["Last card", "red"], last_card_open: ["Last card!", "red"],
  catchable: ["Forgot to call!", "red"], winner: ["Winner", "gold"], opener: ["Opens", ""], out: ["Out", ""],
  gifting: ["Giving a card", "gold"], face_up: ["Face-up cards", ""], blind: ["Playing blind", "red"],
};

const JOKER_EFFECTS = {
  hand_swap: "Hand swap! Hands trade with the next player",
  everyone_passes: "Everyone passes! Every hand moves one seat along",
  skip: "Skip! The next player loses their turn",
  everybody_pays: "Everybody pays! Every other player draws a card",
  everyone_dumps: "Everyone dumps! Lowest cards onto the pile",
  time_bomb: "Time bomb! Answer with 2, 3, 10 or Joker, or eat the pile",
  gift: "Gift! A card is given away",
};

// DIR_SVG is the direction-of-play ring.
const DIR_SVG = `<svg viewBox="0 0 100 100" aria-hidden="true"><path d="M50 10a40 40 0 0 1 38 28" fill="none" stroke="#fff" stroke-width="7" stroke-linecap="round"/><path d="M94 30 89 48 75 36z" fill="#fff"/><path d="M50 90a40 40 0 0 1-38-28" fill="none" stroke="#fff" stroke-width="7" stroke-linecap="round"/><path d="M6 70l5-18 14 12z" fill="#fff"/></svg>`;

export class Table {
  constructor(root, opts = {}) {
    this.root = root;
    this.opts = opts;
    this.view = null;
    this.sel = []; // [{zone, index, code}]
    this.deadlineSeen = new Map(); // deadline id -> {start, dur}
    this.lastKey = "";
    this.timer = null;
    this.checkSeq = 0;
    this.flags = {}; // argument -> true: the toggles of the arguments an action declares (moves.js)
    root.classList.add("table-wrap");
    root.addEventListener("keydown", (e) => this.onKey(e));
  }

  player(seat) {
    const p = (this.opts.player && this.opts.player(seat)) || {};
    return { name: p.name || `Seat ${seat + 1}`, color: p.color || ["#e0393e", "#2f6fd6", "#2f9e57", "#f4b81c", "#8e44ad", "#e67e22", "#16a085", "#c0392b"][seat % 8], avatar: p.avatar || "", tags: p.tags || [] };
  }

  get me() {
    return this.view && this.view.viewer >= 0 ? this.view.viewer : -1;
  }

  // ---- update -----------------------------------------------------------------------------------

  update(view, info = {}) {
    if (view === this.view) {
      // The same view again (the room changed, not the game): redraw names and tags only.
      this.render();
      return;
    }
    const prev = this.view;
    const before = prev ? this.snapshot() : null;
    this.view = view;
    if (this.awaitingView) this.setBusy(false);
    this.info = info;
    // A selection survives only while the same cards still lie where they were.
    const key = JSON.stringify([view.turn, view.phase, (view.actions || []).map((a) => a.type), this.myZoneCards()]);
    if (key !== this.lastKey) { this.sel = []; this.flags = {}; }
    this.lastKey = key;
    for (const d of view.deadlines || []) {
      if (!this.deadlineSeen.has(d.id)) {
        const dur = info.now !== undefined ? Math.max(0, d.at - info.now) : (this.opts.deadlineMs ? this.opts.deadlineMs(d) : 5000);
        this.deadlineSeen.set(d.id, { start: performance.now(), dur });
      }
    }
    this.render();
    if (before) this.animate(before, view.events || []);
    this.announce(view.events || [], prev);
    this.scheduleTick();
  }

  myZoneCards() {
    return (this.view.zones || []).filter((z) => z.owner === this.me && z.cards).map((z) => z.id + ":" + z.cards.join(","));
  }

  zone(id) {
    return (this.view.zones || []).find((z) => z.id === id);
  }

  // zoneFor finds the viewer's zone an action's From names ("face_up" names "face_up.<seat>").
  zoneFor(from) {
    const zs = this.view.zones || [];
    if (!from) return zs.find((z) => z.kind === "hand" && z.owner === this.me);
    return zs.find((z) => z.id === from) || zs.find((z) => z.id === `${from}.${this.me}`) || zs.find((z) => z.id.startsWith(from) && z.owner === this.me);
  }

  // cardAction is the first open action that takes cards from zone id; cardActions all of them
  // (a variant's Play and a house rule's action may take the same cards: the player picks).
  cardAction(zoneId) {
    return this.cardActions(zoneId)[0];
  }

  cardActions(zoneId) {
    return (this.view.actions || []).filter((a) => a.cards && a.cards.length && this.zoneFor(a.from)?.id === zoneId);
  }

  // fits lists the open actions the cards picked fit (moves.js, fitting).
  fits() {
    return fitting(this.view.actions || [], (a) => this.zoneFor(a.from)?.id, this.sel);
  }

  // ---- render -----------------------------------------------------------------------------------

  render() {
    const v = this.view;
    const felt = h("div", { class: `felt ruleset-${v.ruleset}`, "data-phase": v.phase });
    const seats = (v.players || []).map((p) => p.seat);
    const me = this.me;
    // Opponents, in turn order starting after the viewer.
    const order = me >= 0 ? seats.slice(me + 1).concat(seats.slice(0, me)) : seats;
    // Three or more opponents sit in compact seats, five or more in the smallest, so that the
    // player's dock keeps its place at the bottom (css/app.css, "The table").
    const opp = h("div", { class: "opponents" + (order.length >= 3 ? " compact" : "") + (order.length >= 5 ? " crowded" : "") }, order.map((s) => this.seatPod(s)));
    felt.append(opp);
    const center = this.center();
    // The log lies in the centre row, beside the pile: never over a seat.
    center.append(h("div", { class: "log", "aria-live": "polite" }, ...(this.logLines || []).map((l) => h("div", {}, l))));
    felt.append(center);
    felt.append(this.myArea());
    this.toastLayer = h("div", { class: "toast-layer" });
    felt.append(this.toastLayer);
    // A burn's moment lasts while the game goes on: the end of the game has the summary.
    if (this.moment && v.phase === "playing") felt.append(this.moment);
    const over = this.overPanel();
    if (over) felt.append(...over);
    const focusKey = document.activeElement && this.root.contains(document.activeElement) ? document.activeElement.dataset.focusKey : null;
    this.root.replaceChildren(felt);
    if (focusKey) this.root.querySelector(`[data-focus-key="${focusKey}"]`)?.focus();
    this.felt = felt;
    this.tick();
  }

  playerInfo(seat) {
    return (this.view.players || []).find((p) => p.seat === seat) || { seat, hand_count: 0 };
  }

  nameplate(seat) {
    const p = this.player(seat);
    const av = h("span", { class: "avatar", style: `background:${p.color}` }, p.avatar || p.name.slice(0, 1).toUpperCase());
    return h("div", { class: "who" }, av, h("span", { class: "name" }, p.name));
  }

  chips(seat) {
    const pv = this.playerInfo(seat);
    const out = [];
    out.push(h("span", { class: "chip", title: "cards in hand" }, `${pv.hand_count} card${pv.hand_count === 1 ? "" : "s"}`));
    if (pv.score !== undefined && pv.score !== null) out.push(h("span", { class: "chip green", title: "score" }, `${pv.score} pts`));
    for (const t of pv.tags || []) {
      const [label, cls] = TAG_LABELS[t] || [t.replace(/_/g, " "), ""];
      out.push(h("span", { class: `chip ${cls}`, "data-tag": t }, label));
    }
    for (const t of this.player(seat).tags) out.push(h("span", { class: "chip" }, t));
    for (const d of this.view.deadlines || []) {
      if (d.seat === seat) out.push(h("span", { class: "chip deadline-chip", "data-deadline": d.id }, d.kind === "last_card" ? "LAST CARD " : "", h("span", { class: "countdown" }, "")));
    }
    return out;
  }

  seatPod(seat) {
    const v = this.view;
    const pod = h("div", { class: "seat" + (v.turn === seat ? " turn" : ""), "data-seat": seat, "aria-label": `${this.player(seat).name}${v.turn === seat ? ", in turn" : ""}` });
    pod.append(this.nameplate(seat));
    pod.append(h("div", { class: "meta" }, this.chips(seat)));
    for (const z of (v.zones || []).filter((z) => z.owner === seat && z.kind === "hand")) {
      const mini = h("div", { class: "mini-hand zone", "data-zone": z.id });
      const shown = z.cards ? z.cards : Array(Math.min(z.count, 10)).fill("");
      shown.slice(0, 10).forEach((c) => mini.append(this.card(c, z.id)));
      pod.append(mini);
    }
    const rows = this.rows(seat);
    if (rows) pod.append(rows);
    return pod;
  }

  backKind() {
    const v = this.view;
    if (v.ruleset === "lastcard") return "lastcard";
    for (const z of v.zones || []) for (const c of z.cards || []) return parseCard(c).family === "lastcard" ? "lastcard" : "french";
    return "french";
  }

  card(code, zoneId, index) {
    const c = cardEl(code, { roles: this.view.roles, back: this.backKind() });
    c.dataset.zone = zoneId;
    if (index !== undefined) c.dataset.index = index;
    return c;
  }

  // rows draws a seat's row zones: a visible row lying on a hidden one (DRUGS face-up on
  // face-down) is stacked; other rows stand side by side. Gaps stay gaps.
  rows(seat) {
    const rows = (this.view.zones || []).filter((z) => z.owner === seat && z.kind === "row");
    if (!rows.length) return null;
    const flip = (this.view.actions || []).find((a) => a.type === "flip" && seat === this.me);
    const drawRow = (z) => {
      const r = h("div", { class: "zone-row zone" + (z.hidden ? " down" : " up"), "data-zone": z.id, title: z.label || "" });
      if (z.cards && z.cards.length) z.cards.forEach((c, i) => r.append(this.selectable(this.card(c, z.id, i), z, i)));
      else if (z.slots) {
        z.slots.forEach((full, i) => {
          if (!full) return r.append(h("div", { class: "slot", "aria-label": "empty place" }));
          const c = this.card("", z.id, i);
          if (flip && (!flip.indexes || flip.indexes.includes(i))) this.makeFlip(c, i);
          r.append(c);
        });
      } else for (let i = 0; i < z.count; i++) {
        const c = this.card("", z.id, i);
        if (flip && z.hidden && (!flip.indexes || flip.indexes.includes(i))) this.makeFlip(c, i);
        r.append(c);
      }
      return r;
    };
    const hidden = rows.filter((z) => z.hidden);
    const shown = rows.filter((z) => !z.hidden);
    if (hidden.length === 1 && shown.length === 1) {
      return h("div", { class: "rows stack-rows" }, drawRow(hidden[0]), drawRow(shown[0]));
    }
    return h("div", { class: "rows" }, rows.map(drawRow));
  }

  makeFlip(c, i) {
    c.classList.add("flip-target");
    c.tabIndex = 0;
    c.dataset.focusKey = `flip-${i}`;
    c.setAttribute("role", "button");
    c.setAttribute("aria-label", `flip face-down card ${i + 1}`);
    const go = () => this.act({ type: "flip", index: i });
    c.addEventListener("click", go);
    c.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); go(); } });
  }

  center() {
    const v = this.view;
    const c = h("div", { class: "center" });
    const zs = (v.zones || []).filter((z) => z.owner < 0);
    const acts = v.actions || [];
    for (const z of zs.filter((z) => z.kind === "deck")) {
      const deck = h("div", { class: "deck zone", "data-zone": z.id });
      for (let i = 0; i < Math.min(z.count, 4); i++) {
        const b = this.card("", z.id);
        b.style.transform = `translate(${-i * 1.5}px, ${-i * 1.5}px)`;
        deck.append(b);
      }
      if (!z.count) deck.classList.add("empty");
      deck.append(h("div", { class: "count-badge", title: "cards in the deck" }, String(z.count)));
      const draw = acts.find((a) => a.type === "draw");
      if (draw) {
        deck.classList.add("clickable");
        deck.title = draw.label;
        deck.addEventListener("click", () => this.act({ type: "draw" }));
      }
      c.append(h("div", { class: "deck-zone" }, deck, h("div", { class: "zone-label" }, z.label || "Deck")));
    }
    for (const z of zs.filter((z) => z.kind === "pile")) {
      const pile = h("div", { class: "pile zone", "data-zone": z.id, "aria-label": `${z.label || "pile"}: ${z.count} cards${z.cards && z.cards.length ? ", top " + cardName(z.cards[z.cards.length - 1]) : ""}` });
      const cards = z.cards || [];
      const start = Math.max(0, cards.length - 6);
      cards.slice(start).forEach((code, k) => {
        const i = start + k;
        const e = this.card(code, z.id, i);
        const r = ((i * 47) % 29) - 14; // a settled, repeatable scatter
        e.style.transform = `rotate(${r}deg) translate(${((i * 13) % 11) - 5}px, ${((i * 7) % 9) - 4}px)`;
        pile.append(e);
      });
      if (!cards.length) pile.classList.add("empty");
      const fire = (v.indicators || []).find((i) => i.id === "fire");
      if (fire && fire.value === "fire") pile.classList.add("fire");
      if (fire && fire.value === "red") pile.classList.add("fire-red");
      if (this.moment) pile.classList.add("burning"); // a burn's moment is on: the pile flares
      const pickup = acts.find((a) => a.type === "pickup");
      if (pickup) {
        pile.classList.add("clickable");
        pile.title = pickup.label;
        pile.addEventListener("click", () => this.act({ type: "pickup" }));
      }
      pile.append(h("div", { class: "count-badge" }, String(z.count)));
      c.append(h("div", { class: "pile-zone" }, pile, h("div", { class: "zone-label" }, z.label || "Pile")));
    }
    for (const z of zs.filter((z) => z.kind !== "deck" && z.kind !== "pile")) {
      if (!z.count && z.kind === "burned") continue;
      const box = h("div", { class: `deck zone ${z.kind}`, "data-zone": z.id });
      const shown = z.cards && z.cards.length ? z.cards.slice(-1) : z.count ? [""] : [];
      shown.forEach((code) => box.append(this.card(code, z.id)));
      box.append(h("div", { class: "count-badge" }, String(z.count)));
      c.append(h("div", { class: "burned-zone" }, box, h("div", { class: "zone-label" }, z.label || z.kind)));
    }
    c.append(this.indicators());
    return c;
  }

  indicators() {
    const v = this.view;
    const box = h("div", { class: "indicators" });
    const dir = h("div", { class: "direction" + (v.direction < 0 ? " ccw" : ""), title: v.direction < 0 ? "Play goes counter-clockwise" : "Play goes clockwise", "aria-label": v.direction < 0 ? "counter-clockwise" : "clockwise" });
    dir.innerHTML = DIR_SVG; // a constant, never untrusted text
    box.append(dir);
    const settings = [];
    for (const ind of v.indicators || []) {
      if (ind.id === "direction" || ind.id === "fire" || ind.id === "drawn") continue;
      const label = ind.label || ind.id;
      // An indicator that repeats one of the room's options is a rule of this table, not news:
      // it goes into one quiet line.
      if (this.opts.isSetting && this.opts.isSetting(ind.id)) {
        const value = this.opts.settingValue ? this.opts.settingValue(ind.id, ind.value) : ind.value;
        settings.push(ind.kind === "flag" ? `${label}: ${ind.value === "true" ? "on" : "off"}` : `${label}: ${value}`);
        continue;
      }
      switch (ind.kind) {
        case "suit":
          if (SUITS[ind.value]) box.append(h("div", { class: "ind big", "data-ind": ind.id }, `${label}:`, symbolSVG(ind.value, 24), choiceName(ind.value)));
          break;
        case "color":
          if (COLORS[ind.value]) box.append(h("div", { class: "ind big", "data-ind": ind.id }, `${label}:`, symbolSVG(ind.value, 24), choiceName(ind.value)));
          break;
        case "count":
          if (ind.value !== "0" && ind.value !== "") {
            const alert = /penalty|pick|draw/i.test(ind.id + label);
            box.append(h("div", { class: "ind" + (alert ? " alert" : ""), "data-ind": ind.id }, `${label}: `, h("b", {}, ind.value)));
          }
          break;
        case "flag":
          if (ind.value === "true") box.append(h("div", { class: "ind alert", "data-ind": ind.id }, label));
          break;
        default:
          if (ind.value !== "") box.append(h("div", { class: "ind", "data-ind": ind.id }, `${label}: ${ind.value}`));
      }
    }
    if (settings.length) box.append(h("div", { class: "settings", title: "This table's rules: " + settings.join(" \u00b7 ") }, settings.join(" \u00b7 ")));
    return box;
  }

  myArea() {
    const v = this.view;
    const me = this.me;
    const area = h("div", { class: "my-area" + (me >= 0 && v.turn === me && v.phase === "playing" ? " my-turn" : "") });
    if (me < 0) {
      area.append(h("div", { class: "zone-label" }, "Watching: hands stay hidden"));
      return area;
    }
    const pod = h("div", { class: "seat me" + (v.turn === me ? " turn" : ""), "data-seat": me });
    pod.append(this.nameplate(me), h("div", { class: "meta" }, this.chips(me)));
    area.append(pod);
    const rows = this.rows(me);
    if (rows) area.append(h("div", { class: "my-rows" }, rows));
    area.append(h("div", { class: "check-line", "aria-live": "polite" }));
    const hz = (v.zones || []).find((z) => z.kind === "hand" && z.owner === me);
    if (hz) area.append(this.hand(hz));
    area.append(this.actionBar());
    return area;
  }

  hand(z) {
    const hand = h("div", { class: "hand zone", "data-zone": z.id, role: "group", "aria-label": "your hand" });
    const cards = z.cards || [];
    const legal = new Set(this.cardActions(z.id).flatMap((a) => a.cards));
    const drawn = (this.view.indicators || []).find((i) => i.id === "drawn")?.value;
    if (legal.size) hand.classList.add("has-legal");
    const { perRow, overlap } = this.handLayout(cards.length);
    hand.style.setProperty("--overlap", `${overlap}px`);
    if (cards.length > perRow) hand.classList.add("rows");
    let drawnMarked = false;
    let row = null;
    cards.forEach((code, i) => {
      if (i % perRow === 0) hand.append((row = h("div", { class: "hand-row" })));
      const e = this.selectable(this.card(code, z.id, i), z, i);
      // One row is fanned; several rows lie flat, one over the other.
      const k = cards.length <= perRow ? cards.length : 0;
      const off = k > 1 ? (i - (k - 1) / 2) / ((k - 1) / 2) : 0;
      e.style.setProperty("--rot", `${off * Math.min(10, k * 1.2)}deg`);
      e.style.marginTop = `${Math.abs(off) ** 2 * Math.min(18, k * 2)}px`;
      if (legal.has(code)) e.classList.add("legal");
      if (drawn && code === drawn && !drawnMarked) {
        e.classList.add("just-drawn");
        drawnMarked = true;
      }
      row.append(e);
    });
    return hand;
  }

  // handLayout fits n cards into the dock's width: one fanned row while each card can show at
  // least 42% of its width, else as many rows as that takes (at most four, beyond which the cards
  // close up further). perRow is the cards of a row, overlap the (negative) margin between cards.
  handLayout(n) {
    const cw = parseFloat(getComputedStyle(this.root).getPropertyValue("--card-w")) || 84;
    const pad = this.root.clientWidth < 500 ? 24 : 60;
    const width = Math.max(cw * 2, Math.min(this.root.clientWidth || 900, 1100) - pad - 16);
    const minStep = cw * 0.42;
    const fit = Math.max(1, Math.floor((width - cw) / minStep) + 1);
    const rows = Math.min(4, Math.ceil(n / fit));
    const perRow = Math.max(1, Math.ceil(n / rows));
    const step = perRow > 1 ? Math.min(cw * 0.82, (width - cw) / (perRow - 1)) : cw;
    return { perRow, overlap: perRow > 1 ? step - cw : 0 };
  }

  // selectable makes a visible card of one of the viewer's zones pickable when an action takes cards
  // from that zone.
  selectable(e, z, i) {
    if (z.owner !== this.me || this.me < 0) return e;
    const acts = this.cardActions(z.id);
    if (!acts.length) return e;
    const act = acts[0];
    const code = e.dataset.code;
    e.tabIndex = 0;
    e.dataset.focusKey = `${z.id}-${i}`;
    e.setAttribute("role", "button");
    if (acts.some((a) => a.cards.includes(code))) e.classList.add("legal");
    const k = this.sel.findIndex((s) => s.zone === z.id && s.index === i);
    if (k >= 0) {
      e.classList.add("selected");
      e.setAttribute("aria-pressed", "true");
      if (this.sel.length > 1) e.append(h("span", { class: "order" }, String(k + 1)));
    } else e.setAttribute("aria-pressed", "false");
    const pick = (ev) => {
      ev.preventDefault();
      this.tap(z, i, code, act);
    };
    e.addEventListener("click", pick);
    e.addEventListener("keydown", (ev) => {
      if (ev.key === " ") pick(ev);
      if (ev.key === "Enter") { ev.preventDefault(); if (!this.sel.some((s) => s.zone === z.id && s.index === i)) this.tap(z, i, code, act); this.play(); }
    });
    return e;
  }

  // tap is what a tap (a click, Space) on one of the player's cards does, the same for every card
  // and every hand (a Queen or three of a kind in hand change nothing):
  //   - on a card not picked: picks it, added to the cards picked when the move may take several
  //     cards from that zone (the action is multi), else instead of them;
  //   - on a card already picked: plays the cards picked (the Play button does the same).
  // The Clear button (or Esc) drops the pick. A double tap is two taps: pick, then play.
  tap(z, i, code, act) {
    const k = this.sel.findIndex((s) => s.zone === z.id && s.index === i);
    if (k >= 0) return this.play();
    // Several cards go together when an action that takes the first card picked is multi.
    const multi = this.sel.length && this.sel[0].zone === z.id && this.cardActions(z.id).some((a) => a.multi && a.cards.includes(this.sel[0].code));
    if (multi) {
      this.sel.push({ zone: z.id, index: i, code });
    } else {
      this.sel = [{ zone: z.id, index: i, code }];
    }
    this.render();
    this.runCheck();
  }

  // selectedAction is the action the cards picked make with spec (by default the first open
  // action they fit), before any choice or target is added.
  selectedAction(spec) {
    if (!this.sel.length) return null;
    const act = spec || this.fits()[0] || this.cardAction(this.sel[0].zone);
    if (!act) return null;
    const a = { type: act.type, cards: this.sel.map((s) => s.code) };
    if (act.from) a.from = act.from;
    return { spec: act, action: a };
  }

  runCheck() {
    const line = this.root.querySelector(".check-line");
    const sa = this.selectedAction();
    if (!line) return;
    line.className = "check-line";
    if (!sa) return (line.textContent = "");
    const names = sa.action.cards.map(shortName).join(" ");
    if (!this.opts.check) {
      line.textContent = `Selected: ${names}`;
      return;
    }
    // A choice (suit, colour) is not known yet: check with the first choice, as any will do for legality.
    const probe = { ...sa.action };
    if (needsCardChoice(sa.spec, probe.cards)) this.applyChoice(probe, sa.spec, sa.spec.choices[0]);
    if (ownChoices(sa.spec)) probe.args = { choice: sa.spec.choices[0] };
    if (sa.spec.targets && sa.spec.targets.length) probe.target = sa.spec.targets[0];
    const seq = ++this.checkSeq;
    line.textContent = `Checking ${names}…`;
    this.opts.check(probe).then((res) => {
      if (seq !== this.checkSeq) return;
      const l = this.root.querySelector(".check-line");
      if (!l) return;
      l.className = "check-line " + (res.ok ? "ok" : "bad");
      l.textContent = res.ok ? `\u2713 ${names} can be played` : `\u2717 ${res.reason || "not allowed"}`;
    }).catch(() => {});
  }

  applyChoice(a, spec, choice) {
    const forCard = (spec.choice_for || []).find((c) => a.cards.includes(c));
    if (forCard && parseCard(forCard).family === "lastcard") a.color = choice;
    else a.suit = choice;
  }

  // play sends the cards picked as the action spec (an action button), or as the one open action
  // they fit; when they fit several (a card both the variant's Play and a house rule's action
  // take), the player picks the move first. Then come the suit or colour a card needs, the
  // action's own choice (args.choice), its declared arguments (the toggles) and its target.
  async play(spec) {
    if (!this.sel.length || this.busy || this.picking) return;
    if (!spec) {
      const fits = this.fits();
      if (fits.length > 1) {
        const type = await this.pick(fits.map((a) => ({ value: a.type, label: a.label || a.type })), "Which move?");
        if (type === null) return;
        spec = fits.find((a) => a.type === type);
      }
    }
    const sa = this.selectedAction(spec);
    if (!sa) return;
    const action = sa.action;
    spec = sa.spec;
    if (needsCardChoice(spec, action.cards)) {
      const choice = await this.pick(choiceOptions(spec.choices), "Choose the " + (spec.choices.every((c) => COLORS[c]) ? "colour" : "suit"));
      if (choice === null) return;
      this.applyChoice(action, spec, choice);
    }
    if (!(await this.completeArgs(spec, action))) return;
    if (spec.targets && spec.targets.length) {
      const t = spec.targets.length === 1 && spec.type !== "gift" ? spec.targets[0] : await this.pick(spec.targets.map((s) => ({ value: s, label: this.player(s).name })), `${spec.label}: to whom?`);
      if (t === null) return;
      action.target = t;
    }
    this.act(action);
  }

  // completeArgs adds the arguments spec declares to action: its own choice, picked in a dialog
  // (false when the player cancels), and the toggles that are on.
  async completeArgs(spec, action) {
    const choices = ownChoices(spec);
    if (choices) {
      const choice = await this.pick(choiceOptions(choices), choiceTitle(spec, choices));
      if (choice === null) return false;
      action.args = { ...(action.args || {}), choice };
    }
    for (const k of flagArgs(spec, this.view.actions || [])) if (this.flags[k]) action.args = { ...(action.args || {}), [k]: "true" };
    return true;
  }

  // other sends an action that takes no cards (a button), with its choice and arguments.
  async other(spec, action) {
    if (this.busy || this.picking) return;
    if (!(await this.completeArgs(spec, action))) return;
    this.act(action);
  }

  // pick asks for one of options in a small dialog and resolves to its value, or null.
  pick(options, title) {
    this.picking = true;
    return new Promise((resolve) => {
      const dlg = h("dialog", { class: "picker-dialog", "aria-label": title });
      const done = (v) => { this.picking = false; dlg.close(); dlg.remove(); resolve(v); };
      dlg.append(h("h2", {}, title), h("div", { class: "picker" }, options.map((o) => h("button", { class: "btn", type: "button", "data-choice": o.value, onclick: () => done(o.value) }, o.icon || "", o.label))),
        h("div", { class: "row", style: "justify-content:flex-end;margin-top:1em" }, h("button", { class: "btn ghost small", type: "button", onclick: () => done(null) }, "Cancel")));
      dlg.addEventListener("cancel", (e) => { e.preventDefault(); done(null); });
      document.body.append(dlg);
      dlg.showModal();
      dlg.querySelector("button")?.focus();
    });
  }

  actionBar() {
    const v = this.view;
    const bar = h("div", { class: "actions", role: "toolbar", "aria-label": "actions" });
    this.flagShown = new Set(); // one toggle per argument, however many actions declare it
    const fits = this.fits();
    const cardActs = (v.actions || []).filter((a) => a.cards && a.cards.length);
    for (const a of v.actions || []) {
      if (a.cards && a.cards.length) {
        // One button per action that takes cards, lit when the cards picked fit it: a card two
        // actions take (a house rule's and the variant's Play) lights both.
        const n = this.sel.length;
        const label = n > 1 ? `${a.label} ${n} cards` : a.label;
        // Cards no action takes (unlit) may still be tried with the zone's first action: the
        // server's refusal says why they do not go.
        const tryable = !fits.length && n && this.cardAction(this.sel[0].zone) === a;
        bar.append(h("button", { class: "btn go big", type: "button", "data-action": a.type, "data-focus-key": "act-" + a.type, disabled: !fits.includes(a) && !tryable, onclick: () => this.play(a) }, label));
        for (const k of flagArgs(a, v.actions || [])) bar.append(this.flagToggle(k));
        if (n && a === (fits.length ? cardActs.filter((x) => fits.includes(x)).pop() : this.cardAction(this.sel[0].zone))) bar.append(h("button", { class: "btn ghost", type: "button", "data-action": "clear", "data-focus-key": "act-clear", onclick: () => { this.sel = []; this.render(); } }, "Clear"));
        continue;
      }
      if (a.type === "flip") {
        bar.append(h("span", { class: "zone-label" }, `${a.label}: tap a face-down card`));
        continue;
      }
      if (a.type === "call") {
        const d = (v.deadlines || []).find((d) => d.seat === this.me && d.kind === "last_card");
        bar.append(h("button", { class: "btn lastcard-btn", type: "button", "data-action": "call", "data-focus-key": "act-call", onclick: () => this.act({ type: "call" }) }, a.label, d ? h("span", { class: "countdown", "data-deadline": d.id }, "") : ""));
        continue;
      }
      if (a.targets && a.targets.length) {
        for (const t of a.targets) bar.append(h("button", { class: "btn danger", type: "button", "data-action": a.type, "data-target": t, onclick: () => this.other(a, { type: a.type, target: t }) }, `${a.label}: ${this.player(t).name}`));
        continue;
      }
      for (const k of flagArgs(a, v.actions || [])) bar.append(this.flagToggle(k));
      bar.append(h("button", { class: "btn" + (a.type === "draw" || a.type === "pickup" ? " primary" : ""), type: "button", "data-action": a.type, "data-focus-key": "act-" + a.type, onclick: () => this.other(a, { type: a.type }) }, a.label));
    }
    if ((v.actions || []).length && v.phase === "playing" && v.turn === this.me && this.me >= 0) bar.prepend(h("span", { class: "turn-cue", "data-cue": "turn" }, "Your turn"));
    if (!(v.actions || []).length && v.phase === "playing" && v.turn >= 0) {
      bar.append(h("span", { class: "zone-label" }, v.turn === this.me ? "Your turn" : `Waiting for ${this.player(v.turn).name}…`));
    }
    return bar;
  }

  // flagToggle is the switch of an argument an action declares (sent as "true" when on).
  flagToggle(k) {
    if (this.flagShown?.has(k)) return "";
    (this.flagShown ||= new Set()).add(k);
    return h("button", { class: "btn small toggle", type: "button", "data-arg": k, "aria-pressed": String(!!this.flags[k]), onclick: (e) => { this.flags[k] = !this.flags[k]; e.currentTarget.setAttribute("aria-pressed", String(this.flags[k])); } }, argLabel(k));
  }

  // act sends one action. Until the server has answered it, and after an accepted one until the
  // view it produced arrives, the table sends nothing more: a second click on a table that has
  // not caught up yet would act on cards already played.
  async act(action) {
    if (!this.opts.send || this.busy) return;
    this.setBusy(true);
    let res;
    try {
      res = await this.opts.send(action);
    } catch (err) {
      res = { ok: false, reason: String((err && err.message) || err) };
    }
    if (res && res.ok === false) {
      this.setBusy(false);
      this.refused(res.reason || res.code || "refused");
      return;
    }
    this.sel = [];
    if (res && (res.local || res.seen)) this.setBusy(false);
    else {
      this.awaitingView = true;
      // Should that view never come (a lost connection reconnects with a fresh one), free the table.
      setTimeout(() => { if (this.awaitingView) this.setBusy(false); }, 3000);
    }
  }

  setBusy(on) {
    this.busy = on;
    this.awaitingView = false;
    this.root.classList.toggle("busy", on);
  }

  // refused shows why an action was refused, above the action bar, for a few seconds.
  refused(reason) {
    const area = this.root.querySelector(".actions") || this.root;
    area.querySelector(".refusal")?.remove();
    const r = h("div", { class: "refusal", role: "alert" }, playerWords(reason));
    area.style.position = "relative";
    area.append(r);
    setTimeout(() => r.remove(), 4500);
  }

  onKey(e) {
    if (e.target instanceof HTMLInputElement || e.target instanceof HTMLTextAreaElement) return;
    if (e.key === "Escape" && this.sel.length) { this.sel = []; this.render(); }
    const acts = this.view?.actions || [];
    const shortcut = { d: "draw", k: "pass", u: "pickup", l: "call" }[e.key];
    if (shortcut && acts.some((a) => a.type === shortcut)) { e.preventDefault(); this.act({ type: shortcut }); }
    if (e.key === "p" && this.sel.length) { e.preventDefault(); this.play(); }
  }

  // overPanel is the end of a round or a game: the winner's celebration (a game won) and the
  // summary for everyone at the table (summary.js), or nothing while the round is played.
  overPanel() {
    const v = this.view;
    if (v.phase === "playing") return null;
    this.noteRound(v);
    const out = [];
    if (v.phase === "game_over" && v.winner >= 0) out.push(celebration(this));
    out.push(h("div", { class: "overlay-center" }, summary(this, this.rounds)));
    return out;
  }

  // refreshAsks redraws the summary's line of who asked the host for a rematch, alone: the rest
  // of the table (and the celebration) stays as it is.
  refreshAsks() {
    const n = this.root.querySelector(".rematch-note");
    if (n && this.view && this.view.phase !== "playing") n.replaceWith(askNote(this));
  }

  // noteRound keeps the standings of each round this table has seen end, for the summary's
  // table over rounds (a view carries only the totals). A new game starts a new list.
  noteRound(v) {
    this.rounds = this.rounds || [];
    const round = v.round || 1;
    const totals = {};
    for (const p of v.players || []) if (p.score !== undefined && p.score !== null) totals[p.seat] = p.score;
    let last = this.rounds[this.rounds.length - 1];
    // The same end drawn again (a room update), or a new game (its first round ends).
    if (last && last.round === round && last.winner === v.winner && JSON.stringify(last.totals) === JSON.stringify(totals)) return;
    if (last && round <= last.round) { this.rounds = []; last = null; }
    // What each seat gained this round: known from the round before, or from zero in round 1; a
    // page opened later knows only the totals.
    let gained = null;
    if (last && last.round === round - 1) gained = Object.fromEntries(Object.entries(totals).map(([s, t]) => [s, t - (last.totals[s] ?? 0)]));
    else if (round === 1) gained = { ...totals };
    this.rounds.push({ round, winner: v.winner, totals, gained });
  }

  // ---- deadlines --------------------------------------------------------------------------------

  scheduleTick() {
    clearInterval(this.timer);
    if ((this.view.deadlines || []).length) this.timer = setInterval(() => this.tick(), 100);
  }

  tick() {
    if (!this.view) return;
    for (const d of this.view.deadlines || []) {
      const seen = this.deadlineSeen.get(d.id);
      if (!seen) continue;
      const left = Math.max(0, seen.dur - (performance.now() - seen.start));
      for (const el of this.root.querySelectorAll(`[data-deadline="${CSS.escape(d.id)}"]`)) {
        const cd = el.classList.contains("countdown") ? el : el.querySelector(".countdown");
        if (cd) cd.textContent = `${(left / 1000).toFixed(1)}s`;
      }
    }
  }

  // ---- events, log and animations -----------------------------------------------------------------

  describe(e) {
    const who = e.seat >= 0 ? this.player(e.seat).name : "";
    const cards = (e.cards || []).map(shortName).join(" ");
    const n = e.count || (e.cards || []).length;
    const d = e.data || {};
    switch (e.name) {
      case "played": return `${who} played ${cards}`;
      case "drew": return `${who} drew ${cards || n + (n === 1 ? " card" : " cards")}`;
      case "penalty_drawn": return this.penaltyLine(e, who, n);
      case "picked_up": return `${who} picked up the pile (${n})`;
      case "turn": return null;
      case "skipped": return `${who} is skipped`;
      // Two players: a Hotspot Jack simply passes the turn (H-8); a Last Card Reverse acts as a
      // Skip, so its player goes again (L-6).
      case "reversed": return d.effect === "pass" ? `${who}'s Jack passes the turn` : d.as === "skip" ? `${who} reversed: with two players that skips, ${who} goes again` : "Direction reversed";
      case "suit_chosen": return `${who} chose ${choiceName(d.suit)}`;
      case "color_chosen": return `${who} chose ${choiceName(d.color)}`;
      case "won": return `${who} wins!`;
      case "burned": return `${who} burned the pile!`;
      case "overdose": return `OVERDOSE! ${who} burns the pile`;
      case "flipped": return `${who} flipped ${cards}`;
      case "joker": return `Chaos Joker: ${JOKER_EFFECTS[d.effect] || d.effect}`;
      case "gift": return `${who} gave ${cards || "a card"} to ${this.player(Number(d.to)).name}`;
      case "dumped": return `${who} dumped ${cards}`;
      case "last_card": return `${who}: LAST CARD!`;
      case "missed_last_card": return `${who} forgot to call LAST CARD in time: +${e.penaltyCount || 1} card${(e.penaltyCount || 1) === 1 ? "" : "s"}`;
      case "caught": return `${who} forgot to call LAST CARD: caught out by ${d.by === String(this.me) ? "you" : this.player(Number(d.by)).name}, +${e.penaltyCount || 2} cards`;
      case "round_scored": return `${who} scores ${n} points`;
      case "shuffled": case "reshuffled": return "The pile is shuffled into a new deck";
      case "dealt": return "New deal";
      case "passed": return `${who} ends the turn`;
      case "house_rule_suspended": return `House rule "${d.rule}" is off for the rest of this game (it kept failing)`;
      // Any other event (a house rule's own): its name in words, its cards, and the suits or
      // colours its data names ("Ada wild eight 8♠: Diamonds").
      default: {
        const named = Object.values(d).filter((x) => SUITS[x] || COLORS[x]).map(choiceName).join(", ");
        return `${who} ${e.name.replace(/_/g, " ")}${cards ? " " + cards : ""}${named ? ": " + named : ""}`.trim();
      }
    }
  }

  // penaltyLine says who drew penalty cards and why: the reason a ruleset gives (Last Card:
  // draw_two, draw_four, no_call; Hotspot: a run of 2s), with the cards drawn when they are yours.
  penaltyLine(e, who, n) {
    const reason = (e.data || {}).reason;
    const cards = `${n} card${n === 1 ? "" : "s"}`;
    const seen = (e.drawnCards || []).length ? ` (${e.drawnCards.map(shortName).join(" ")})` : "";
    switch (reason) {
      case "no_call": return `${who} forgot to call LAST CARD: +${cards}${seen}`;
      case "draw_two": return `${who} picked up ${cards} for the Draw Two${seen}`;
      case "draw_four": return `${who} picked up ${cards} for the Draw Four${seen}`;
      case "caught": return `${who} picked up ${cards} for being caught out${seen}`;
    }
    if ((e.data || {}).penalty) return `${who} picked up ${cards} for the 2s${seen}`;
    return `${who} picked up ${cards} as a penalty${seen}`;
  }

  // tellOnce folds what one penalty sends into one line: a ruleset reports the penalty (caught,
  // missed_last_card, penalty_drawn) and the draw that carries it out ("drew", just before or
  // after); Last Card's catch-out also says penalty_drawn after caught. The draw and the repeat go;
  // the penalty line keeps the count and, for its player, the cards.
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
          e.penaltyCount = d.count || (d.cards || []).length;
          e.drawnCards = d.cards || [];
          break;
        }
      }
      let k = i - 1;
      while (k >= 0 && drop.has(k)) k--;
      const prev = out[k];
      if (e.name === "penalty_drawn" && prev && prev.name === "caught" && prev.seat === e.seat) {
        drop.add(i);
        prev.penaltyCount = e.count || prev.penaltyCount;
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
      if (e.name === "turn" && e.seat === this.me && this.me >= 0) this.toast("Your turn", "");
    }
    this.logLines = this.logLines.slice(0, 12);
    const log = this.root.querySelector(".log");
    if (log) log.replaceChildren(...this.logLines.map((l) => h("div", {}, l)));
    const sound = this.soundFor(events, prev);
    if (sound) playSound(sound);
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
