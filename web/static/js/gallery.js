// The gallery page's script (kept out of the HTML for the server's Content-Security-Policy).
import { cardEl } from "./cards.js";
const g = document.getElementById("gallery");
const section = (title, codes, opts = {}) => {
  const h = document.createElement("h2"); h.textContent = title; g.appendChild(h);
  for (const c of codes) g.appendChild(cardEl(c, opts));
};
const ranks = ["A","2","3","4","5","6","7","8","9","10","J","Q","K"];
for (const s of ["S","H","D","C"]) section("French " + s, ranks.map(r => r + s));
section("Joker and backs", ["JK", "", ""], {});
g.lastChild.replaceWith(cardEl("", { back: "lastcard" }));
section("Hotspot power cards (roles)", ["AS","2H","JD","QC","KH"], { roles: {A:"wild","2":"pickup",J:"reverse",Q:"extra_go",K:"skip"} });
section("DRUGS special faces (roles)", ["10S","2H","3D","7C","JH","JK","10H","2C","3S","7D","JS"], { roles: {"10":"burn","2":"reset","3":"any","7":"max7","J":"reverse","JK":"joker"} });
const vals = ["0","1","2","3","4","5","6","7","8","9","S","R","+2"];
for (const c of ["R","Y","G","B"]) section("Last Card " + c, vals.map(v => c + v));
section("Last Card Jokers", ["W","W+4"]);
document.querySelectorAll("[data-w]").forEach(b => b.onclick = () => g.style.setProperty("--gw", b.dataset.w));
window.galleryReady = true;
