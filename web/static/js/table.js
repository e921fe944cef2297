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

import { cardEl, cardName, symbolSVG, choiceName, parseCard, SUITS, COLORS } from "./cards.js";
import { summary, celebration, askNote } from "./summary.js";
import { h, mixin } from "./dom.js";
import { TableActions } from "./actions.js";
import { TableLog } from "./log.js";
import { TableKeys, rove } from "./keyboard.js";
import { TableSpeech } from "./announce.js";
import { fitting } from "./moves.js";
import { trickArea } from "./trick.js";
import { teamChip, teamPanel } from "./teams.js";
import { sheetButton } from "./sheet.js";
import { meldGroup } from "./melds.js";
import { t, tv, num } from "./i18n.js";

// h is the app's too (app.js).
export { h };

// TAG_LABELS are in English, shown through t().
const TAG_LABELS = {
  called: ["Called", "gold"], last_card: ["Last card", "red"], last_card_open: ["Last card!", "red"],
  catchable: ["Forgot to call!", "red"], winner: ["Winner", "gold"], opener: ["Opens", ""], out: ["Out", ""],
  gifting: ["Giving a card", "gold"], face_up: ["Face-up cards", ""], blind: ["Playing blind", "red"],
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
    this.roveAt = {}; // zone id -> the index of the card the arrow keys were last on
    root.addEventListener("keydown", (e) => this.onKey(e));
    document.addEventListener("keydown", (e) => this.keyHelp(e));
  }

  player(seat) {
    const p = (this.opts.player && this.opts.player(seat)) || {};
    return { name: p.name || t("Seat {n}", { n: seat + 1 }), color: p.color || ["#e0393e", "#2f6fd6", "#2f9e57", "#f4b81c", "#8e44ad", "#e67e22", "#16a085", "#c0392b"][seat % 8], avatar: p.avatar || "", tags: p.tags || [], rating: p.rating };
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
    this.speak(view.events || [], prev);
    this.placeFocus();
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
    // The opponents' row scrolls when their seats or laid-out melds outgrow it: it takes the focus,
    // so a keyboard can scroll it too.
    const opp = h("div", { class: "opponents" + (order.length >= 3 ? " compact" : "") + (order.length >= 5 ? " crowded" : ""), tabindex: "0", role: "group", "aria-label": t("other players") }, order.map((s) => this.seatPod(s)));
    // Headings for a screen reader's jumps (hidden): the other players, the table, the player's own.
    if (order.length) felt.append(h("h2", { class: "sr-only" }, t("Other players")));
    felt.append(opp);
    const center = this.center();
    center.prepend(h("h2", { class: "sr-only" }, t("The table")));
    // The log lies in the centre row, beside the pile: never over a seat. It is not a live region:
    // each move is announced once by the page's one live region (announce.js). On a phone it is a
    // strip with the last move, which opens a drawer of the last moves over the centre (log.js).
    center.append(h("div", { class: "log" }, ...(this.logLines || []).map((l) => h("div", {}, l))), ...this.logStrip());
    felt.append(center);
    felt.append(this.myArea());
    // The toasts show what the live region says: hidden from screen readers, not to say it twice.
    this.toastLayer = h("div", { class: "toast-layer", "aria-hidden": "true" });
    felt.append(this.toastLayer);
    // A burn's moment lasts while the game goes on: the end of the game has the summary.
    if (this.moment && v.phase === "playing") felt.append(this.moment);
    const over = this.overPanel();
    if (over) felt.append(...over);
    const inside = document.activeElement && this.root.contains(document.activeElement);
    const focusKey = inside ? document.activeElement.dataset.focusKey : null;
    this.root.replaceChildren(felt);
    // The focus stays on the same control redrawn; when that control is gone (a Clear pressed, a
    // card played) it goes where the player acts next, never to <body>.
    if (inside) {
      const same = focusKey && this.root.querySelector(`[data-focus-key="${CSS.escape(focusKey)}"]`);
      (same || this.focusTarget())?.focus({ preventScroll: true });
    }
    this.felt = felt;
    this.tick();
  }

  playerInfo(seat) {
    return (this.view.players || []).find((p) => p.seat === seat) || { seat, hand_count: 0 };
  }

  nameplate(seat) {
    const p = this.player(seat);
    const av = h("span", { class: "avatar", style: `background:${p.color}` }, p.avatar || p.name.slice(0, 1).toUpperCase());
    // A rated player's rating in the variant stays beside the name (seatRating, room.js).
    const rating = p.rating !== undefined && p.rating !== null ? h("span", { class: "seat-rating", "data-seat-rating": p.rating, title: t("rating") },
      h("span", { class: "offscreen" }, t("rating") + " "), num(p.rating)) : "";
    return h("div", { class: "who" }, av, h("span", { class: "name" }, p.name), rating);
  }

  chips(seat) {
    const pv = this.playerInfo(seat);
    const out = [];
    out.push(h("span", { class: "chip", title: t("cards in hand") }, t("{count} cards", { count: pv.hand_count })));
    // The bid and the tricks taken come first: on a phone a compact seat shows its first chips.
    if (pv.bid) out.push(h("span", { class: "chip gold", "data-bid": pv.bid, title: t("bid") }, t("Bid {bid}", { bid: tv(String(pv.bid)) })));
    if (pv.tricks !== undefined && pv.tricks !== null) out.push(h("span", { class: "chip", "data-tricks": pv.tricks, title: t("tricks taken") }, t("{count} tricks", { count: pv.tricks })));
    if (pv.score !== undefined && pv.score !== null) out.push(h("span", { class: "chip green", title: t("score") }, t("{count} pts", { count: pv.score })));
    out.push(teamChip(this, seat));
    for (const tag of pv.tags || []) {
      const [label, cls] = TAG_LABELS[tag] || [tag.replace(/_/g, " "), ""];
      out.push(h("span", { class: `chip ${cls}`, "data-tag": tag }, t(label)));
    }
    for (const tag of this.player(seat).tags) out.push(h("span", { class: "chip" }, tag));
    for (const d of this.view.deadlines || []) {
      if (d.seat === seat) out.push(h("span", { class: "chip deadline-chip", "data-deadline": d.id }, d.kind === "last_card" ? t("LAST CARD") + " " : "", h("span", { class: "countdown" }, "")));
    }
    return out;
  }

  seatPod(seat) {
    const v = this.view;
    const name = this.player(seat).name;
    const pod = h("div", { class: "seat" + (v.turn === seat ? " turn" : ""), "data-seat": seat, role: "group", "aria-label": v.turn === seat ? t("{name}, in turn", { name }) : name });
    pod.append(this.nameplate(seat));
    pod.append(h("div", { class: "meta" }, this.chips(seat)));
    for (const z of (v.zones || []).filter((z) => z.owner === seat && z.kind === "hand")) {
      // A hidden hand is one item to a screen reader ("Otto, 5 cards"), not a face-down card per
      // card; a hand shown (at the end) is a group of its cards.
      const mini = z.cards ? h("div", { class: "mini-hand zone", "data-zone": z.id, role: "group", "aria-label": t("{name}'s hand", { name }) })
        : h("div", { class: "mini-hand zone", "data-zone": z.id, role: "img", "aria-label": t("{name}, {count} cards", { name, count: z.count }) });
      const shown = z.cards ? z.cards : Array(Math.min(z.count, 10)).fill("");
      shown.slice(0, 10).forEach((c) => {
        const e = this.card(c, z.id);
        if (!z.cards) e.setAttribute("aria-hidden", "true");
        mini.append(e);
      });
      pod.append(mini);
    }
    const rows = this.rows(seat);
    if (rows) pod.append(rows);
    const melds = meldGroup(this, seat);
    if (melds) pod.append(melds);
    return pod;
  }

  // rulesetInfo is the ruleset's sdk.Info (card_back, event_texts), when the page knows it.
  rulesetInfo() {
    return (this.opts.rulesetInfo && this.opts.rulesetInfo()) || {};
  }

  // backKind is the back of face-down cards: the ruleset's (Info.CardBack), else the back of the
  // family of the cards in sight.
  backKind() {
    const v = this.view;
    const back = this.rulesetInfo().card_back;
    if (back) return back;
    for (const z of v.zones || []) for (const c of z.cards || []) return parseCard(c).family || "french";
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
      const r = h("div", { class: "zone-row zone" + (z.hidden ? " down" : " up"), "data-zone": z.id, title: z.label ? tv(z.label) : "" });
      if (z.cards && z.cards.length) z.cards.forEach((c, i) => r.append(this.selectable(this.card(c, z.id, i), z, i)));
      else if (z.slots) {
        z.slots.forEach((full, i) => {
          if (!full) return r.append(h("div", { class: "slot", "aria-label": t("empty place") }));
          const c = this.card("", z.id, i);
          if (flip && (!flip.indexes || flip.indexes.includes(i))) this.makeFlip(c, i);
          r.append(c);
        });
      } else for (let i = 0; i < z.count; i++) {
        const c = this.card("", z.id, i);
        if (flip && z.hidden && (!flip.indexes || flip.indexes.includes(i))) this.makeFlip(c, i);
        r.append(c);
      }
      // The row's cards the player can act on are one tab stop, the arrows move between them.
      const items = [...r.querySelectorAll(".card[tabindex]")];
      rove(r, items, items.find((e) => e.classList.contains("legal")) || items[0]);
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
    c.setAttribute("aria-label", t("flip face-down card {n}", { n: i + 1 }));
    const go = () => this.act({ type: "flip", index: i });
    c.addEventListener("click", go);
    c.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); go(); } });
  }

  center() {
    const v = this.view;
    const c = h("div", { class: "center" });
    const zs = (v.zones || []).filter((z) => z.owner < 0);
    const acts = v.actions || [];
    c.append(trickArea(this));
    for (const z of zs.filter((z) => z.kind === "deck")) {
      const deck = h("div", { class: "deck zone", "data-zone": z.id, role: "group" });
      for (let i = 0; i < Math.min(z.count, 4); i++) {
        const b = this.card("", z.id);
        b.setAttribute("aria-hidden", "true"); // the deck is one item, named with its count
        b.style.transform = `translate(${-i * 1.5}px, ${-i * 1.5}px)`;
        deck.append(b);
      }
      if (!z.count) deck.classList.add("empty");
      deck.append(h("div", { class: "count-badge", title: t("cards in the deck"), "aria-hidden": "true" }, num(z.count)));
      deck.setAttribute("aria-label", t("{pile}: {count} cards", { pile: tv(z.label || "Deck"), count: z.count }));
      const draw = this.drawFrom(z);
      if (draw) this.clickablePile(deck, tv(draw.label), () => this.act(draw.action));
      c.append(h("div", { class: "deck-zone" }, deck, h("div", { class: "zone-label" }, tv(z.label || "Deck"))));
    }
    for (const z of zs.filter((z) => z.kind === "pile")) {
      const pile = h("div", { class: "pile zone", "data-zone": z.id, role: "group", "aria-label": z.cards && z.cards.length ? t("{pile}: {count} cards, top {card}", { pile: tv(z.label || "pile"), count: z.count, card: cardName(z.cards[z.cards.length - 1]) }) : t("{pile}: {count} cards", { pile: tv(z.label || "pile"), count: z.count }) });
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
      const draw = this.drawFrom(z);
      if (pickup) {
        pile.classList.add("clickable");
        pile.title = tv(pickup.label);
        pile.addEventListener("click", () => this.act({ type: "pickup" }));
      } else if (draw) this.clickablePile(pile, tv(draw.label), () => this.act(draw.action));
      pile.append(h("div", { class: "count-badge", "aria-hidden": "true" }, num(z.count)));
      c.append(h("div", { class: "pile-zone" }, pile, h("div", { class: "zone-label" }, tv(z.label || "Pile"))));
    }
    for (const z of zs.filter((z) => z.kind !== "deck" && z.kind !== "pile")) {
      if (!z.count && z.kind === "burned") continue;
      const box = h("div", { class: `deck zone ${z.kind}`, "data-zone": z.id });
      const shown = z.cards && z.cards.length ? z.cards.slice(-1) : z.count ? [""] : [];
      shown.forEach((code) => box.append(this.card(code, z.id)));
      box.append(h("div", { class: "count-badge" }, num(z.count)));
      c.append(h("div", { class: "burned-zone" }, box, h("div", { class: "zone-label" }, tv(z.label || z.kind))));
    }
    c.append(this.indicators());
    return c;
  }

  // drawFrom is the open draw that takes from zone z, as {label, action} (the action a tap on z
  // sends): a draw naming it (From "stock", "discard"); a draw whose own choice names it (Gin
  // Rummy's one draw, choices "stock" and "discard": sent as args.choice); or, for the deck, a
  // draw naming no pile and asking no choice.
  drawFrom(z) {
    const draws = (this.view.actions || []).filter((a) => a.type === "draw");
    const names = (p) => p === z.id || (p === "stock" && z.kind === "deck") || (p === "discard" && z.kind === "pile");
    const named = draws.find((a) => a.from && names(a.from));
    if (named) return { label: named.label, action: { type: "draw", from: named.from } };
    for (const a of draws) {
      const i = (a.choice_for || []).length ? -1 : (a.choices || []).findIndex(names);
      if (i >= 0) return { label: (a.choice_labels || [])[i] || a.label, action: { type: "draw", args: { choice: a.choices[i] } } };
    }
    const bare = z.kind === "deck" ? draws.find((a) => !a.from && !(a.choices || []).length) : undefined;
    return bare ? { label: bare.label, action: { type: "draw" } } : undefined;
  }

  // clickablePile makes a deck or pile a button that does go (a draw from it).
  clickablePile(el, label, go) {
    el.classList.add("clickable");
    el.title = label;
    el.setAttribute("role", "button");
    const was = el.getAttribute("aria-label");
    el.setAttribute("aria-label", was ? t("{action} ({what})", { action: label, what: was }) : label);
    el.tabIndex = 0;
    el.dataset.focusKey = `pile-${el.dataset.zone}`;
    el.addEventListener("click", go);
    el.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); go(); } });
  }

  indicators() {
    const v = this.view;
    const box = h("div", { class: "indicators" });
    const dir = h("div", { class: "direction" + (v.direction < 0 ? " ccw" : ""), title: v.direction < 0 ? t("Play goes counter-clockwise") : t("Play goes clockwise"), role: "img", "aria-label": v.direction < 0 ? t("counter-clockwise") : t("clockwise") });
    dir.innerHTML = DIR_SVG; // a constant, never untrusted text
    box.append(dir);
    const settings = [];
    for (const ind of v.indicators || []) {
      if (ind.id === "direction" || ind.id === "fire" || ind.id === "drawn") continue;
      const label = tv(ind.label || ind.id);
      // An indicator that repeats one of the room's options is a rule of this table, not news:
      // it goes into one quiet line.
      if (this.opts.isSetting && this.opts.isSetting(ind.id)) {
        const value = this.opts.settingValue ? this.opts.settingValue(ind.id, ind.value) : ind.value;
        settings.push(t("{label}: {value}", { label, value: ind.kind === "flag" ? (ind.value === "true" ? t("on") : t("off")) : value }));
        continue;
      }
      switch (ind.kind) {
        case "suit":
          if (SUITS[ind.value]) box.append(h("div", { class: "ind big", "data-ind": ind.id }, t("{label}:", { label }), symbolSVG(ind.value, 24), choiceName(ind.value)));
          break;
        case "color":
          if (COLORS[ind.value]) box.append(h("div", { class: "ind big", "data-ind": ind.id }, t("{label}:", { label }), symbolSVG(ind.value, 24), choiceName(ind.value)));
          break;
        case "count":
          if (ind.value !== "0" && ind.value !== "") {
            const alert = /penalty|pick|draw/i.test(ind.id + label);
            box.append(h("div", { class: "ind" + (alert ? " alert" : ""), "data-ind": ind.id }, t("{label}:", { label }), " ", h("b", {}, /^-?\d+$/.test(ind.value) ? num(Number(ind.value)) : tv(ind.value))));
          }
          break;
        case "flag":
          if (ind.value === "true") box.append(h("div", { class: "ind alert", "data-ind": ind.id }, label));
          break;
        default:
          if (ind.value !== "") box.append(h("div", { class: "ind", "data-ind": ind.id }, t("{label}: {value}", { label, value: tv(ind.value) })));
      }
    }
    const panel = teamPanel(this);
    if (panel) box.append(panel);
    const sheet = sheetButton(this);
    if (sheet) box.append(sheet);
    box.append(this.keysButton());
    if (settings.length) box.append(h("div", { class: "settings", title: t("This table's rules: {rules}", { rules: settings.join(" \u00b7 ") }) }, settings.join(" \u00b7 ")));
    return box;
  }

  myArea() {
    const v = this.view;
    const me = this.me;
    const area = h("div", { class: "my-area" + (me >= 0 && v.turn === me && v.phase === "playing" ? " my-turn" : "") });
    if (me < 0) {
      area.append(h("div", { class: "zone-label" }, t("Watching: hands stay hidden")));
      return area;
    }
    area.append(h("h2", { class: "sr-only" }, v.turn === me && v.phase === "playing" ? t("Your hand: your turn") : t("Your hand")));
    const pod = h("div", { class: "seat me" + (v.turn === me ? " turn" : ""), "data-seat": me });
    pod.append(this.nameplate(me), h("div", { class: "meta" }, this.chips(me)));
    area.append(pod);
    const rows = this.rows(me);
    if (rows) area.append(h("div", { class: "my-rows" }, rows));
    const melds = meldGroup(this, me);
    if (melds) area.append(h("div", { class: "my-melds" }, melds));
    area.append(h("div", { class: "check-line", "aria-live": "polite" }));
    const hz = (v.zones || []).find((z) => z.kind === "hand" && z.owner === me);
    if (hz) area.append(this.hand(hz));
    area.append(this.actionBar());
    return area;
  }

  hand(z) {
    const hand = h("div", { class: "hand zone", "data-zone": z.id, role: "group", "aria-label": t("your hand") });
    const cards = z.cards || [];
    const legal = new Set(this.cardActions(z.id).flatMap((a) => a.cards));
    const drawn = (this.view.indicators || []).find((i) => i.id === "drawn")?.value;
    if (legal.size) hand.classList.add("has-legal");
    const { perRow, overlap } = this.handLayout(cards.length);
    hand.style.setProperty("--overlap", `${overlap}px`);
    if (cards.length > perRow) hand.classList.add("rows");
    let drawnMarked = false;
    const seen = {};
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
        e.dataset.new = t("NEW"); // the badge's word (css: content: attr(data-new))
        drawnMarked = true;
      }
      // Every card of the hand can be read; the playable ones say so (aria-disabled on the others).
      e.setAttribute("role", "button");
      e.setAttribute("aria-disabled", String(!legal.has(code)));
      // The focus stays on the same card (not the same place) when the hand is redrawn: a card
      // played takes the focus with it, and it goes where the player acts next.
      seen[code] = (seen[code] || 0) + 1;
      e.dataset.focusKey = `${z.id}-${code}-${seen[code]}`;
      row.append(e);
    });
    // The hand is one tab stop: the card the arrows were last on if it is playable (or nothing
    // is), else the first playable card. The arrows move between all the cards, to read them.
    const items = [...hand.querySelectorAll(".card")];
    const at = items[this.roveAt[z.id]];
    const first = items.find((e) => e.classList.contains("legal"));
    rove(hand, items, at && (at.classList.contains("legal") || !first) ? at : first || items[0], (e) => { this.roveAt[z.id] = Number(e.dataset.index); });
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
        if (cd) cd.textContent = t("{seconds}s", { seconds: num(left / 1000, { minimumFractionDigits: 1, maximumFractionDigits: 1 }) });
      }
    }
  }

}

// The table's methods by subject: actions.js (picking cards, the action bar, sending), log.js (the
// move log, toasts, sounds and card flights).
mixin(Table, TableActions);
mixin(Table, TableLog);
mixin(Table, TableKeys);
mixin(Table, TableSpeech);
