// The browser tests' in-page harness (browser_test.go injects it into every page before the app
// runs). It never talks to the server: it only reads the page and clicks what a person would
// click, so a game it plays is played through the UI.
//
//   __ch.click(sel)        waits for an enabled element and clicks it
//   __ch.fill(sel, text)   waits for an input and types text into it (input events)
//   __ch.autoplay(opts)    plays this page's seat to the end of the game; resolves to its stats
//   __ch.rec               what the page showed: CSP violations, hand cards seen while watching,
//                          countdowns, toasts, refusals, fire on the pile
(() => {
  const q = (s) => document.querySelector(s);
  const qa = (s) => [...document.querySelectorAll(s)];
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  const until = async (what, pred, ms = 20000) => {
    const end = performance.now() + ms;
    for (;;) {
      const v = pred();
      if (v) return v;
      if (performance.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
      await sleep(10);
    }
  };
  const table = () => window.cardhouse?.state?.room?.table;

  const rec = { csp: [], leaks: [], countdowns: [], toasts: {}, events: {}, refusals: [], fire: {}, views: 0, watched: 0 };
  document.addEventListener("securitypolicyviolation", (e) => rec.csp.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`));
  let lastView = null;
  const observe = () => {
    const t = table();
    const v = t?.view;
    if (v && v !== lastView) {
      lastView = v;
      rec.views++;
      for (const e of v.events || []) rec.events[e.name] = (rec.events[e.name] || 0) + 1;
      if (v.viewer < 0) {
        rec.watched++;
        for (const z of v.zones || []) if (z.kind === "hand" && (z.cards || []).length) rec.leaks.push(`view ${z.id}: ${z.cards.join(" ")}`);
      }
    }
    if (v && v.viewer < 0) {
      for (const el of qa('.zone[data-zone^="hand."] .card[data-code]')) if (el.dataset.code) rec.leaks.push(`page ${el.dataset.zone}: ${el.dataset.code}`);
    }
    for (const el of qa(".countdown")) if (/\d\.\ds/.test(el.textContent) && rec.countdowns.length < 50) rec.countdowns.push(el.textContent);
    for (const el of qa("[data-toast]")) rec.toasts[el.dataset.toast] = (rec.toasts[el.dataset.toast] || 0) + (el.dataset.counted ? 0 : 1), el.dataset.counted = "1";
    for (const el of qa(".refusal:not([data-counted])")) { el.dataset.counted = "1"; rec.refusals.push(el.textContent); }
    for (const el of qa(".pile.fire, .pile.fire-red")) rec.fire[el.classList.contains("fire-red") ? "red" : "fire"] = true;
  };
  new MutationObserver(observe).observe(document, { childList: true, subtree: true, characterData: true });

  const click = async (sel) => {
    const el = await until(sel, () => { const e = q(sel); return e && !e.disabled ? e : null; });
    el.click();
    return true;
  };
  const fill = async (sel, text) => {
    const el = await until(sel, () => q(sel));
    el.focus();
    el.value = text;
    el.dispatchEvent(new Event("input", { bubbles: true }));
    return true;
  };

  // order ranks the cards a player would rather keep last: plain cards low to high, then the
  // cards the view gives a role (DRUGS' 2, 3, 10; wilds), then jokers.
  const RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"];
  const rankOf = (code) => {
    if (/^[RYGB]/.test(code) && !/^(10|[2-9AJQK])[SHDC]$/.test(code)) return code.slice(1) || code;
    return code.replace(/[SHDC]$/, "");
  };
  const weight = (code, roles) => {
    const r = rankOf(code);
    if (code === "JK" || code.startsWith("W")) return 100;
    return (roles && roles[r] ? 50 : 0) + Math.max(0, RANKS.indexOf(r));
  };

  // autoplay plays this page's seat until the game is over. opts: {refuseOnce} plays one card
  // that is not lit (the server must refuse it and the page must say why), {skipCall} lets the
  // first LAST CARD window run out, {timeoutMs}. Pausing (__ch.paused = true) holds it between
  // moves; __ch.idle says it is holding.
  const autoplay = async (opts = {}) => {
    const st = { moves: 0, plays: 0, groups: 0, calls: 0, skippedCalls: 0, flips: 0, choices: 0, other: {}, countdown: "", checked: [], refused: "", refusedCheck: "", unexpected: [], phase: "", error: "", trace: [] };
    const end = performance.now() + (opts.timeoutMs || 300000);
    let actedOn = null;
    let skipCall = !!opts.skipCall;
    let skipped = null; // the deadline of the LAST CARD window let run out
    let avoid = null; // a view whose lit cards were refused
    window.__ch.st = st;
    const trace = (what) => { st.trace.push(`${table()?.view?.turn}:${what}`); if (st.trace.length > 40) st.trace.shift(); };
    let refuse = !!opts.refuseOnce;
    const freshRefusal = () => q(".refusal:not([data-seen])");
    // changed resolves at the next table update, or after 50 ms (a dialog, a pause, a refusal).
    let wakers = [];
    const wake = () => { const w = wakers; wakers = []; for (const f of w) f(); };
    const changed = () => new Promise((r) => { wakers.push(r); setTimeout(r, 50); });
    st.waitMs = 0; st.renderMs = 0; st.renders = 0;
    {
      const t = table();
      const orig = t.update;
      t.update = function (...a) { const s0 = performance.now(); const r = orig.apply(this, a); st.renderMs += performance.now() - s0; st.renders++; wake(); return r; };
    }
    const settle = async (v) => {
      // After a move: a new view, a refusal, or a dialog asking for a choice.
      for (const el of qa(".refusal")) el.dataset.seen = "1";
      const s0 = performance.now();
      const r = await until("the answer to a move", () => (table().view !== v && "view") || (freshRefusal() && "refused") || (q("dialog[open] [data-choice]") && "dialog"), 30000);
      st.waitMs += performance.now() - s0;
      return r;
    };
    try {
      for (;;) {
        if (performance.now() > end) throw new Error("the game did not end in time");
        await (table()?.view === actedOn || window.__ch.paused ? changed() : sleep(0));
        // A move half made (a suit to choose) is finished before holding still.
        const choice = q("dialog[open] [data-choice]");
        if (choice) { st.choices++; choice.click(); continue; }
        const t = table();
        if (window.__ch.paused) { window.__ch.idle = !t?.busy; continue; }
        window.__ch.idle = false;
        const v = t?.view;
        if (!v) continue;
        if (v.phase !== "playing") {
          if (q(".overlay-center")) { st.phase = v.phase; st.winner = v.winner; return st; }
          continue;
        }
        if (v === actedOn) continue;
        // The table is still waiting for the answer to a move: this view is older than it.
        if (t.busy) { actedOn = v; continue; }
        const mine = qa(".my-area .card.legal");
        const call = q('[data-action=call]');
        const callDl = call ? call.querySelector(".countdown")?.dataset.deadline || "?" : "";
        if (call && skipCall) {
          skipCall = false;
          skipped = callDl;
          st.skippedCalls++;
          st.countdown = call.querySelector(".countdown")?.textContent || "";
        }
        if (call && callDl !== skipped) {
          st.countdown = st.countdown || call.querySelector(".countdown")?.textContent || "";
          st.calls++;
          trace("call");
          call.click();
          actedOn = v;
          if (await settle(v) === "refused") st.unexpected.push("call: " + freshRefusal().textContent);
          continue;
        }
        const flip = q(".flip-target");
        if (flip) {
          st.flips++;
          trace("flip");
          flip.click();
          actedOn = v;
          const r = await settle(v);
          if (r === "refused") st.unexpected.push("flip: " + freshRefusal().textContent);
          continue;
        }
        if (refuse && mine.length) {
          // A card the table does not light: select it, read the check line, press Play anyway.
          const dim = q(".my-area .hand .card[role=button]:not(.legal)");
          if (dim) {
            refuse = false;
            dim.click();
            const line = await until("the check line", () => { const l = q(".check-line"); return l && /\bbad\b|\bok\b/.test(l.className) ? l : null; });
            st.refusedCheck = line.textContent;
            const go = q(".actions button.go:not([disabled])");
            if (go) {
              go.click();
              if (await settle(v) === "refused") st.refused = freshRefusal().textContent;
            }
            continue;
          }
        }
        if (mine.length && avoid !== v) {
          // Start from no selection, as a player presses Esc to drop one.
          if (q(".my-area .card.selected")) {
            q(".my-area .card.selected").dispatchEvent(new KeyboardEvent("keydown", { key: "Escape", bubbles: true }));
            await until("the selection to clear", () => !q(".my-area .card.selected") || table().view !== v);
            if (table().view !== v) continue;
          }
          const roles = v.roles || {};
          const best = [...mine].sort((a, b) => weight(a.dataset.code, roles) - weight(b.dataset.code, roles))[0];
          const zone = best.dataset.zone;
          const rank = rankOf(best.dataset.code);
          const idx = best.dataset.index;
          best.click();
          await until("the selection", () => q(`.my-area .card.selected[data-zone="${zone}"]`) || table().view !== v);
          if (table().view !== v) continue;
          const spec = (v.actions || []).find((a) => a.cards && a.cards.includes(best.dataset.code));
          let group = 1;
          if (spec && spec.multi) {
            for (const el of qa(`.my-area .card.legal:not(.selected)[data-zone="${zone}"]`)) {
              if (el.dataset.index !== idx && rankOf(el.dataset.code) === rank) { el.click(); group++; }
            }
            if (group > 1) {
              const line = await until("the check line", () => { const l = q(".check-line"); return l && /\b(ok|bad)\b/.test(l.className) && !/Checking/.test(l.textContent) ? l : null; });
              st.checked.push(line.textContent);
              if (line.classList.contains("bad")) {
                // Not a legal group: back to the one card.
                for (const el of qa(".my-area .card.selected")) if (el.dataset.index !== idx) el.click();
                group = 1;
              }
            }
          }
          const go = q(".actions button.go:not([disabled])");
          if (!go) { continue; }
          trace(`${go.dataset.action} ${qa(".my-area .card.selected").map((e) => e.dataset.code).join(",")}`);
          go.click();
          actedOn = v;
          const r = await settle(v);
          if (r === "refused") {
            // Not expected (the card was lit): note it, and draw or pick up instead.
            st.unexpected.push(`play ${qa(".my-area .card.selected").map((e) => e.dataset.code).join(",")}: ${freshRefusal().textContent}`);
            avoid = v;
            actedOn = null;
            continue;
          }
          st.plays++;
          if (group > 1) st.groups++;
          st.moves++;
          continue;
        }
        let acted = false;
        for (const type of ["draw", "pickup", "pass", "catch"]) {
          const b = q(`.actions [data-action=${type}]:not([disabled])`);
          if (!b) continue;
          trace(type);
          b.click();
          acted = true;
          actedOn = v;
          st.other[type] = (st.other[type] || 0) + 1;
          st.moves++;
          if (await settle(v) === "refused") st.unexpected.push(type + ": " + freshRefusal().textContent);
          break;
        }
        if (!acted) actedOn = v; // nothing to do (or a LAST CARD window let run): wait for the next view
      }
    } catch (e) {
      st.error = String(e && e.message || e);
      st.actions = JSON.stringify(table()?.view?.actions || null);
      return st;
    }
  };

  window.__ch = { rec, click, fill, autoplay, until, paused: false, idle: false };
})();
