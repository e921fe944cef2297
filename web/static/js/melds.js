// Melds (zones of kind "meld", "deadwood" and "passing"): a seat's laid-out melds as sets and
// runs, its deadwood apart, and the cards it has chosen to pass. The viewer's cards there are
// pickable when an open action takes cards from that zone (a layoff from the deadwood). A meld an
// open action may target (ActionSpec.zones: a layoff) is a button once cards are picked: tapping
// it sends the action with the cards picked, target = the meld's owner and index = its meld number.
//
//   meldGroup(table, seat)   the seat's melds, deadwood and passing cards, or null
//   meldName(zone)           "Set 2", "Run 1": a meld as the table names it
//   zoneTarget(zone)         {target, index} an action carries for a zone it targets

import { h } from "./dom.js";
import { cardName, parseCard } from "./cards.js";
import { t, tv, num } from "./i18n.js";

const KINDS = ["meld", "deadwood", "passing"];

export function zoneTarget(zone) {
  return { target: zone.owner, index: zone.meld ?? 0 };
}

// meldName names a meld as players do, by what its cards make and its number: "Set 2" (one
// rank) or "Run 1".
export function meldName(z) {
  const ranks = new Set((z.cards || []).map((c) => parseCard(c).rank));
  return t(ranks.size === 1 ? "Set {n}" : "Run {n}", { n: (z.meld ?? 0) + 1 });
}

export function meldGroup(tb, seat) {
  const v = tb.view;
  const zs = (v.zones || []).filter((z) => z.owner === seat && KINDS.includes(z.kind));
  if (!zs.length) return null;
  const box = h("div", { class: "melds", "data-melds": seat, role: "group", "aria-label": t("{name}: laid out", { name: tb.player(seat).name }) });
  const melds = zs.filter((z) => z.kind === "meld").sort((a, b) => (a.meld ?? 0) - (b.meld ?? 0));
  if (melds.length) box.append(h("div", { class: "meld-list" }, melds.map((z) => meldZone(tb, z))));
  for (const z of zs.filter((z) => z.kind !== "meld")) {
    const label = tv(z.label || (z.kind === "deadwood" ? "Deadwood" : "Passing"));
    const row = h("div", { class: `meld-zone ${z.kind} zone`, "data-zone": z.id, role: "group", "aria-label": `${label}, ${t("{count} cards", { count: z.count })}` });
    const cards = z.cards && z.cards.length ? z.cards : Array(Math.min(z.count, 13)).fill("");
    // The viewer's own deadwood is where a layoff takes its cards from (ActionSpec.from): pickable.
    cards.forEach((c, i) => row.append(c ? tb.selectable(tb.card(c, z.id, i), z, i) : tb.card(c, z.id, i)));
    box.append(h("div", { class: `meld-part ${z.kind}-part` }, h("span", { class: "zone-label" }, label), row));
  }
  return box;
}

function meldZone(tb, z) {
  const name = meldName(z);
  const specs = (tb.view.actions || []).filter((a) => (a.zones || []).includes(z.id));
  const spec = tb.sel.length ? specs.find((a) => !a.cards || !a.cards.length || a.cards.includes(tb.sel[0].code)) : null;
  const cards = (z.cards || []).map((c, i) => tb.card(c, z.id, i));
  if (!spec) {
    return h("div", { class: "meld-zone meld zone" + (specs.length ? " targetable" : ""), "data-zone": z.id, "data-meld": z.meld ?? 0, role: "group",
      "aria-label": `${name}: ${(z.cards || []).map(cardName).join(", ")}` }, cards, h("span", { class: "meld-name" }, name));
  }
  const go = (e) => { e.preventDefault(); tb.act({ type: spec.type, cards: tb.sel.map((s) => s.code), ...zoneTarget(z) }); };
  // A div as a button: a button may hold no cards (block content).
  return h("div", { class: "meld-zone meld zone target", role: "button", tabindex: 0, "data-zone": z.id, "data-meld": z.meld ?? 0, "data-focus-key": `meld-${z.id}`,
    "aria-label": t("{action} onto {name}'s {meld}: {cards}", { action: tv(spec.label), name: tb.player(z.owner).name, meld: name, cards: (z.cards || []).map(cardName).join(", ") }), onclick: go,
    onkeydown: (e) => { if (e.key === "Enter" || e.key === " ") go(e); } }, cards, h("span", { class: "meld-name", "aria-hidden": "true" }, name));
}
