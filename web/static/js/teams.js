// Teams (sdk.View's teams): who plays with whom, by the seats (a chip in the team's colour), and
// the team panel: each team's score, contract, tricks and bags this hand.
//
//   teamOf(table, seat)   the seat's team, or null
//   teamChip(table, seat) the chip a seat shows for its team, or ""
//   teamPanel(table)      the panel of the teams, or ""

import { h } from "./dom.js";

export function teamOf(t, seat) {
  const teams = t.view.teams || [];
  const p = (t.view.players || []).find((x) => x.seat === seat);
  if (p && p.team !== undefined && p.team !== null) return teams.find((x) => x.id === p.team) || null;
  return teams.find((x) => (x.seats || []).includes(seat)) || null;
}

// teamIndex is a team's place in the view's list: its colour.
function teamIndex(t, team) {
  return (t.view.teams || []).indexOf(team) % 4;
}

export function teamChip(t, seat) {
  const team = teamOf(t, seat);
  if (!team) return "";
  return h("span", { class: `chip team team-${teamIndex(t, team)}`, "data-team": team.id, title: "team" }, team.name || `Team ${team.id + 1}`);
}

const num = (x) => (x === undefined || x === null ? "\u2013" : String(x));

export function teamPanel(t) {
  const teams = t.view.teams || [];
  if (!teams.length) return "";
  return h("table", { class: "scores teams-panel", "aria-label": "teams" },
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Team"), h("th", { scope: "col" }, "Score"), h("th", { scope: "col" }, "Bid"),
      h("th", { scope: "col" }, "Tricks"), h("th", { scope: "col" }, "Bags"))),
    h("tbody", {}, teams.map((team) => h("tr", { "data-team-row": team.id, class: `team-${teamIndex(t, team)}` },
      h("th", { scope: "row" }, h("span", { class: "team-name" }, team.name || `Team ${team.id + 1}`),
        h("span", { class: "team-seats help" }, (team.seats || []).map((s) => t.player(s).name).join(" & "))),
      h("td", { "data-team-score": team.id }, String(team.score)), h("td", {}, num(team.contract)), h("td", {}, num(team.tricks)), h("td", {}, num(team.bags))))));
}
