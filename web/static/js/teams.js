// Teams (sdk.View's teams): who plays with whom, by the seats (a chip in the team's colour), and
// the team panel: each team's score, contract, tricks and bags this hand.
//
//   teamOf(table, seat)   the seat's team, or null
//   teamChip(table, seat) the chip a seat shows for its team, or ""
//   teamPanel(table)      the panel of the teams, or ""

import { h } from "./dom.js";
import { t, tv, num } from "./i18n.js";

export function teamOf(tb, seat) {
  const teams = tb.view.teams || [];
  const p = (tb.view.players || []).find((x) => x.seat === seat);
  if (p && p.team !== undefined && p.team !== null) return teams.find((x) => x.id === p.team) || null;
  return teams.find((x) => (x.seats || []).includes(seat)) || null;
}

// teamIndex is a team's place in the view's list: its colour.
function teamIndex(tb, team) {
  return (tb.view.teams || []).indexOf(team) % 4;
}

export function teamChip(tb, seat) {
  const team = teamOf(tb, seat);
  if (!team) return "";
  return h("span", { class: `chip team team-${teamIndex(tb, team)}`, "data-team": team.id, title: t("team") }, teamName(team));
}

const count = (x) => (x === undefined || x === null ? "\u2013" : num(x));

// teamName is a team's name: the view's (translated when the variant words it), else "Team N".
function teamName(team) {
  return team.name ? tv(team.name) : t("Team {n}", { n: team.id + 1 });
}

export function teamPanel(tb) {
  const teams = tb.view.teams || [];
  if (!teams.length) return "";
  return h("table", { class: "scores teams-panel", "aria-label": t("teams") },
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("Team")), h("th", { scope: "col" }, t("Score")), h("th", { scope: "col" }, t("Bid")),
      h("th", { scope: "col" }, t("Tricks")), h("th", { scope: "col" }, t("Bags")))),
    h("tbody", {}, teams.map((team) => h("tr", { "data-team-row": team.id, class: `team-${teamIndex(tb, team)}` },
      h("th", { scope: "row" }, h("span", { class: "team-name" }, teamName(team)),
        h("span", { class: "team-seats help" }, (team.seats || []).map((s) => tb.player(s).name).join(" & "))),
      h("td", { "data-team-score": team.id }, num(team.score)), h("td", {}, count(team.contract)), h("td", {}, count(team.tricks)), h("td", {}, count(team.bags))))));
}
