// Cardhouse admin pages: every form with a data-api attribute is sent to that JSON API route as
// JSON, with the session's CSRF token (from <meta name="csrf-token">) in the X-CSRF-Token header.
// The answer is shown in the form's <output>; data-reload reloads the page after success,
// data-show="field" shows that field of the answer (a reset password), data-next (the login form)
// goes to that path. An input with data-type="int" is sent as a number; a select with data-merge
// has JSON objects as values, merged into the body (a kick's {"minutes": 60} or {"ban": true}).
// A form with data-confirm asks first, in a dialog (#confirm) saying data-confirm's sentence:
// Cancel (or Escape) sends nothing. A form with data-bulk (the users list's) sends the ids of the
// checked boxes that selector finds as "ids"; its data-confirm's {n} and {action} say how many and
// what (the action select's option text).
"use strict";

(function () {
  const csrf = () => (document.querySelector('meta[name="csrf-token"]') || {}).content || "";

  function body(form) {
    const out = {};
    for (const el of form.elements) {
      if ((!el.name && !el.hasAttribute("data-merge")) || el.disabled) continue;
      if (el.type === "checkbox") { out[el.name] = el.checked; continue; }
      if (el.tagName === "SELECT" && el.hasAttribute("data-merge")) { Object.assign(out, JSON.parse(el.value)); continue; }
      out[el.name] = el.dataset.type === "int" ? Number(el.value) : el.value;
    }
    if (form.dataset.bulk) out.ids = [...document.querySelectorAll(form.dataset.bulk + ":checked")].map((b) => Number(b.dataset.userId));
    return out;
  }

  // sameOriginAdminPath is next when the browser itself reads it as a path of the admin area of
  // this origin, else "/admin": the server checks next too (safeNext), this is the second wall.
  function sameOriginAdminPath(next) {
    if (!next || /[\u0000-\u001f\u007f\\\s]/.test(next) || !next.startsWith("/") || next.startsWith("//")) return "/admin";
    let u;
    try { u = new URL(next, window.location.origin); } catch (_) { return "/admin"; }
    if (u.origin !== window.location.origin) return "/admin";
    if (u.pathname !== "/admin" && !u.pathname.startsWith("/admin/")) return "/admin";
    return u.pathname + u.search + u.hash;
  }
  window.cardhouseAdmin = { sameOriginAdminPath, confirmed };

  // confirmed asks the admin to confirm the form's action in a modal dialog; it resolves to true
  // when they press the confirm button, false on Cancel or Escape.
  function confirmed(form) {
    return new Promise((resolve) => {
      const dlg = document.createElement("dialog");
      dlg.id = "confirm";
      dlg.setAttribute("aria-label", "confirm");
      const p = document.createElement("p");
      const n = form.dataset.bulk ? document.querySelectorAll(form.dataset.bulk + ":checked").length : 0;
      const act = form.elements.action && form.elements.action.selectedOptions ? form.elements.action.selectedOptions[0].textContent : "";
      p.textContent = form.dataset.confirm.replace("{n}", String(n)).replace("{action}", act);
      const row = document.createElement("div");
      row.className = "confirm-buttons";
      const cancel = document.createElement("button");
      cancel.type = "button";
      cancel.className = "secondary";
      cancel.dataset.answer = "cancel";
      cancel.textContent = "Cancel";
      const ok = document.createElement("button");
      ok.type = "button";
      ok.dataset.answer = "confirm";
      const submit = form.querySelector("button[type=submit]");
      ok.className = submit && submit.classList.contains("danger") ? "danger" : "";
      ok.textContent = submit ? submit.textContent : "Confirm";
      row.append(cancel, ok);
      dlg.append(p, row);
      let answer = false;
      cancel.addEventListener("click", () => dlg.close());
      ok.addEventListener("click", () => { answer = true; dlg.close(); });
      dlg.addEventListener("close", () => { dlg.remove(); resolve(answer); });
      document.body.append(dlg);
      dlg.showModal();
      cancel.focus();
    });
  }

  async function send(form, ev) {
    ev.preventDefault();
    if (form.dataset.confirm !== undefined && !(await confirmed(form))) {
      const output = form.querySelector("output");
      if (output) { output.textContent = "cancelled"; output.className = ""; }
      return;
    }
    const output = form.querySelector("output");
    const button = form.querySelector("button[type=submit]");
    if (button) button.disabled = true;
    if (output) { output.textContent = "…"; output.className = ""; }
    let res, data = null;
    try {
      res = await fetch(form.dataset.api, {
        method: "POST",
        credentials: "same-origin",
        headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf() },
        body: JSON.stringify(body(form)),
      });
      const text = await res.text();
      try { data = text ? JSON.parse(text) : null; } catch (_) { data = null; }
    } catch (err) {
      if (output) { output.textContent = "network error: " + err.message; output.className = "error"; }
      if (button) button.disabled = false;
      return;
    }
    if (button) button.disabled = false;
    if (!res.ok) {
      const reason = data && data.error ? data.error.reason : "HTTP " + res.status;
      if (output) { output.textContent = reason; output.className = "error"; }
      return;
    }
    if (form.dataset.next !== undefined) { window.location.assign(sameOriginAdminPath(form.dataset.next)); return; }
    if (form.dataset.show && data && data[form.dataset.show] !== undefined) {
      if (output) {
        output.textContent = String(data[form.dataset.show]);
        output.className = "ok secret";
        copyButton(form, output);
      }
      return;
    }
    if (output) { output.textContent = "done"; output.className = "ok"; }
    if (form.hasAttribute("data-reload")) window.location.reload();
  }

  // copyButton puts a Copy button after output (a reset password): it copies the text to the
  // clipboard and says so.
  function copyButton(form, output) {
    let b = form.querySelector("button.copy");
    if (!b) {
      b = document.createElement("button");
      b.type = "button";
      b.className = "copy";
      output.after(b);
    }
    b.textContent = "Copy";
    b.setAttribute("aria-label", "copy the new password");
    b.onclick = async () => {
      try {
        await navigator.clipboard.writeText(output.textContent);
        b.textContent = "Copied";
      } catch (err) {
        b.textContent = "Copy failed: select the password and copy it";
      }
    };
  }

  // The users list's boxes: "select all" and the count beside the bulk form.
  function bulkBoxes() {
    const all = document.getElementById("select-all");
    const count = document.getElementById("bulk-count");
    const boxes = () => [...document.querySelectorAll("#users input[data-user-id]")];
    const show = () => { if (count) count.textContent = boxes().filter((b) => b.checked).length + " selected"; };
    if (all) all.addEventListener("change", () => { for (const b of boxes()) b.checked = all.checked; show(); });
    for (const b of boxes()) b.addEventListener("change", show);
  }

  document.addEventListener("DOMContentLoaded", () => {
    bulkBoxes();
    for (const form of document.querySelectorAll("form[data-api]")) {
      form.addEventListener("submit", (ev) => send(form, ev));
      form.dataset.ready = "1";
    }
    document.body.dataset.ready = "1";
  });
})();
