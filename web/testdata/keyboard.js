// The keyboard tests' in-page player (keyboard_test.go injects it beside harness.js). Like the
// harness's play it never acts itself: it reads the page, checks where the focus is, and says
// which key a person would press next; the Go side presses it with real key events (Input.
// dispatchKeyEvent), and no pointer event at all.
//
//   __kb.start(opts)   begins; opts {help: true} opens and closes the help dialog once
//   __kb.step()        the next key wanted, {key, what}, or {done, stats} at the end of the game
//   __kb.pointers      pointer, mouse and touch events the page received since start
(() => {
  const q = (s) => document.querySelector(s);
  const qa = (s) => [...document.querySelectorAll(s)];
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  const table = () => window.cardhouse?.state?.room?.table || window.cardhouse?.table;
  const desc = (e) => !e ? "nothing" : e === document.body ? "<body>" : `${e.tagName.toLowerCase()}${e.id ? "#" + e.id : ""}${typeof e.className === "string" && e.className ? "." + e.className.trim().split(/\s+/).join(".") : ""}${e.dataset?.code ? `[${e.dataset.code}]` : ""}${e.dataset?.action ? `[${e.dataset.action}]` : ""}${e.dataset?.choice ? `[choice ${e.dataset.choice}]` : ""}`;
  const until = async (what, pred, ms = 20000) => {
    const end = performance.now() + ms;
    for (;;) {
      const v = pred();
      if (v) return v;
      if (performance.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
      await sleep(10);
    }
  };
  const pointers = { n: 0 };
  for (const type of ["pointerdown", "mousedown", "touchstart", "click"]) {
    // A click made by the keyboard (Enter or Space on a button) has detail 0 and no pointer.
    document.addEventListener(type, (e) => { if (pointers.on && (type !== "click" || e.detail > 0 || e.pointerType)) pointers.n++; }, true);
  }
  // where the player acts, when the view offers them actions: a playable card, a face-down card
  // to flip, an action button, a pile to draw from, a meld to lay off on, a choice.
  const ACTS = ".my-area .card.legal, .my-area .flip-target, .actions button:not([disabled]), .center .clickable, .meld.target, dialog[open] button";

  async function* play(opts = {}) {
    const st = { keys: 0, moves: 0, checks: 0, idle: 0, arrows: 0, dialogs: 0, spaces: 0, help: 0, rounds: 0, retries: 0, phase: "", winner: -1, error: "", trace: [], unexpected: [] };
    window.__kb.st = st;
    pointers.on = true;
    // After every view (every seat's move) the focus is somewhere on the table, never <body>.
    st.views = 0;
    st.lost = [];
    {
      const t = table();
      const orig = t.update;
      t.update = function (...args) {
        const r = orig.apply(this, args);
        st.views++;
        const a = document.activeElement;
        if ((!a || a === document.body) && st.lost.length < 5) st.lost.push(`view ${st.views} (turn ${this.view?.turn}, ${this.view?.phase})`);
        return r;
      };
    }
    let actedOn = null;
    let help = !!opts.help;
    const key = (k, what) => { st.keys++; st.trace.push(`${k} on ${what}`); if (st.trace.length > 30) st.trace.shift(); return { key: k, what }; };
    // focusCheck fails the game when the focus is not where the player acts (or, off their turn,
    // fell to <body>), and checks the hand's tab stops: one, and never an unplayable card while
    // a playable one is there.
    const focusCheck = (v, when) => {
      const a = document.activeElement;
      if (!a || a === document.body) throw new Error(`${when}: the focus fell to <body>`);
      const hand = qa(".my-area .hand .card");
      if (hand.length) {
        const stops = hand.filter((c) => c.tabIndex === 0);
        if (stops.length !== 1) throw new Error(`${when}: the hand has ${stops.length} tab stops, want 1`);
        if (hand.some((c) => c.classList.contains("legal")) && !stops[0].classList.contains("legal")) throw new Error(`${when}: the hand's tab stop ${desc(stops[0])} is not playable`);
        for (const c of hand) if (c.getAttribute("aria-disabled") !== String(!c.classList.contains("legal"))) throw new Error(`${when}: ${desc(c)} aria-disabled=${c.getAttribute("aria-disabled")}`);
      }
      if ((v.actions || []).length && v.phase === "playing" && !a.matches(ACTS)) throw new Error(`${when}: the focus is on ${desc(a)}, not where the player acts`);
      st.checks++;
    };
    try {
      for (;;) {
        await sleep(0);
        const t = table();
        const v = t?.view;
        const dlg = q("dialog[open]");
        if (dlg) {
          const a = document.activeElement;
          if (!dlg.contains(a)) throw new Error(`a dialog is open and the focus is on ${desc(a)}, outside it`);
          if (!a.matches("[data-choice]")) throw new Error(`a dialog is open with the focus on ${desc(a)}, not a choice`);
          const choices = qa("dialog[open] [data-choice]");
          if (!st.arrows && choices.length > 1 && a === choices[0]) {
            // The arrows move between the choices, and back.
            yield key("ArrowRight", desc(a));
            await until("the arrow to move in the choice", () => document.activeElement === choices[1], 3000);
            yield key("ArrowLeft", desc(choices[1]));
            await until("the arrow to move back", () => document.activeElement === choices[0], 3000);
            st.arrows++;
            continue;
          }
          st.dialogs++;
          yield key("Enter", desc(a));
          await until("the choice to close its dialog", () => !dlg.isConnected || !dlg.open);
          continue;
        }
        if (!v) continue;
        if (v.phase !== "playing") {
          if (!q(".overlay-center")) continue;
          if (v.phase === "game_over") { st.phase = v.phase; st.winner = v.winner; return st; }
          // The end of a round: the host's Next round has the focus.
          const a = document.activeElement;
          if (v === actedOn) { await sleep(20); continue; }
          if (!a || a === document.body) throw new Error("the round ended and the focus fell to <body>");
          if (a.matches(".overlay-center [data-action=deal]")) { st.rounds++; actedOn = v; yield key("Enter", desc(a)); }
          else await sleep(20);
          continue;
        }
        if (t.busy || v === actedOn) { await sleep(10); continue; }
        const mine = v.actions || [];
        const when = `move ${st.moves} (turn ${v.turn}, actions ${mine.map((x) => x.type).join(",") || "none"})`;
        focusCheck(v, when);
        const a = document.activeElement;
        if (!mine.length) { st.idle++; actedOn = v; continue; }
        if (help) {
          // The help dialog: `?` opens it with the focus inside, Esc closes it, the focus comes back.
          help = false;
          const back = a;
          yield key("?", desc(a));
          await until("the help dialog", () => q("dialog.keys-dialog[open]") && q("dialog.keys-dialog").contains(document.activeElement), 3000);
          if (!q(".keys-list dt")) throw new Error("the help dialog lists no keys");
          st.help++;
          st.helpText = q(".keys-list").textContent;
          yield key("Escape", "the help dialog");
          await until("the help dialog to close", () => !q("dialog.keys-dialog"), 3000);
          const now = document.activeElement;
          if (now !== back && !(back.dataset.focusKey && now.dataset.focusKey === back.dataset.focusKey) && !(table().view !== v && now.matches(ACTS))) throw new Error(`after the help dialog the focus is on ${desc(now)}, not back on ${desc(back)}`);
          st.help++;
          continue;
        }
        const hand = qa(".my-area .hand .card");
        if (!st.arrows && a.matches(".my-area .hand .card") && hand.length > 2) {
          // The arrows move within the hand, over unplayable cards too (to read them), and back.
          const i = hand.indexOf(a);
          const j = i + 1 < hand.length ? i + 1 : i - 1;
          yield key(j > i ? "ArrowRight" : "ArrowLeft", desc(a));
          await until("the arrow to move in the hand", () => document.activeElement === qa(".my-area .hand .card")[j] || table().view !== v, 3000);
          if (table().view !== v) continue;
          if (qa(".my-area .hand .card").filter((c) => c.tabIndex === 0)[0] !== document.activeElement) throw new Error("the arrow moved the focus but not the hand's tab stop");
          yield key(j > i ? "ArrowLeft" : "ArrowRight", desc(document.activeElement));
          await until("the arrow to move back", () => document.activeElement === qa(".my-area .hand .card")[i] || table().view !== v, 3000);
          st.arrows++;
          continue;
        }
        const counted = mine.find((x) => x.count > 0 && (x.cards || []).length);
        if (counted && a.matches(".my-area .hand .card")) {
          // Exactly N cards (a pass): Space chooses the card, the arrows go to the next one.
          if (a.classList.contains("legal") && !a.classList.contains("selected")) {
            st.spaces++;
            const code = a.dataset.code, idx = a.dataset.index;
            yield key(" ", desc(a));
            await until("the card to be chosen", () => q(`.my-area .hand .card.selected[data-index="${idx}"][data-code="${code}"]`) || table().view !== v, 3000);
            continue;
          }
          const cards = qa(".my-area .hand .card");
          const i = cards.indexOf(a);
          yield key(cards.slice(i + 1).some((c) => c.classList.contains("legal") && !c.classList.contains("selected")) ? "ArrowRight" : "Home", desc(a));
          await until("the arrow to move", () => document.activeElement !== a || table().view !== v, 3000);
          continue;
        }
        st.moves++;
        actedOn = v;
        for (const r of qa(".refusal")) r.dataset.seen = "1";
        yield key("Enter", desc(a));
        const r = await until("the answer to a move", () => (table().view !== v && "view") || (q(".refusal:not([data-seen])") && "refused") || (q("dialog[open]") && "dialog"), 30000);
        if (r === "refused") {
          const why = q(".refusal:not([data-seen])").textContent;
          // A socket lost on a loaded machine sends nothing: once it is back, the player presses again.
          if (/connection lost/i.test(why) && st.retries++ < 5) {
            q(".refusal:not([data-seen])").dataset.seen = "1";
            st.moves--;
            actedOn = null;
            await until("the connection to come back", () => !q('[data-banner="reconnecting"], [data-banner="connecting"]'), 30000);
            continue;
          }
          st.unexpected.push(`${desc(a)}: ${why}`);
          throw new Error(`a move the table offered was refused: ${st.unexpected.at(-1)}`);
        }
      }
    } catch (e) {
      st.error = String(e && e.message || e);
      st.actions = JSON.stringify(table()?.view?.actions || null);
      return st;
    }
  }

  let game = null;
  window.__kb = {
    pointers,
    start: (opts) => { game = play(opts); return true; },
    step: async () => { const r = await game.next(); return r.done ? { done: true, stats: r.value } : r.value; },
  };
})();
