// The trick in the centre of the table (sdk.View's trick and last_trick): each card lies toward
// the seat that played it, the seats laid out around the table as the table draws them (the
// viewer at the bottom, the others clockwise in turn order: left, top, right for four), the
// leader's card marked; a control shows the last trick taken, with its winner, while the next
// is played.
//
//   trickArea(table)   the trick's box, or "" when the view has no trick and no last trick

import { h } from "./dom.js";
import { cardName } from "./cards.js";
import { t, num } from "./i18n.js";

// seatAngle is where seat sits around the table, in degrees (0 right, 90 bottom: screen axes),
// as seen by the viewer (a spectator sees seat 0 at the bottom).
export function seatAngle(seats, seat, me) {
  const n = seats.length || 1;
  const base = me >= 0 ? seats.indexOf(me) : 0;
  const r = (seats.indexOf(seat) - base + n) % n;
  return 90 + (r * 360) / n;
}

export function trickArea(tb) {
  const v = tb.view;
  if (!v.trick && !v.last_trick) return "";
  const showLast = !!v.last_trick && (tb.showLastTrick || !v.trick);
  const trick = showLast ? v.last_trick : v.trick;
  const seats = (v.players || []).map((p) => p.seat);
  const box = h("div", { class: "trick zone" + (showLast ? " last" : ""), "data-zone": showLast ? "last_trick" : "trick", role: "group",
    "aria-label": showLast ? t("last trick") : t("trick") });
  const plays = trick.plays || [];
  plays.forEach((p, i) => {
    const a = (seatAngle(seats, p.seat, tb.me) * Math.PI) / 180;
    const c = tb.card(p.card, showLast ? "last_trick" : "trick", i);
    c.dataset.trickSeat = p.seat;
    c.style.setProperty("--tx", `${Math.round(Math.cos(a) * 100) / 100}`);
    c.style.setProperty("--ty", `${Math.round(Math.sin(a) * 100) / 100}`);
    c.style.zIndex = String(i + 1);
    const led = p.seat === trick.leader;
    if (led) c.classList.add("led");
    c.setAttribute("aria-label", t(led ? "{name} led: {card}" : "{name}: {card}", { name: tb.player(p.seat).name, card: cardName(p.card) }));
    box.append(c);
  });
  if (!plays.length) box.append(h("span", { class: "trick-empty help" }, t("{name} leads", { name: tb.player(trick.leader).name })));
  const taken = trick.winner !== undefined && trick.winner !== null;
  const caption = showLast
    ? t("Last trick: taken by {name}", { name: tb.player(trick.winner ?? trick.leader).name })
    : taken ? t("Taken by {name}", { name: tb.player(trick.winner).name }) : t("{name} led", { name: tb.player(trick.leader).name });
  const wrap = h("div", { class: "trick-zone" }, box, h("div", { class: "zone-label", "data-trick-caption": "" }, caption));
  if (v.last_trick && v.trick) {
    wrap.append(h("button", { class: "btn small ghost", type: "button", "data-action": "last-trick", "data-focus-key": "last-trick",
      "aria-pressed": String(showLast), onclick: () => { tb.showLastTrick = !tb.showLastTrick; tb.render(); } }, showLast ? t("Back to this trick") : t("Last trick")));
  }
  return wrap;
}
