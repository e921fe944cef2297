// The gallery page's script (kept out of the HTML for the server's Content-Security-Policy). It
// shows every face the client can draw, by card family and by role, never by variant: the backs
// are the two the client draws plus any other a ruleset's Info.CardBack names (/api/rulesets).
import { api } from "./api.js";
import { cardEl } from "./cards.js";
const g = document.getElementById("gallery");
const section = (title, codes, opts = {}) => {
  const h = document.createElement("h2"); h.textContent = title; g.appendChild(h);
  for (const c of codes) g.appendChild(cardEl(c, opts));
};
const ranks = ["A","2","3","4","5","6","7","8","9","10","J","Q","K"];
for (const s of ["S","H","D","C"]) section("French " + s, ranks.map(r => r + s));
section("French Joker", ["JK"]);
section("Role badges (roles on French cards)", ["AS","2H","JD","QC","KH"], { roles: {A:"wild","2":"pickup",J:"reverse",Q:"extra_go",K:"skip"} });
section("Role faces (burn, reset, any, max7 and reverse)", ["10S","2H","3D","7C","JH","JK","10H","2C","3S","7D","JS"], { roles: {"10":"burn","2":"reset","3":"any","7":"max7","J":"reverse","JK":"joker"} });
const vals = ["0","1","2","3","4","5","6","7","8","9","S","R","+2"];
for (const c of ["R","Y","G","B"]) section("Coloured cards " + c, vals.map(v => c + v));
section("Coloured Jokers", ["W","W+4"]);
const backs = ["french", "color"];
try {
  for (const d of (await api("GET", "/api/rulesets")).rulesets || []) if (d.card_back && !backs.includes(d.card_back)) backs.push(d.card_back);
} catch { /* a page served without the API (the tests' file server) shows the client's own backs */ }
const hb = document.createElement("h2"); hb.textContent = "Backs"; g.appendChild(hb);
for (const back of backs) g.appendChild(cardEl("", { back }));
document.querySelectorAll("[data-w]").forEach(b => b.onclick = () => g.style.setProperty("--gw", b.dataset.w));
window.galleryReady = true;
