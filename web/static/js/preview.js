// The preview page's script (kept out of the HTML for the server's Content-Security-Policy).
import { Table } from "./table.js";
import { soundSwitch } from "./sound.js";
import { t, translatePage, addTexts } from "./i18n.js";
translatePage();
const names = ["Ada", "Bruno", "Chloé", "Dev", "Eun", "Femi", "Gus", "Hana"];
const sent = [];
const table = new Table(document.getElementById("table"), {
  player: (s) => ({ name: names[s] || t("Seat {n}", { n: s + 1 }) }),
  // local: no server view follows, so the table takes the next action at once.
  send: async (a) => { sent.push(a); return a.type === "refuse" ? { ok: false, reason: "refused" } : { ok: true, local: true }; },
  check: async (a) => {
    const spec = (table.view.actions || []).find((x) => x.type === a.type);
    const ok = !!spec && (!spec.cards || spec.cards.includes(a.cards[0]));
    return ok ? { ok: true } : { ok: false, reason: `${a.cards[0]} does not go on the pile now` };
  },
  rulesetInfo: () => rulesetInfo,
  canDeal: () => true, onDeal: () => sent.push({ type: "deal" }),
});
window.cardhouse = { table, sent };
// The room's top bar has the sound switch: so has the preview's.
document.querySelector(".topbar").append(soundSwitch());
// info may carry the ruleset's Info as ruleset_info (card_back, event_texts), as the room's
// list of rulesets gives it.
let rulesetInfo = {};
window.preview = (view, info) => { if (info && info.ruleset_info) { rulesetInfo = info.ruleset_info; addTexts(rulesetInfo.texts); } table.update(view, info || {}); return true; };
const url = new URLSearchParams(location.search).get("view");
if (url) fetch(url).then((r) => r.json()).then((v) => window.preview(v));
