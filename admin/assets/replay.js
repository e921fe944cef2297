// The admin replay viewer: reads a game's frames (the spectators' view after the deal and after
// each action) from the admin API and steps through them: buttons, the range, the arrow keys.
// Only what a spectator saw is drawn: zones with their cards or counts, indicators, seats.
"use strict";

(function () {
  const el = (tag, attrs, ...kids) => {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
    for (const k of kids) e.append(k);
    return e;
  };
  const seatName = (s) => (s === -2 ? "the host" : s === -1 ? "the clock" : "seat " + s);

  function draw(view, root) {
    root.replaceChildren();
    if (!view) return;
    const seats = el("div", { class: "zone", id: "seats" }, el("h3", {}, "Seats"));
    for (const p of view.players || []) {
      let t = `seat ${p.seat}: ${p.hand_count} cards`;
      if (p.score !== undefined && p.score !== null) t += `, score ${p.score}`;
      if ((p.tags || []).length) t += ` (${p.tags.join(", ")})`;
      if (p.seat === view.turn) t += " ← turn";
      seats.append(el("div", {}, t));
    }
    root.append(seats);
    if ((view.indicators || []).length) {
      const ind = el("div", { class: "zone", id: "indicators" }, el("h3", {}, "Table"));
      for (const i of view.indicators) ind.append(el("div", {}, `${i.label}: ${i.value}`));
      root.append(ind);
    }
    for (const z of view.zones || []) {
      const box = el("div", { class: "zone", "data-zone": z.id }, el("h3", {}, z.label || z.id));
      if (z.cards && z.cards.length && !z.hidden) {
        const cards = el("div", { class: "cards" });
        for (const c of z.cards) cards.append(el("span", {}, String(c)));
        box.append(cards);
      } else {
        box.append(el("div", {}, `${z.count} card${z.count === 1 ? "" : "s"}${z.hidden ? ", face down" : ""}`));
      }
      root.append(box);
    }
  }

  async function start(section) {
    const $ = (id) => document.getElementById(id);
    let rep;
    try {
      const res = await fetch(section.dataset.api, { credentials: "same-origin" });
      rep = await res.json();
      if (!res.ok) throw new Error(rep && rep.error ? rep.error.reason : "HTTP " + res.status);
    } catch (err) {
      $("replay-error").textContent = "The replay could not be read: " + err.message;
      section.dataset.ready = "1";
      return;
    }
    const frames = rep.frames || [];
    const log = rep.log || [];
    $("replay-matches").textContent = rep.matches ? "byte for byte the stored game" : "differs from the stored game";
    $("replay-matches").className = rep.matches ? "ok" : "bad";
    const range = $("step");
    range.max = String(Math.max(frames.length - 1, 0));
    let at = 0;
    function show(i) {
      at = Math.max(0, Math.min(i, frames.length - 1));
      range.value = String(at);
      const f = frames[at];
      const view = f ? f.view : null;
      $("step-label").textContent = `step ${at} of ${frames.length - 1}`;
      const act = $("step-action");
      if (at === 0) {
        act.textContent = "The deal.";
        act.className = "step-action";
      } else {
        const l = log[at - 1];
        act.textContent = `#${l.seq} ${seatName(l.seat)}: ${JSON.stringify(l.action)}`;
        act.className = "step-action" + (l.action.type === "suspend_house_rule" ? " suspend" : "");
      }
      let status = "";
      if (view) {
        status = `Phase ${view.phase}` + (view.winner >= 0 ? `, winner seat ${view.winner}` : `, seat ${view.turn} to play`);
        const evs = (view.events || []).map((e) => e.name + (e.data && e.data.rule ? ` (${e.data.rule})` : ""));
        if (evs.length) status += ". Events: " + evs.join(", ");
      }
      $("step-status").textContent = status;
      draw(view, $("table"));
      section.dataset.step = String(at);
    }
    $("first").addEventListener("click", () => show(0));
    $("prev").addEventListener("click", () => show(at - 1));
    $("next").addEventListener("click", () => show(at + 1));
    $("last").addEventListener("click", () => show(frames.length - 1));
    range.addEventListener("input", () => show(Number(range.value)));
    document.addEventListener("keydown", (ev) => {
      if (ev.target instanceof HTMLInputElement && ev.target.type !== "range") return;
      if (ev.key === "ArrowRight") show(at + 1);
      if (ev.key === "ArrowLeft") show(at - 1);
    });
    show(0);
    section.dataset.ready = "1";
  }

  document.addEventListener("DOMContentLoaded", () => {
    const s = document.getElementById("replay");
    if (s) start(s);
  });
})();
