// The browser tests' in-page harness (browser_test.go injects it into every page before the app
// runs). It never talks to the server and never clicks: it reads the page, decides what a person
// would tap, and says where; the Go side taps there with real pointer events (a mouse press and
// release, or a touch), so a game it plays is played through the UI as people play it.
//
//   __ch.point(sel)        waits for an enabled element; the point to tap on it (see aim)
//   __ch.landed()          after the tap: resolves when its click reached the element aimed at
//   __ch.start(opts)       begins playing this page's seat (see play)
//   __ch.step()            the next tap the player wants, or {done, stats} at the end of the game
//   __ch.audit()           the offered actions a person could not reach now (off-screen, covered)
//   __ch.hitPoint(el)      where a pointer aimed at el lands on it, or null
//   __ch.where             what the harness waits for now (for the report of a failure)
//   __ch.rec               what the page showed: CSP violations, hand cards seen while watching,
//                          countdowns, toasts, refusals, fire on the pile
(() => {
  const q = (s) => document.querySelector(s);
  const qa = (s) => [...document.querySelectorAll(s)];
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  const until = async (what, pred, ms = 20000) => {
    window.__ch && (window.__ch.where = what);
    const end = performance.now() + ms;
    for (;;) {
      const v = pred();
      if (v) return v;
      if (performance.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
      await sleep(10);
    }
  };
  // The table of the room page, or of the preview page (static/preview.html).
  const table = () => window.cardhouse?.state?.room?.table || window.cardhouse?.table;

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
      // Once the game is over the hands left are shown to everyone (the reveal): a leak is a
      // hand card seen while it is played.
      if (v.viewer < 0) {
        rec.watched++;
        if (v.phase === "playing") for (const z of v.zones || []) if (z.kind === "hand" && (z.cards || []).length) rec.leaks.push(`view ${z.id}: ${z.cards.join(" ")}`);
      }
    }
    if (v && v.viewer < 0 && v.phase === "playing") {
      for (const el of qa('.zone[data-zone^="hand."] .card[data-code]')) if (el.dataset.code) rec.leaks.push(`page ${el.dataset.zone}: ${el.dataset.code}`);
    }
    for (const el of qa(".countdown")) if (/\d\.\ds/.test(el.textContent) && rec.countdowns.length < 50) rec.countdowns.push(el.textContent);
    for (const el of qa("[data-toast]")) rec.toasts[el.dataset.toast] = (rec.toasts[el.dataset.toast] || 0) + (el.dataset.counted ? 0 : 1), el.dataset.counted = "1";
    for (const el of qa(".refusal:not([data-counted])")) { el.dataset.counted = "1"; rec.refusals.push(el.textContent); }
    for (const el of qa(".pile.fire, .pile.fire-red")) rec.fire[el.classList.contains("fire-red") ? "red" : "fire"] = true;
  };
  new MutationObserver(observe).observe(document, { childList: true, subtree: true, characterData: true });

  // ---- aiming: where a person's pointer would land, and whether it landed there ----------------

  const inView = (r) => r.left >= 0 && r.top >= 0 && r.right <= innerWidth && r.bottom <= innerHeight;
  const hits = (el, x, y) => { const e = document.elementFromPoint(x, y); return !!e && (e === el || el.contains(e)); };
  const desc = (e) => !e ? "nothing" : `${e.tagName.toLowerCase()}${e.id ? "#" + e.id : ""}${typeof e.className === "string" && e.className ? "." + e.className.trim().split(/\s+/).join(".") : ""}${e.dataset?.code ? `[${e.dataset.code}]` : ""}`;
  // hitPoint is where a pointer aimed at el lands on it: el's centre when el (or a descendant) is
  // what the page hit-tests there; for a card of the hand (fanned: mostly under the next card, by
  // design) else the centre of the part of it that shows. null when el is off-screen or covered
  // there (no point of a hand card inside the viewport receives the pointer).
  const hitPoint = (el) => {
    const r = el.getBoundingClientRect();
    if (!r.width || !r.height) return null;
    const cx = r.left + r.width / 2, cy = r.top + r.height / 2;
    if (hits(el, cx, cy)) return { x: cx, y: cy };
    if (!el.closest(".hand")) return null;
    const pts = [];
    const n = 14;
    for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) {
      const x = r.left + ((i + 0.5) * r.width) / n, y = r.top + ((j + 0.5) * r.height) / n;
      if (hits(el, x, y)) pts.push({ x, y });
    }
    if (!pts.length) return null;
    const mx = pts.reduce((a, p) => a + p.x, 0) / pts.length, my = pts.reduce((a, p) => a + p.y, 0) / pts.length;
    return pts.reduce((b, p) => (Math.hypot(p.x - mx, p.y - my) < Math.hypot(b.x - mx, b.y - my) ? p : b));
  };
  // why says why el cannot take a pointer at its centre.
  const why = (el) => {
    const r = el.getBoundingClientRect();
    const where = `(${Math.round(r.left)},${Math.round(r.top)} ${Math.round(r.width)}x${Math.round(r.height)} in ${innerWidth}x${innerHeight})`;
    if (!inView(r)) return `off-screen ${where}`;
    return `covered by ${desc(document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2))} ${where}`;
  };

  // aim arms the check of a tap on el and returns the point to tap (the Go side dispatches real
  // pointer events there, then calls landed); it throws when el cannot be tapped.
  let aimed = null; // {el, what}
  let clicked = null;
  let clickedAimed = false; // whether the click was on the aimed element when it came (a handler may redraw it)
  document.addEventListener("click", (e) => { clicked = e.target; clickedAimed = !!aimed && (e.target === aimed.el || aimed.el.contains(e.target)); }, true);
  const aim = (el, what) => {
    const p = hitPoint(el);
    if (!p) throw new Error(`${what} (${desc(el)}) cannot be tapped: ${why(el)}`);
    aimed = { el, what };
    clicked = null;
    return { x: p.x, y: p.y, what };
  };
  // landed resolves once the tap aimed at has produced its click on the element aimed at (or on
  // the same control redrawn in its place), and throws when it reached another element.
  // A tap whose element was redrawn between the press and the release makes no click (the
  // browser clicks only when both land on one element): landed then resolves false, and the
  // caller taps the redrawn control again, as a person would.
  const landed = async () => {
    const a = aimed;
    if (!a) throw new Error("landed without aim");
    try {
      await until(`the click on ${a.what}`, () => clicked, 3000);
    } catch (err) {
      aimed = null;
      if (!a.el.isConnected) return false;
      throw err;
    }
    aimed = null;
    if (!clickedAimed && a.el.isConnected) throw new Error(`the tap meant for ${a.what} (${desc(a.el)}) reached ${desc(clicked)}`);
    return true;
  };
  // redrawn finds the control drawn in el's place: the element of the same tag and data
  // attributes (a card's zone, index and code; a button's action or target), or null.
  const redrawn = (el) => {
    if (el.isConnected) return el;
    const attrs = Object.entries(el.dataset).filter(([k]) => k !== "seen").map(([k, v]) => `[data-${k.replace(/[A-Z]/g, (c) => "-" + c.toLowerCase())}="${CSS.escape(v)}"]`).join("");
    return attrs ? q(el.tagName.toLowerCase() + attrs) : null;
  };
  // point waits for an enabled element and aims at it (scrolling a page that scrolls, as a person
  // would, unless it is the table: nothing there may need a scroll).
  const point = async (sel) => {
    const el = await until(sel, () => { const e = q(sel); return e && !e.disabled ? e : null; });
    if (!document.body.classList.contains("in-room") && !inView(el.getBoundingClientRect())) el.scrollIntoView({ block: "center" });
    return aim(el, sel);
  };

  // audit lists every action the player's view offers that a person could not reach: a button
  // off-screen or covered at its centre, a lit card of the hand with no point that takes a pointer,
  // a face-down card to flip covered at its centre; and the dock or the pile off-screen. It
  // returns {problems, checked}: checked counts the elements it looked at.
  const audit = () => {
    const v = table()?.view;
    const out = [];
    let checked = 0;
    if (!v || v.phase !== "playing" || v.viewer < 0 || q("dialog[open]")) return { problems: out, checked };
    const button = (name, el) => {
      checked++;
      if (!el) return out.push(`${name}: not on the page`);
      const r = el.getBoundingClientRect();
      if (!inView(r) || !hits(el, r.left + r.width / 2, r.top + r.height / 2)) out.push(`${name}: ${why(el)}`);
    };
    const spot = (name, el) => {
      checked++;
      const p = hitPoint(el);
      if (!p) return out.push(`${name}: ${why(el)}`);
      // A card of the hand shows a strip at least 12 px wide to aim at.
      const r = el.getBoundingClientRect();
      let shown = 0;
      for (let x = r.left + 1; x < r.right; x += 2) if (hits(el, x, p.y)) shown += 2;
      if (shown < 12) out.push(`${name}: only ${shown} px of it shows`);
    };
    for (const a of v.actions || []) {
      if (a.cards && a.cards.length) button(`the ${a.type} button`, q(`.actions [data-action="${a.type}"]`));
      else if (a.type === "flip") { const fs = qa(".my-area .flip-target"); if (!fs.length) out.push("flip: no face-down card to tap"); fs.forEach((f) => spot(`face-down card ${f.dataset.index}`, f)); }
      else if (a.targets && a.targets.length) for (const t of a.targets) button(`${a.type} ${t}`, q(`.actions [data-action="${a.type}"][data-target="${t}"]`));
      else button(`the ${a.type} button`, q(`.actions [data-action="${a.type}"]`));
    }
    for (const c of qa(".my-area .card.legal")) spot(`lit card ${c.dataset.code}`, c);
    for (const sel of [".my-area", ".pile"]) { const e = q(sel); if (e && !inView(e.getBoundingClientRect())) out.push(`${sel}: ${why(e)}`); }
    return { problems: out, checked };
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

  // play is a generator that plays this page's seat until the game is over: it reads the page,
  // decides as a player would, and yields each tap it wants ({x, y, what}, from aim); the Go side
  // taps there with real pointer events and asks for the next (step). Before every decision it
  // audits the table: an offered action a person could not reach ends the game with an error.
  // opts: {refuseOnce} plays one card that is not lit (the server must refuse it and the page must
  // say why), {skipCall} lets the first LAST CARD window run out, {timeoutMs}. Pausing
  // (__ch.paused = true) holds it between moves; __ch.idle says it is holding.
  async function* play(opts = {}) {
    const st = { moves: 0, plays: 0, groups: 0, calls: 0, skippedCalls: 0, flips: 0, choices: 0, taps: 0, audits: 0, other: {}, countdown: "", checked: [], refused: "", refusedCheck: "", unexpected: [], phase: "", error: "", trace: [] };
    const end = performance.now() + (opts.timeoutMs || 300000);
    let actedOn = null;
    let skipCall = !!opts.skipCall;
    let skipped = null; // the deadline of the LAST CARD window let run out
    let avoid = null; // a view whose lit cards were refused
    window.__ch.st = st;
    const trace = (what) => { st.trace.push(`${table()?.view?.turn}:${what}`); if (st.trace.length > 40) st.trace.shift(); };
    let refuse = !!opts.refuseOnce;
    const freshRefusal = () => q(".refusal:not([data-seen])");
    // tap yields one tap on el and returns once its click has landed there.
    async function* tap(el, what) {
      st.taps++;
      // The answer to this tap may come before the generator resumes: a refusal shown from here
      // on is this tap's.
      for (const r of qa(".refusal")) r.dataset.seen = "1";
      for (let tries = 0; ; tries++) {
        yield aim(el, what);
        if (await landed()) return;
        el = redrawn(el);
        if (!el || tries >= 3) throw new Error(`the tap on ${what} found it redrawn ${tries + 1} times and no click landed`);
        trace(`again: ${what}`);
      }
    }
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
      const s0 = performance.now();
      const r = await until("the answer to a move", () => (table().view !== v && "view") || (freshRefusal() && "refused") || (q("dialog[open] [data-choice]") && "dialog"), 30000);
      st.waitMs += performance.now() - s0;
      return r;
    };
    try {
      for (;;) {
        if (performance.now() > end) throw new Error("the game did not end in time");
        window.__ch.where = "loop";
        await (table()?.view === actedOn || window.__ch.paused ? changed() : sleep(0));
        window.__ch.where = "decide";
        // A move half made (a suit to choose) is finished before holding still.
        const choice = q("dialog[open] [data-choice]");
        if (choice) { st.choices++; yield* tap(choice, `the choice ${choice.dataset.choice}`); continue; }
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
        // The table is still waiting for the answer to a move (which may come after the view it
        // produced): look again shortly.
        if (t.busy) { await changed(); continue; }
        const { problems } = audit();
        st.audits++;
        if (problems.length) throw new Error(`offered actions a person cannot reach: ${problems.join("; ")}`);
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
          try {
            yield* tap(call, "the Last card! button");
          } catch (e) {
            // The window closed before the tap landed (a loaded machine, a slow hand): the call
            // is missed, as a person's would be, and the game goes on; anything else fails.
            if (q("[data-action=call]") || !/redrawn/.test(e.message)) throw e;
            st.skippedCalls++;
            trace("call missed: its window closed");
            actedOn = v;
            continue;
          }
          actedOn = v;
          if (await settle(v) === "refused") st.unexpected.push("call: " + freshRefusal().textContent);
          continue;
        }
        const flip = q(".flip-target");
        if (flip) {
          st.flips++;
          trace("flip");
          yield* tap(flip, `face-down card ${flip.dataset.index}`);
          actedOn = v;
          const r = await settle(v);
          if (r === "refused") st.unexpected.push("flip: " + freshRefusal().textContent);
          continue;
        }
        // Start from no selection, as a player presses Clear to drop one.
        const clear = q(".actions [data-action=clear]");
        if (clear && mine.length && avoid !== v) {
          yield* tap(clear, "the Clear button");
          await until("the selection to clear", () => !q(".my-area .card.selected") || table().view !== v);
          continue;
        }
        if (refuse && mine.length) {
          // A card the table does not light: pick it, read the check line, press Play anyway.
          const dim = q(".my-area .hand .card[role=button]:not(.legal)");
          if (dim) {
            refuse = false;
            yield* tap(dim, `the unlit card ${dim.dataset.code}`);
            const line = await until("the check line", () => { const l = q(".check-line"); return l && /\bbad\b|\bok\b/.test(l.className) ? l : null; });
            st.refusedCheck = line.textContent;
            const go = q(".actions button.go:not([disabled])");
            if (go) {
              yield* tap(go, "the Play button");
              if (await settle(v) === "refused") st.refused = freshRefusal().textContent;
            }
            continue;
          }
        }
        if (mine.length && avoid !== v) {
          const roles = v.roles || {};
          const best = [...mine].sort((a, b) => weight(a.dataset.code, roles) - weight(b.dataset.code, roles))[0];
          const zone = best.dataset.zone;
          const rank = rankOf(best.dataset.code);
          const idx = best.dataset.index;
          const code = best.dataset.code;
          const picked = () => q(`.my-area .card.selected[data-zone="${zone}"][data-index="${idx}"]`);
          yield* tap(best, `the lit card ${code}`);
          await until("the selection", () => picked() || table().view !== v);
          if (table().view !== v) continue;
          const spec = (v.actions || []).find((a) => a.cards && a.cards.includes(code));
          let group = 1;
          if (spec && spec.multi) {
            // The others of its rank, picked one by one (each tap redraws the hand).
            for (;;) {
              const more = qa(`.my-area .card.legal:not(.selected)[data-zone="${zone}"]`).find((el) => el.dataset.index !== idx && rankOf(el.dataset.code) === rank);
              if (!more) break;
              const mi = more.dataset.index;
              yield* tap(more, `the lit card ${more.dataset.code}`);
              await until("the selection", () => q(`.my-area .card.selected[data-zone="${zone}"][data-index="${mi}"]`) || table().view !== v);
              if (table().view !== v) break;
              group++;
            }
            if (table().view !== v) continue;
            if (group > 1) {
              const line = await until("the check line", () => { const l = q(".check-line"); return l && /\b(ok|bad)\b/.test(l.className) && !/Checking/.test(l.textContent) ? l : null; });
              st.checked.push(line.textContent);
              if (line.classList.contains("bad")) {
                // Not a legal group: clear, and back to the one card.
                yield* tap(q(".actions [data-action=clear]"), "the Clear button");
                await until("the selection to clear", () => !q(".my-area .card.selected"));
                yield* tap(q(`.my-area .card.legal[data-zone="${zone}"][data-index="${idx}"]`), `the lit card ${code}`);
                await until("the selection", () => picked());
                group = 1;
              }
            }
          }
          const go = q(".actions button.go:not([disabled])");
          if (!go) { continue; }
          const sel = qa(".my-area .card.selected").map((e) => e.dataset.code).join(",");
          trace(`${go.dataset.action} ${sel}`);
          // One tap behaviour: a tap on a picked card plays the pick; every other move goes by the
          // button, so both ways are played.
          if (st.plays % 2) yield* tap(picked(), `the picked card ${code} (to play it)`);
          else yield* tap(go, "the Play button");
          actedOn = v;
          const r = await settle(v);
          if (r === "refused") {
            // Not expected (the card was lit): note it, and draw or pick up instead.
            st.unexpected.push(`play ${sel}: ${freshRefusal().textContent}`);
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
          yield* tap(b, `the ${type} button`);
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
      st.bar = q(".actions")?.outerHTML?.slice(0, 2000) || "";
      return st;
    }
  }

  // start begins playing this page's seat; step resolves to the next tap wanted, {x, y, what},
  // or {done: true, stats} at the end of the game.
  let game = null;
  const start = (opts) => { game = play(opts); return true; };
  const step = async () => {
    window.__ch.where = "step";
    const r = await game.next();
    window.__ch.where = r.done ? "done" : "tap " + r.value.what;
    return r.done ? { done: true, stats: r.value } : r.value;
  };

  window.__ch = { rec, point, landed, audit, hitPoint, start, step, until, paused: false, idle: false };
})();
