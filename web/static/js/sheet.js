// The score sheet (sdk.View's sheet): a column per seat or per team, a row per hand with its
// notes, and the totals; openable at any time during a game (a dialog) and shown in the summary.
//
//   sheetTable(table)   the sheet as a table, or "" when the view has none
//   sheetButton(table)  the button that opens it in a dialog, or ""

import { h } from "./dom.js";
import { t, tv, num } from "./i18n.js";

export function sheetTable(tb) {
  const s = tb.view.sheet;
  if (!s) return "";
  // A sheet by seat names each column by its player (the ruleset can only say "Seat 1").
  const cols = s.by === "seat" ? (s.columns || []).map((c, k) => tb.player(k).name) : (s.columns || []).map((c) => tv(c));
  const best = bestColumn(tb);
  return h("div", { class: "sheet-wrap" }, h("table", { class: "scores sheet", "data-sheet-by": s.by, "aria-label": t("score sheet") },
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("Hand")), cols.map((c) => h("th", { scope: "col" }, c)))),
    h("tbody", {}, (s.rows || []).map((r, i) => h("tr", { "data-sheet-row": i }, h("th", { scope: "row" }, r.label ? tv(r.label) : t("Hand {n}", { n: i + 1 })),
      cols.map((_, k) => {
        const note = (r.notes || [])[k];
        const cell = (r.cells || [])[k];
        return h("td", {}, cell === undefined ? "" : typeof cell === "number" ? num(cell) : String(cell), note ? h("span", { class: "note" }, ` ${note.split(", ").map((part) => tv(part)).join(", ")}`) : "");
      })))),
    h("tfoot", {}, h("tr", { "data-sheet-totals": "" }, h("th", { scope: "row" }, t("Total")),
      cols.map((_, k) => h("td", { class: k === best ? "best" : "" }, h("b", {}, typeof (s.totals || [])[k] === "number" ? num(s.totals[k]) : String((s.totals || [])[k] ?? ""))))))));
}

// bestColumn is the column leading the totals: the lowest when the lowest wins.
function bestColumn(tb) {
  const tot = tb.view.sheet?.totals || [];
  if (!tot.length) return -1;
  let best = 0;
  tot.forEach((x, i) => { if (tb.view.low_wins ? x < tot[best] : x > tot[best]) best = i; });
  return best;
}

export function sheetButton(tb) {
  if (!tb.view.sheet) return "";
  return h("button", { class: "btn small", type: "button", "data-action": "sheet", "data-focus-key": "sheet", onclick: () => openSheet(tb) }, t("Score sheet"));
}

function openSheet(tb) {
  const dlg = h("dialog", { class: "picker-dialog sheet-dialog", "aria-label": t("score sheet") });
  const close = () => { dlg.close(); dlg.remove(); };
  dlg.append(h("h2", {}, t("Score sheet")), sheetTable(tb),
    h("div", { class: "row dialog-foot" }, h("button", { class: "btn", type: "button", "data-action": "close-sheet", onclick: close }, t("Close"))));
  dlg.addEventListener("cancel", (e) => { e.preventDefault(); close(); });
  document.body.append(dlg);
  dlg.showModal();
  dlg.querySelector("[data-action=close-sheet]")?.focus();
}
