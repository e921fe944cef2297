// Keyboard play (a mixin of Table, table.js, and helpers for its groups): one tab stop per group
// (the hand, a row, the action bar, a choice) with the arrow keys moving inside it (a roving
// tabindex), where the focus goes after every move, and the help dialog of the keys (`?`).

import { h } from "./dom.js";
import { t } from "./i18n.js";

// ARROWS are the keys that move within a group: +1 is the next item, -1 the one before.
const ARROWS = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 };

// rove makes the items of group one tab stop: current (or the first item) takes the tab, the
// others are focusable by script and by the arrow keys only. Home and End go to the ends; in a
// right-to-left page the left arrow goes forward. onMove(item) hears where the arrows went.
export function rove(group, items, current, onMove) {
  if (!items.length) return;
  const stop = items.includes(current) ? current : items[0];
  for (const el of items) el.tabIndex = el === stop ? 0 : -1;
  group.addEventListener("keydown", (e) => {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const i = items.indexOf(e.target);
    if (i < 0) return;
    let step = ARROWS[e.key];
    let j;
    if (step) {
      if ((e.key === "ArrowLeft" || e.key === "ArrowRight") && getComputedStyle(group).direction === "rtl") step = -step;
      j = Math.min(items.length - 1, Math.max(0, i + step));
    } else if (e.key === "Home") j = 0;
    else if (e.key === "End") j = items.length - 1;
    else return;
    e.preventDefault();
    e.stopPropagation();
    for (const el of items) el.tabIndex = -1;
    items[j].tabIndex = 0;
    items[j].focus();
    if (onMove) onMove(items[j]);
  });
}

// keys are the shortcuts the help dialog lists, each [keys, what they do]. The letters are the
// keys themselves, in every language.
const keys = () => [
  [t("Tab / Shift+Tab"), t("Move between the hand, the actions and the other parts of the table")],
  ["\u2190 \u2192 \u2191 \u2193", t("Move between the cards of the hand, or between the choices")],
  [t("Home / End"), t("First or last card")],
  [t("Enter"), t("Play the card (or press the button)")],
  [t("Space"), t("Pick the card: pick several to play them together")],
  ["P", t("Play the cards picked")],
  ["D", t("Draw a card")],
  ["U", t("Pick up the pile")],
  ["K", t("Pass")],
  ["L", t("Call LAST CARD")],
  [t("Esc"), t("Drop the cards picked, or close a dialog")],
  ["?", t("This list of keys")],
];

export class TableKeys {
  // keysButton is the visible button of the help dialog (the `?` key opens it too).
  keysButton() {
    return h("button", { class: "btn small ghost keys-btn", type: "button", "data-action": "keys", "aria-keyshortcuts": "?", title: t("Keyboard shortcuts"), onclick: () => this.showKeys() }, t("Keys (?)"));
  }

  // showKeys opens the help dialog of the keys; closing it (Esc, its button) gives the focus
  // back where it was, or, when the table was redrawn meanwhile, to where the player acts next.
  showKeys() {
    if (document.querySelector("dialog.keys-dialog[open]")) return;
    const was = document.activeElement;
    const key = was?.dataset?.focusKey;
    const title = h("h2", { id: "keys-title" }, t("Keyboard shortcuts"));
    const list = h("dl", { class: "keys-list" }, keys().flatMap(([k, what]) => [h("dt", {}, h("kbd", {}, k)), h("dd", {}, what)]));
    const dlg = h("dialog", { class: "keys-dialog", "aria-labelledby": "keys-title" }, title, list,
      h("div", { class: "row dialog-foot" }, h("button", { class: "btn", type: "button", "data-action": "close-keys", onclick: () => dlg.close() }, t("Close"))));
    dlg.addEventListener("close", () => {
      dlg.remove();
      if (was && was.isConnected) return was.focus();
      const same = key && this.root.querySelector(`[data-focus-key="${CSS.escape(key)}"]`);
      (same || this.focusTarget())?.focus({ preventScroll: true });
    });
    document.body.append(dlg);
    dlg.showModal();
    dlg.querySelector("[data-action=close-keys]").focus();
  }

  // focusSituation is what decides where the focus belongs: when it changes (the turn comes, a
  // LAST CARD window opens, the actions change, the round ends) the focus moves there.
  focusSituation() {
    const v = this.view;
    const me = this.me;
    return JSON.stringify([v.phase, v.turn === me, (v.actions || []).map((a) => a.type + (a.from || "")), (v.deadlines || []).filter((d) => d.seat === me).map((d) => d.id)]);
  }

  // focusTarget is where the player acts next: the summary's first button at a round's end; the
  // LAST CARD call; the first playable card (or the one the arrows were on, if still playable);
  // a face-down card to flip; the first action button; else the hand (readable, not playable),
  // the player's rows, or the other players.
  focusTarget() {
    const r = this.root;
    const q = (s) => r.querySelector(s);
    if (this.view?.phase !== "playing") return q(".overlay-center button:not([disabled])") || q(".overlay-center [tabindex]");
    return q(".actions [data-action=call]") || q(".my-area .card.legal[tabindex='0']") || q(".my-area .card.legal") || q(".my-area .flip-target") ||
      q(".actions button.go:not([disabled])") || q(".actions button:not([disabled]):not(.toggle)") || q(".center .clickable") ||
      q(".my-area .hand .card[tabindex='0']") || q(".my-area .card[tabindex]") || q(".opponents");
  }

  // placeFocus puts the focus where the player acts next after a new view, when the situation
  // changed or the focus was lost (on <body>, or its element redrawn away). A focus outside the
  // table (the chat, the room panel) or in a dialog stays where it is.
  placeFocus() {
    const sit = this.focusSituation();
    const changed = sit !== this.focusSit;
    this.focusSit = sit;
    if (document.querySelector("dialog[open]") || this.root.querySelector("#cover")) return;
    const a = document.activeElement;
    const lost = !a || a === document.body || !a.isConnected;
    if (!lost && !this.root.contains(a)) return;
    if (!changed && !lost) return;
    this.focusTarget()?.focus({ preventScroll: true });
  }

  // afterPick moves the focus to the action that follows a pick when the pick is whole: one card
  // of an action that takes one, or N of an action of exactly N. A pick that may grow (several
  // cards of a rank) keeps the focus in the hand.
  afterPick(zoneId) {
    if (!this.sel.length || document.querySelector("dialog[open]")) return;
    const counted = this.countAction(zoneId);
    if (counted && this.sel.length < counted.count) return;
    if (!counted && this.fits().some((a) => a.multi)) return;
    const go = this.root.querySelector(".actions button.go:not([disabled])");
    if (go) go.focus({ preventScroll: true });
  }

  // keyHelp opens the help dialog on `?` anywhere on the page but in a text field.
  keyHelp(e) {
    if (e.key !== "?" || e.ctrlKey || e.metaKey || e.altKey) return;
    if (!this.view || !this.root.isConnected) return;
    const tgt = e.target;
    if (tgt instanceof HTMLInputElement || tgt instanceof HTMLTextAreaElement || tgt instanceof HTMLSelectElement || tgt?.isContentEditable) return;
    if (document.querySelector("dialog[open]")) return;
    e.preventDefault();
    this.showKeys();
  }
}
