// The admin room list: refreshes itself every 5 s (not while rooms are ticked or a reason is
// being written), sorts by a column when its header is clicked, and closes the ticked rooms in one
// request (POST /admin/api/rooms/close, with the session's CSRF token).
"use strict";

(function () {
  const csrf = () => (document.querySelector('meta[name="csrf-token"]') || {}).content || "";
  let sortCol = -1, sortDir = "descending";

  function cellValue(tr, i, kind) {
    const td = tr.children[i];
    if (!td) return "";
    const v = td.dataset.v !== undefined ? td.dataset.v : td.textContent.trim();
    return kind === "num" ? Number(v) || 0 : v.toLowerCase();
  }

  function applySort(table) {
    const ths = [...table.tHead.rows[0].cells];
    if (sortCol < 0) return;
    const kind = ths[sortCol].dataset.sort;
    const body = table.tBodies[0];
    const rows = [...body.rows].filter((r) => r.dataset.code);
    rows.sort((a, b) => {
      const x = cellValue(a, sortCol, kind), y = cellValue(b, sortCol, kind);
      const c = x < y ? -1 : x > y ? 1 : 0;
      return sortDir === "ascending" ? c : -c;
    });
    for (const r of rows) body.append(r);
    ths.forEach((th, i) => {
      if (!th.dataset.sort) return;
      if (i === sortCol) th.setAttribute("aria-sort", sortDir);
      else th.removeAttribute("aria-sort");
    });
    table.dataset.sorted = `${sortCol}:${sortDir}`;
  }

  function ticked() { return [...document.querySelectorAll('#rooms input[name="code"]:checked')].map((i) => i.value); }

  async function refresh() {
    const auto = document.getElementById("auto-refresh");
    const reason = document.querySelector('#bulk-close input[name="reason"]');
    if (!auto || !auto.checked || ticked().length || (reason && (reason.value || document.activeElement === reason))) return;
    let doc;
    try {
      const res = await fetch(window.location.href, { credentials: "same-origin" });
      if (!res.ok) return;
      doc = new DOMParser().parseFromString(await res.text(), "text/html");
    } catch (_) { return; }
    const fresh = doc.querySelector("#rooms tbody"), table = document.getElementById("rooms");
    if (!fresh || !table || ticked().length) return;
    table.tBodies[0].replaceWith(document.importNode(fresh, true));
    applySort(table);
    const when = doc.getElementById("refreshed");
    if (when) document.getElementById("refreshed").textContent = when.textContent;
    table.dataset.refreshes = String(Number(table.dataset.refreshes || 0) + 1);
  }

  async function closeTicked(form, ev) {
    ev.preventDefault();
    const out = form.querySelector("output"), button = form.querySelector("button[type=submit]");
    const codes = ticked();
    if (!codes.length) { out.textContent = "tick the rooms to close first"; out.className = "error"; return; }
    // As every one-click privileged action (admin.js): the admin confirms, seeing which rooms.
    form.dataset.confirm = `Close ${codes.length} room${codes.length === 1 ? "" : "s"} (${codes.join(", ")})? Everyone in them is sent away.`;
    if (!(await window.cardhouseAdmin.confirmed(form))) { out.textContent = "cancelled"; out.className = ""; return; }
    button.disabled = true;
    out.textContent = "…"; out.className = "";
    let res, data = null;
    try {
      res = await fetch("/admin/api/rooms/close", {
        method: "POST", credentials: "same-origin",
        headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf() },
        body: JSON.stringify({ codes, reason: form.elements.reason.value }),
      });
      data = await res.json();
    } catch (err) {
      out.textContent = "network error: " + err.message; out.className = "error"; button.disabled = false; return;
    }
    button.disabled = false;
    if (!res.ok) { out.textContent = data && data.error ? data.error.reason : "HTTP " + res.status; out.className = "error"; return; }
    let msg = `closed ${data.closed.length}: ${data.closed.join(", ")}`;
    if (data.failed.length) msg += "; not closed: " + data.failed.map((f) => `${f.code} (${f.reason})`).join(", ");
    out.textContent = msg; out.className = data.failed.length ? "warn" : "ok";
    form.elements.reason.value = "";
    for (const i of document.querySelectorAll('#rooms input[name="code"]:checked')) i.checked = false;
    await refresh();
  }

  document.addEventListener("DOMContentLoaded", () => {
    const table = document.getElementById("rooms");
    if (!table) return;
    [...table.tHead.rows[0].cells].forEach((th, i) => {
      if (!th.dataset.sort) return;
      if (th.getAttribute("aria-sort")) { sortCol = i; sortDir = th.getAttribute("aria-sort"); }
      th.tabIndex = 0;
      const go = () => {
        sortDir = sortCol === i && sortDir === "ascending" ? "descending" : "ascending";
        sortCol = i;
        applySort(table);
      };
      th.addEventListener("click", go);
      th.addEventListener("keydown", (ev) => { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); go(); } });
    });
    applySort(table);
    const form = document.getElementById("bulk-close");
    form.addEventListener("submit", (ev) => closeTicked(form, ev));
    document.getElementById("select-stale").addEventListener("click", () => {
      for (const i of document.querySelectorAll('#rooms tr.stale input[name="code"]')) i.checked = true;
    });
    setInterval(refresh, 5000);
    table.dataset.ready = "1";
  });
})();
