// The table's actions (a mixin of Table, table.js): picking cards and what a tap on one does,
// the action bar, the choices and targets an action asks for, sending an action and showing why
// one was refused.

import { h } from "./dom.js";
import { t, tv, num } from "./i18n.js";
import { cardsWords, COLORS } from "./cards.js";
import { zoneTarget, meldName } from "./melds.js";
import { rove } from "./keyboard.js";
import { needsCardChoice, ownChoices, choiceOptions, choiceTitle, flagArgs, argLabel } from "./moves.js";

// DONE is what the check line says the cards picked can be, by the move they make: "can be played"
// for any move not named here (each a whole sentence, for the translations).
const DONE = { discard: "\u2713 {cards} can be discarded", layoff: "\u2713 {cards} can be laid off", knock: "\u2713 {cards} can be knocked with", pass_cards: "\u2713 {cards} can be passed", gift: "\u2713 {cards} can be given" };

export class TableActions {
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
      // Picked by the keyboard: the focus goes on to the action that follows, once the pick is whole.
      if (ev.type === "keydown") this.afterPick(z.id);
    };
    e.addEventListener("click", pick);
    e.addEventListener("keydown", (ev) => {
      if (ev.key === " ") pick(ev);
      if (ev.key === "Enter") {
        ev.preventDefault();
        // Choosing exactly N cards: Enter chooses or unchooses, as a tap does; the button sends.
        if (this.countAction(z.id)) return this.tap(z, i, code, act);
        if (!this.sel.some((s) => s.zone === z.id && s.index === i)) this.tap(z, i, code, act);
        this.play();
      }
    });
    return e;
  }

  // tap is what a tap (a click, Space) on one of the player's cards does, the same for every card
  // and every hand (a Queen or three of a kind in hand change nothing):
  //   - on a card not picked: picks it, added to the cards picked when the move may take several
  //     cards from that zone (the action is multi), else instead of them;
  //   - on a card already picked: plays the cards picked (the Play button does the same).
  // The Clear button (or Esc) drops the pick. A double tap is two taps: pick, then play.
  //
  // An action of exactly N cards (ActionSpec.count, Hearts' pass) goes otherwise: a tap chooses a
  // card, up to N, and a tap on a chosen card unchooses it; only the action's button sends them.
  tap(z, i, code, act) {
    const k = this.sel.findIndex((s) => s.zone === z.id && s.index === i);
    const counted = this.countAction(z.id);
    if (counted) {
      if (k >= 0) this.sel.splice(k, 1);
      else if (this.sel.length && this.sel[0].zone !== z.id) this.sel = [{ zone: z.id, index: i, code }];
      else if (this.sel.length < counted.count) this.sel.push({ zone: z.id, index: i, code });
      else return this.refused(t("{count} cards are chosen: tap one of them to unchoose it first", { count: counted.count }));
      this.render();
      return;
    }
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

  // countAction is the open action of exactly N cards that takes cards from zone id, if any.
  countAction(zoneId) {
    return this.cardActions(zoneId).find((a) => a.count > 0);
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
    const names = cardsWords(sa.action.cards);
    if (!this.opts.check) {
      line.textContent = t("Selected: {cards}", { cards: names });
      return;
    }
    // A choice (suit, colour) is not known yet: check with the first choice, as any will do for legality.
    const probe = { ...sa.action };
    if (needsCardChoice(sa.spec, probe.cards) || ownChoices(sa.spec)) probe.args = { ...(probe.args || {}), choice: sa.spec.choices[0] };
    if (sa.spec.targets && sa.spec.targets.length) probe.target = sa.spec.targets[0];
    // A move onto a zone (a layoff onto a meld) is legal when it goes onto one of the zones it
    // names: each is checked in turn until one takes it.
    const zones = (sa.spec.zones || []).map((id) => this.zone(id)).filter(Boolean);
    const probes = zones.length ? zones.map((z) => ({ ...probe, ...zoneTarget(z) })) : [probe];
    const seq = ++this.checkSeq;
    line.textContent = t("Checking {cards}…", { cards: names });
    (async () => {
      let res;
      for (const p of probes) {
        res = await this.opts.check(p);
        if (res.ok || seq !== this.checkSeq) break;
      }
      return res;
    })().then((res) => {
      if (seq !== this.checkSeq) return;
      const l = this.root.querySelector(".check-line");
      if (!l) return;
      l.className = "check-line " + (res.ok ? "ok" : "bad");
      l.textContent = res.ok ? t(DONE[sa.spec.type] || "\u2713 {cards} can be played", { cards: names }) : `\u2717 ${res.reason || t("not allowed")}`;
    }).catch(() => {});
  }

  // play sends the cards picked as the action spec (an action button), or as the one open action
  // they fit; when they fit several (a card both the variant's Play and a house rule's action
  // take), the player picks the move first. Then come the choice a card needs (a suit, a colour)
  // or the action's own (a bid), both sent as args.choice, its declared arguments (the toggles)
  // and its target.
  async play(spec) {
    if (!this.sel.length || this.busy || this.picking) return;
    if (!spec) {
      const fits = this.fits();
      if (fits.length > 1) {
        const type = await this.pick(fits.map((a) => ({ value: a.type, label: tv(a.label || a.type) })), t("Which move?"));
        if (type === null) return;
        spec = fits.find((a) => a.type === type);
      }
    }
    const sa = this.selectedAction(spec);
    if (!sa) return;
    const action = sa.action;
    spec = sa.spec;
    if (spec.count > 0 && action.cards.length !== spec.count) return;
    if (spec.zones && spec.zones.length) {
      // A layoff: onto which meld (the melds are buttons too, once cards are picked).
      const zones = spec.zones.map((id) => this.zone(id)).filter(Boolean);
      const id = zones.length === 1 ? zones[0].id : await this.pick(zones.map((z) => ({ value: z.id, label: t("{label}: {value}", { label: this.player(z.owner).name, value: meldName(z) }) })), t("{action}: onto which meld?", { action: tv(spec.label) }));
      if (id === null || id === undefined) return;
      const z = this.zone(id);
      Object.assign(action, zoneTarget(z));
    }
    if (needsCardChoice(spec, action.cards)) {
      const choice = await this.pick(choiceOptions(spec.choices), spec.choices.every((c) => COLORS[c]) ? t("Choose the colour") : t("Choose the suit"));
      if (choice === null) return;
      action.args = { ...(action.args || {}), choice };
    }
    if (!(await this.completeArgs(spec, action))) return;
    if (spec.targets && spec.targets.length) {
      const target = spec.targets.length === 1 && spec.type !== "gift" ? spec.targets[0] : await this.pick(spec.targets.map((s) => ({ value: s, label: this.player(s).name })), t("{action}: to whom?", { action: tv(spec.label) }));
      if (target === null) return;
      action.target = target;
    }
    this.act(action);
  }

  // completeArgs adds the arguments spec declares to action: its own choice, picked in a dialog
  // (false when the player cancels), and the toggles that are on.
  async completeArgs(spec, action) {
    const choices = ownChoices(spec);
    if (choices) {
      const choice = await this.pick(choiceOptions(choices, spec.choice_labels), choiceTitle(spec, choices));
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
      const picker = h("div", { class: "picker", role: "group", "aria-label": title }, options.map((o) => h("button", { class: "btn", type: "button", "data-choice": o.value, onclick: () => done(o.value) }, o.icon || "", o.label)));
      // The choices are one tab stop, the arrows move between them; Cancel is the other.
      rove(picker, [...picker.querySelectorAll("button")]);
      dlg.append(h("h2", {}, title), picker,
        h("div", { class: "row", style: "justify-content:flex-end;margin-top:1em" }, h("button", { class: "btn ghost small", type: "button", onclick: () => done(null) }, t("Cancel"))));
      dlg.addEventListener("cancel", (e) => { e.preventDefault(); done(null); });
      document.body.append(dlg);
      dlg.showModal();
      dlg.querySelector("button")?.focus();
    });
  }

  actionBar() {
    const v = this.view;
    const bar = h("div", { class: "actions", role: "toolbar", "aria-label": t("actions") });
    this.flagShown = new Set(); // one toggle per argument, however many actions declare it
    const fits = this.fits();
    const cardActs = (v.actions || []).filter((a) => a.cards && a.cards.length);
    for (const a of v.actions || []) {
      if (a.cards && a.cards.length) {
        // One button per action that takes cards, lit when the cards picked fit it: a card two
        // actions take (a house rule's and the variant's Play) lights both.
        const n = this.sel.length;
        if (a.count > 0) {
          // Exactly N cards: the count chosen, and the button only at N.
          bar.append(h("span", { class: "count-status", "data-count-status": `${n}/${a.count}`, "aria-live": "polite" }, t("{n} of {count} chosen", { n, count: a.count })),
            h("button", { class: "btn go big", type: "button", "data-action": a.type, "data-focus-key": "act-" + a.type, disabled: n !== a.count, onclick: () => this.play(a) }, tv(a.label)));
          continue;
        }
        const label = n > 1 ? t("{action} {count} cards", { action: tv(a.label), count: n }) : tv(a.label);
        // Cards no action takes (unlit) may still be tried with the zone's first action: the
        // server's refusal says why they do not go.
        const tryable = !fits.length && n && this.cardAction(this.sel[0].zone) === a;
        bar.append(h("button", { class: "btn go big", type: "button", "data-action": a.type, "data-focus-key": "act-" + a.type, disabled: !fits.includes(a) && !tryable, onclick: () => this.play(a) }, label));
        for (const k of flagArgs(a, v.actions || [])) bar.append(this.flagToggle(k));
        if (n && a === (fits.length ? cardActs.filter((x) => fits.includes(x)).pop() : this.cardAction(this.sel[0].zone))) bar.append(h("button", { class: "btn ghost", type: "button", "data-action": "clear", "data-focus-key": "act-clear", onclick: () => { this.sel = []; this.render(); } }, t("Clear")));
        continue;
      }
      if (a.type === "flip") {
        bar.append(h("span", { class: "zone-label" }, t("{action}: tap a face-down card", { action: tv(a.label) })));
        continue;
      }
      if (a.type === "call") {
        const d = (v.deadlines || []).find((d) => d.seat === this.me && d.kind === "last_card");
        bar.append(h("button", { class: "btn call-btn", type: "button", "data-action": "call", "data-focus-key": "act-call", onclick: () => this.act({ type: "call" }) }, tv(a.label), d ? h("span", { class: "countdown", "data-deadline": d.id }, "") : ""));
        continue;
      }
      if (a.targets && a.targets.length) {
        for (const s of a.targets) bar.append(h("button", { class: "btn danger", type: "button", "data-action": a.type, "data-target": s, onclick: () => this.other(a, { type: a.type, target: s }) }, t("{label}: {value}", { label: tv(a.label), value: this.player(s).name })));
        continue;
      }
      for (const k of flagArgs(a, v.actions || [])) bar.append(this.flagToggle(k));
      // A draw from a named pile ("stock", "discard") says which.
      const base = a.from ? { type: a.type, from: a.from } : { type: a.type };
      bar.append(h("button", { class: "btn" + (a.type === "draw" || a.type === "pickup" ? " primary" : ""), type: "button", "data-action": a.type, "data-from": a.from, "data-focus-key": `act-${a.type}${a.from ? "-" + a.from : ""}`, onclick: () => this.other(a, base) }, tv(a.label)));
    }
    if ((v.actions || []).length && v.phase === "playing" && v.turn === this.me && this.me >= 0) bar.prepend(h("span", { class: "turn-cue", "data-cue": "turn" }, t("Your turn")));
    if (!(v.actions || []).length && v.phase === "playing" && v.turn >= 0) {
      bar.append(h("span", { class: "zone-label" }, v.turn === this.me ? t("Your turn") : t("Waiting for {name}…", { name: this.player(v.turn).name })));
    }
    // The bar is a toolbar: one tab stop (the main action), the arrows move between its buttons.
    const buttons = [...bar.querySelectorAll("button:not([disabled])")];
    rove(bar, buttons, bar.querySelector("[data-action=call]") || bar.querySelector("button.go:not([disabled])") || buttons[0]);
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
      this.refused(res.reason || res.code || t("refused"), res.ruling);
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

  // refused shows why an action was refused, above the action bar, for a few seconds: the
  // ruleset's reason as it is, in player words; the id of the ruling it applies (the refusal's
  // own field, for the people who keep the rules) only as the tooltip.
  refused(reason, ruling) {
    const area = this.root.querySelector(".actions") || this.root;
    area.querySelector(".refusal")?.remove();
    const r = h("div", { class: "refusal", role: "alert", "data-ruling": ruling || undefined, title: ruling ? t("Ruling {ruling}", { ruling }) : undefined }, String(reason ?? ""));
    area.style.position = "relative";
    area.append(r);
    setTimeout(() => r.remove(), 4500);
  }

  onKey(e) {
    if (e.target instanceof HTMLInputElement || e.target instanceof HTMLTextAreaElement) return;
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    if (e.key === "Escape" && this.sel.length) { this.sel = []; this.render(); }
    const acts = this.view?.actions || [];
    const shortcut = { d: "draw", k: "pass", u: "pickup", l: "call" }[e.key];
    if (shortcut && acts.some((a) => a.type === shortcut)) { e.preventDefault(); this.act({ type: shortcut }); }
    if (e.key === "p" && this.sel.length) { e.preventDefault(); this.play(); }
  }

}
