// Accounts that remember (issue 32): a player's profile (#/profile/ID, #/profile for one's own:
// games and wins per variant, ratings, the last games each linked to its replay, and one's own
// open rooms to go back to) and a leaderboard per variant (#/leaderboard/ID).

import { t, tv, num } from "./i18n.js";
import { api } from "./api.js";
import { h } from "./dom.js";
import { state, page, avatar, nameOf, fieldErrors } from "./shell.js";

const date = (iso) => new Date(iso).toLocaleDateString(undefined, { year: "numeric", month: "short", day: "numeric" });

// place says where a player finished: "1st of 3" in words the locale has.
function place(p, of) {
  return p === 1 ? t("Won · {count} players", { count: of }) : t("Place {place} of {count}", { place: num(p), count: of });
}

function signed(d) {
  const r = Math.round(d * 10) / 10;
  return (r > 0 ? "+" : r < 0 ? "−" : "±") + num(Math.abs(r));
}

export async function profilePage(id) {
  const me = state.me;
  const pid = id || me.id;
  const [p, mine] = await Promise.all([api("GET", `/api/players/${pid}`), pid === me.id ? api("GET", "/api/me/rooms").catch(() => ({ rooms: [] })) : null]);
  const rating = (rs) => (p.ratings.find((r) => r.ruleset === rs) || null);
  const stats = p.stats.length
    ? h("table", { class: "stats", id: "stats" }, h("tr", {}, h("th", {}, t("Game")), h("th", {}, t("Played")), h("th", {}, t("Won")), h("th", {}, t("Rating"))),
      p.stats.map((s) => h("tr", { "data-ruleset": s.ruleset }, h("td", {}, h("a", { href: `#/leaderboard/${s.ruleset}` }, nameOf(s.ruleset))), h("td", {}, num(s.games)), h("td", {}, num(s.wins)),
        h("td", { class: "rating" }, rating(s.ruleset) ? num(rating(s.ruleset).rating) : t("not rated yet")))))
    : h("p", { class: "help" }, t("No finished games yet."));
  const history = p.history.length
    ? h("ol", { class: "history", id: "history" }, p.history.map((g) => h("li", { "data-room": g.room, "data-game": g.game },
      h("b", {}, nameOf(g.ruleset)), " · ", date(g.ended_at), " · ", g.left ? t("Left the game (a loss)") : place(g.place, g.players),
      g.rating_to !== undefined && g.rating_from !== undefined ? h("span", { class: "chip rating-change", title: t("Rating {from} to {to}", { from: num(g.rating_from), to: num(g.rating_to) }) }, signed(g.rating_to - g.rating_from)) : "",
      " ", h("a", { class: "btn small ghost", href: `#/replay/${g.room}/${g.game}/${g.seat}`, "data-replay": `${g.room}/${g.game}` }, t("Watch the replay")))))
    : h("p", { class: "help" }, t("Games appear here when they finish."));
  const games = mine
    ? h("section", { class: "panel", id: "my-games" }, h("h2", {}, t("My games")),
      mine.rooms.length ? h("ul", {}, mine.rooms.map((r) => h("li", {}, h("a", { href: `#/room/${r.code}`, class: "btn small go" }, t("Back to {name} · room {code}", { name: nameOf(r.ruleset), code: r.code })))))
        : h("p", { class: "help" }, t("You are at no table right now.")))
    : "";
  page(h("section", { class: "panel", id: "profile", "data-player": p.id },
    h("div", { class: "row" }, avatar(p, true), h("h1", { class: "grow" }, p.display_name), p.guest ? h("span", { class: "chip" }, t("Guest")) : ""),
    p.guest && pid === me.id ? registerForm() : "",
    h("h2", {}, t("Games")), stats),
  games,
  h("section", { class: "panel" }, h("h2", {}, t("Last games")), history));
}

// registerForm turns the signed-in guest into an account: the same player, with their seats,
// games and history (the server keeps the guest's account and names it).
function registerForm() {
  const user = h("input", { type: "text", name: "username", autocomplete: "username", required: true });
  const pass = h("input", { type: "password", name: "password", autocomplete: "new-password", required: true });
  const form = h("form", { class: "panel", id: "register-guest" },
    h("h2", {}, t("Keep your games: register")),
    h("p", { class: "help" }, t("You play as a guest. Choose a username and a password: your games so far, and the one you are playing, stay yours, and finished games against other players give you a rating.")),
    h("label", { class: "field" }, h("span", {}, t("Username")), user, h("span", { class: "error-text", "data-for": "username" })),
    h("label", { class: "field" }, h("span", {}, t("Password")), pass, h("span", { class: "error-text", "data-for": "password" })),
    h("p", { class: "error-text general", role: "alert" }),
    h("div", { class: "row" }, h("button", { class: "btn primary", type: "submit", id: "register-submit" }, t("Register"))));
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    try {
      const a = await api("POST", "/api/register", { username: user.value, password: pass.value, display_name: state.me.display_name });
      state.me = a.user;
      await profilePage(0);
    } catch (err) {
      fieldErrors(form, err);
    }
  });
  return form;
}

export async function leaderboardPage(id) {
  const rs = state.rulesets || (await api("GET", "/api/rulesets")).rulesets;
  state.rulesets = rs;
  const ruleset = id || (rs[0] && rs[0].id);
  if (!ruleset) return page(h("p", {}, t("No games on this server.")));
  const board = await api("GET", `/api/leaderboard/${ruleset}`);
  const pick = h("nav", { class: "row tabs", "aria-label": t("Games") }, rs.map((d) => h("a", { class: "btn small" + (d.id === ruleset ? " primary" : " ghost"), href: `#/leaderboard/${d.id}`, "aria-current": d.id === ruleset ? "page" : null }, tv(d.name))));
  const rows = board.rows.length
    ? h("table", { class: "stats", id: "leaderboard" }, h("tr", {}, h("th", {}, "#"), h("th", {}, t("Player")), h("th", {}, t("Rating")), h("th", {}, t("Played")), h("th", {}, t("Won"))),
      board.rows.map((r) => h("tr", { "data-user": r.user_id, class: state.me && r.user_id === state.me.id ? "me" : null }, h("td", {}, num(r.rank)), h("td", {}, h("a", { href: `#/profile/${r.user_id}` }, r.display_name)),
        h("td", { class: "rating" }, num(r.rating)), h("td", {}, num(r.games)), h("td", {}, num(r.wins)))))
    : h("p", { class: "help" }, t("Nobody is rated in {name} yet: finish a game against another player.", { name: nameOf(ruleset) }));
  page(h("section", { class: "panel", id: "board", "data-ruleset": ruleset }, h("h1", {}, t("Leaderboard: {name}", { name: nameOf(ruleset) })), pick,
    h("p", { class: "help" }, t("A rating is a careful guess of skill: it rises as you win against other players, and it is shown low until you have played a few games.")), rows));
}
