// What the generic table needs to offer every action a view lists (sdk.ActionSpec), house rules'
// actions included: which open actions a pick of cards fits (a card the variant's Play and a
// rule's action both take fits two: the player picks the move), the choices an action asks for
// and how to show them, and the other arguments an action declares.
//
// A spec's Choices with ChoiceFor name the suit or colour a card needs (the action's suit or color
// field: a Hotspot Ace, a Last Card Joker); Choices without ChoiceFor are the action's own choice,
// sent as args.choice (a house rule's action: "wild_eight needs a choice among S, H, D, C").

import { choiceName, symbolSVG, SUITS, COLORS } from "./cards.js";
import { t, tv } from "./i18n.js";

// fitting lists the actions of specs that take the picked cards sel ([{zone, code}], all of one
// zone) from that zone (zoneOf(spec) is the zone a spec takes cards from): each lists the first
// card picked, and takes several only when it is multi.
// An action of exactly N cards (count) takes several, up to N.
export function fitting(specs, zoneOf, sel) {
  if (!sel.length) return [];
  return specs.filter((a) => a.cards && a.cards.length && zoneOf(a) === sel[0].zone && a.cards.includes(sel[0].code) &&
    (a.count > 0 ? sel.length <= a.count : sel.length === 1 || a.multi));
}

// needsCardChoice says whether the action, with these cards, needs a suit or colour named (the
// variant's ChoiceFor cards).
export function needsCardChoice(spec, cards) {
  return !!(spec.choices && spec.choices.length && (spec.choice_for || []).some((c) => cards.includes(c)));
}

// ownChoices are the choices the action itself asks for (args.choice), or null.
export function ownChoices(spec) {
  return spec.choices && spec.choices.length && !(spec.choice_for || []).length ? spec.choices : null;
}

// choiceOptions are choices as picker buttons: with labels (ActionSpec.choice_labels, a bid's
// "Nil", "Blind nil"), each its label; else a suit or a colour with its symbol and name, any
// other word as it is (underscores as spaces).
export function choiceOptions(choices, labels) {
  return choices.map((c, i) => {
    if (labels && labels[i]) return { value: c, label: tv(labels[i]) };
    return SUITS[c] || COLORS[c] ? { value: c, label: choiceName(c), icon: symbolSVG(c, 30) } : { value: c, label: tv(String(c).replace(/_/g, " ")) };
  });
}

// choiceTitle is the picker's question for choices under an action's label.
export function choiceTitle(spec, choices) {
  const action = tv(spec.label || spec.type);
  if (choices.every((c) => SUITS[c])) return t("{action}: choose the suit", { action });
  if (choices.every((c) => COLORS[c])) return t("{action}: choose the colour", { action });
  return t("{action}: choose", { action });
}

// humanise says a declared key in words, for one declared without a label: "double_up" reads
// "Double up".
export function humanise(key) {
  const s = String(key).replace(/_/g, " ").trim();
  return s.charAt(0).toUpperCase() + s.slice(1);
}

// ARG_LABELS are the words of the arguments the built-in rulesets declare.
const ARG_LABELS = { call: "Call \u201cLast card!\u201d" };

// argLabel is the toggle's label for an argument an action declares: the ruleset's words for it,
// or its key in words (an ActionSpec names its arguments by key only).
export function argLabel(key) {
  return t(ARG_LABELS[key] || humanise(key));
}

// flagArgs lists the arguments of spec (ActionSpec.Args) the table offers as toggles sent as
// "true": every one but "choice" (picked from Choices) and those that repeat an action the view
// offers on its own (Last Card's "call" beside its "Last card!" button).
export function flagArgs(spec, specs) {
  return (spec.args || []).filter((k) => k !== "choice" && !specs.some((a) => a.type === k));
}
