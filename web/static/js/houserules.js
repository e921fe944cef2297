// House rules in the browser (docs/house-rules.md, "In the browser"): the page where a modder
// checks and uploads a Lua script (pasted or from a file) and sees the check's problem beside
// the script (line, message, hint, the rule's option values) or the dry run's games, the hook
// counts and the games cut off, with inputs for the rule's own options once a check read them; "my rules" with every version, its
// review and the reviewer's reason; the chooser of the room form; and the room's "House rules"
// panel, which shows every member the rules in force with their descriptions and lets the host
// add, set and remove rules between games; and the room's "Rule output", what a rule printed, for
// its owner and admins. The API is docs/api.md, "House rules".

import { api, apiLines } from "./api.js";
import { h } from "./dom.js";
import { optionField, optionValue, optionLabel, choiceLabel } from "./options.js";
import { t } from "./i18n.js";
import { ruleEditor } from "./editor.js";

const STATUS = { approved: ["approved", "green"], pending: ["pending review", "gold"], rejected: ["rejected", "red"], disabled: ["disabled", "red"] };
// STATUS's labels in the reader's language (i18n: "approved", "pending review", ...).
const statusLabel = (status) => (STATUS[status] ? t(STATUS[status][0]) : status);

// statusChip shows a version's review status.
function statusChip(status) {
  const [, cls] = STATUS[status] || [status, ""];
  return h("span", { class: `chip ${cls}`, "data-status": status }, statusLabel(status));
}

// declaredName is the name a script declares (as the server reads it), or "".
function declaredName(source) {
  const m = /^\s*name\s*=\s*["']([a-z][a-z0-9_-]{0,39})["']/m.exec(source);
  return m ? m[1] : "";
}

// usableVersion is the version a room of this user would enable: the newest approved one, or the
// newest pending one of the user's own script (the server takes the same for version 0).
export function usableVersion(rule, me) {
  const vs = (rule.versions || []).filter((v) => v.status === "approved" || (v.status === "pending" && me && rule.owner_id === me.id));
  return vs.reduce((a, v) => (!a || v.number > a.number ? v : a), null);
}

// optionWords says a rule's option values in words: "Cards to pick up: 2".
function optionWords(schema, options) {
  return (schema || []).map((o) => {
    const v = Object.hasOwn(options || {}, o.name) ? options[o.name] : o.default;
    const shown = o.type === "bool" ? (v ? t("on") : t("off")) : o.type === "choice" ? choiceLabel(o, String(v)) : String(v);
    return `${optionLabel(o)}: ${shown}`;
  }).join(" \u00b7 ");
}

// ruleOptions reads the values of schema's fields named prefix + option from form.
function ruleOptions(form, schema, prefix) {
  const out = {};
  for (const o of schema || []) {
    const v = optionValue(form, o, prefix);
    if (v !== undefined) out[o.name] = v;
  }
  return out;
}

// showErrors puts an ApiError's reason in form's general slot and each field's beside it.
function showErrors(form, err) {
  for (const e of form.querySelectorAll(".error-text[data-for]")) e.textContent = "";
  const general = form.querySelector(".error-text.general");
  if (general) general.textContent = String(err.message ?? "");
  for (const f of err.fields || []) {
    const slot = form.querySelector(`.error-text[data-for="${CSS.escape(f.field)}"]`);
    if (slot) slot.textContent = f.reason;
  }
}

// ---- The page: upload and my rules ---------------------------------------------------------------

// houseRulesPage draws #/house-rules with page (the app's page frame) for the signed-in user me;
// rulesets are the server's (those whose plugin runs house rules are offered). A guest owns no
// rules (the server refuses a guest's upload, docs/api.md): their "My rules" says so at once, with
// register (the app's: log out and open the entry's Register tab) as the way to an account.
export async function houseRulesPage({ page, me, rulesets, register }) {
  const usable = (rulesets || []).filter((d) => d.house_rules);
  const source = ruleEditor({ id: "rule-source", label: "the rule's Lua script", hint: 'name = "my-rule"\ndescription = "What it changes, in one sentence."\n\nfunction after_action(game, action)\n  ...\nend' });
  const file = h("input", { type: "file", id: "rule-file", accept: ".lua,text/plain,text/x-lua" });
  file.addEventListener("change", async () => {
    const f = file.files && file.files[0];
    if (!f) return;
    source.value = await f.text();
    result.replaceChildren(h("p", { class: "help", "data-loaded": f.name }, `Loaded ${f.name} (${source.value.length} bytes): check it or upload it.`));
  });
  const boxes = h("div", { class: "row", role: "group", "aria-label": "rulesets" }, usable.map((d) => h("label", { class: "field row rule-ruleset" }, h("input", { type: "checkbox", name: "ruleset", value: d.id, "data-ruleset": d.id, checked: usable.length === 1 || undefined }), h("span", {}, d.name))));
  const result = h("div", { id: "rule-result", "aria-live": "polite" });
  // The rule's own options, once a check has read what the script declares: the values the next
  // check plays with, and whether it tries every option's extremes too (the server's default).
  const checkOpts = h("div", { id: "rule-check-options" });
  let schema = [];
  const showOptions = (opts) => {
    const prev = schema.length ? ruleOptions(form, schema, "options.") : {};
    const extremes = form.querySelector("#rule-extremes");
    const tryExtremes = extremes ? extremes.checked : true;
    schema = opts || [];
    if (!schema.length) return checkOpts.replaceChildren();
    checkOpts.replaceChildren(h("fieldset", { class: "check-options" }, h("legend", {}, "The rule's options, for Check"),
      h("p", { class: "help" }, "The dry run plays with these values (an upload with the defaults), and with each option's extremes too unless you untick it below."),
      ...schema.map((o) => optionField(o, "options.", prev[o.name])),
      h("label", { class: "field row" }, h("input", { type: "checkbox", id: "rule-extremes", checked: tryExtremes || undefined }), h("span", {}, "Also try each option's extremes (lowest and highest number, every choice, on and off)"))));
  };
  const mine = h("div", { id: "my-rules" }, h("p", { class: "help" }, "Loading…"));
  let myRules = [];
  const form = h("form", { class: "panel", id: "rule-upload" }, h("h2", {}, "Check and upload a rule"),
    h("div", { class: "field" }, h("span", { id: "rule-source-label" }, "Script"), source),
    h("label", { class: "field" }, h("span", {}, "…or a file"), file),
    h("div", { class: "field" }, h("span", {}, "For"), boxes, h("span", { class: "error-text", "data-for": "rulesets" })),
    checkOpts,
    h("p", { class: "error-text general", role: "alert" }),
    h("div", { class: "row" }, h("button", { class: "btn", type: "button", id: "rule-check" }, "Check"), h("button", { class: "btn primary", type: "submit", id: "rule-send" }, "Upload")),
    result);
  const body = () => ({ source: source.value, rulesets: [...boxes.querySelectorAll("input:checked")].map((b) => b.value) });
  const checkBody = () => {
    const req = body();
    if (schema.length) {
      req.options = ruleOptions(form, schema, "options.");
      req.extremes = form.querySelector("#rule-extremes").checked;
    }
    return req;
  };
  const busy = (on) => { for (const b of form.querySelectorAll("button")) b.disabled = on; };
  const run = async (what) => {
    busy(true);
    form.querySelector(".error-text.general").textContent = "";
    result.replaceChildren(h("p", { class: "help", "data-running": what }, what === "check" ? "Checking: the script runs in the variant's plugin, then a few bot games…" : "Uploading: checking it first…"));
    try {
      if (what === "check") {
        const res = await api("POST", "/api/house-rules/check", checkBody());
        showOptions(res.declared.options);
        source.markError(0);
        result.replaceChildren(passed(res, null));
      } else {
        const name = declaredName(source.value);
        const again = myRules.some((r) => r.name === name);
        const req = body();
        if (again && !req.rulesets.length) delete req.rulesets;
        const res = await api("POST", again ? `/api/house-rules/${encodeURIComponent(name)}/versions` : "/api/house-rules", req);
        source.markError(0);
        result.replaceChildren(passed(res, res));
        await loadMine();
      }
    } catch (err) {
      if (err.problem && err.problem.schema) showOptions(err.problem.schema);
      result.replaceChildren(problemBox(err, source.value, source));
      source.markError((err.problem && err.problem.line) || 0);
      if ((err.fields || []).length) showErrors(form, err);
    } finally {
      busy(false);
    }
  };
  form.querySelector("#rule-check").addEventListener("click", () => run("check"));
  form.addEventListener("submit", (ev) => { ev.preventDefault(); run("upload"); });

  const loadMine = async () => {
    try {
      myRules = (await api("GET", "/api/house-rules?mine=true")).house_rules || [];
      mine.replaceChildren(...(myRules.length ? myRules.map((r) => ruleCard(r, rulesets, () => newVersion(r))) : [h("p", { class: "help" }, t("None yet: upload one above."))]));
      markFailuresSeen(newestFailure(myRules));
    } catch (err) {
      mine.replaceChildren(h("p", { class: "error-text" }, err.message));
    }
  };
  // newVersion puts the newest version's source of rule r in the editor, its games ticked: edit
  // it and Upload makes the next version.
  const newVersion = async (r) => {
    try {
      const full = (await api("GET", `/api/house-rules/${encodeURIComponent(r.name)}`)).house_rule;
      const newest = (full.versions || []).reduce((a, v) => (!a || v.number > a.number ? v : a), null);
      source.value = newest ? newest.source : "";
      for (const b of boxes.querySelectorAll("input")) b.checked = (full.rulesets || []).includes(b.value);
      result.replaceChildren(h("p", { class: "help", "data-editing": r.name }, `Editing ${r.name} from version ${newest ? newest.number : "?"}: Upload makes the next version.`));
      form.scrollIntoView({ block: "start" });
    } catch (err) {
      result.replaceChildren(problemBox(err, ""));
    }
  };
  const guest = me && me.guest;
  if (guest) {
    mine.replaceChildren(h("div", { id: "rules-guest-mine" },
      h("p", {}, "House rules belong to accounts: as a guest you have none and cannot upload one. You can still use approved rules in rooms you host."),
      h("p", { class: "help" }, "To write your own, register an account. You leave this guest name behind: log out, then create the account."),
      h("div", { class: "row" }, h("button", { class: "btn primary", type: "button", id: "rules-register", onclick: () => register && register() }, "Log out and register"))));
  }
  page(h("div", { class: "rules-page" },
    h("div", { class: "row" }, h("h1", { class: "grow" }, "House rules"), h("a", { class: "btn ghost small", href: "#/" }, "Back to the lobby")),
    h("p", { class: "help" }, "A house rule is a short Lua script that changes a game's rules. Check it here (it runs in the game's plugin, then in a few bot games), upload it, and use it in rooms you host at once; others can once an admin approves it."),
    guest ? h("div", { class: "banner info notice", id: "rules-guest" }, "Guests cannot upload house rules: they need an account (see My rules below).") : "",
    usable.length ? "" : h("p", { class: "error-text" }, "No game on this server runs house rules."),
    guest ? "" : h("div", { class: "rules-workshop" }, form, testTable({ editor: source, rulesets: usable, options: () => (schema.length ? ruleOptions(form, schema, "options.") : undefined) })),
    h("section", { class: "panel", style: "margin-top:1.2em" }, h("h2", {}, "My rules"), mine)));
  if (!guest) await loadMine();
}

// testTable is the page's test table, beside the editor: one game of a ruleset with bots in every
// seat and the script as edited (nothing uploaded), played in the ruleset's check process
// (POST /api/house-rules/try), its console filling as the game runs: the deal, each action,
// every line the rule prints (print, game.log) and the end, or the rule's failure, whose line the
// editor marks. Play runs it again with the editor's script as it is now; with "Play again after
// each edit" ticked, an edit does (once a game was played), the game before cut short.
function testTable({ editor, rulesets, options }) {
  const pick = h("select", { id: "try-ruleset", "aria-label": t("Game") }, rulesets.map((d) => h("option", { value: d.id }, d.name)));
  const seats = h("select", { id: "try-seats", "aria-label": t("Seats") });
  const seed = h("input", { id: "try-seed", type: "number", min: "1", value: "1", inputmode: "numeric", "aria-label": t("Deal number") });
  const fillSeats = () => {
    const d = rulesets.find((x) => x.id === pick.value);
    if (!d) return;
    const was = Number(seats.value) || 0;
    seats.replaceChildren(...Array.from({ length: d.max_seats - d.min_seats + 1 }, (_, i) => d.min_seats + i).map((n) => h("option", { value: n, selected: n === was || undefined }, String(n))));
  };
  pick.addEventListener("change", fillSeats);
  fillSeats();
  const again = h("input", { type: "checkbox", id: "try-again", checked: true });
  const log = h("div", { id: "rule-console", class: "rule-console", role: "log", "aria-label": t("Test game console"), tabindex: "0" },
    h("p", { class: "help" }, t("Play a test game to see what the rule prints as the game runs.")));
  const status = h("p", { class: "help", id: "try-status", role: "status" });
  const play = h("button", { class: "btn primary", type: "button", id: "rule-try" }, t("Play a test game"));
  let running = null, played = false, timer = 0, runs = 0;
  const line = (cls, text, attrs = {}) => {
    if (log.childElementCount >= 3000) return;
    log.append(h("div", { class: `console-line ${cls}`, ...attrs }, text));
    log.scrollTop = log.scrollHeight;
  };
  const run = async () => {
    if (running) running.abort();
    const ctl = new AbortController();
    running = ctl;
    played = true;
    const n = ++runs;
    log.replaceChildren();
    log.dataset.run = String(n);
    delete log.dataset.done;
    status.textContent = t("Playing…");
    editor.markError(0);
    const body = { source: editor.value, ruleset: pick.value, seats: Number(seats.value), seed: Math.max(1, Number(seed.value) || 1) };
    const opts = options();
    if (opts) body.options = opts;
    let outcome = "";
    try {
      await apiLines("POST", "/api/house-rules/try", body, (ev) => {
        if (ctl.signal.aborted) return;
        switch (ev.kind) {
          case "start":
            line("start", t("{rule} in a game of {game}: {seats} seats, bots of level {level}, deal {seed}", { rule: ev.rule, game: rulesets.find((d) => d.id === ev.ruleset)?.name || ev.ruleset, seats: ev.seats, level: ev.bot_level, seed: body.seed })
              + (ev.options ? ` \u00b7 ${Object.entries(ev.options).map(([k, v]) => `${k}=${v}`).join(", ")}` : ""));
            break;
          case "action":
            line("action", t("{seq}. Seat {seat}: {action}", { seq: ev.seq, seat: ev.seat + 1, action: ev.action }), { "data-seq": ev.seq });
            break;
          case "output":
            line("output", `[${ev.hook}] ${ev.text}`, { "data-hook": ev.hook, "data-seq": ev.seq });
            break;
          case "end":
            outcome = ev.ended ? "ended" : "cut-off";
            line("end", ev.ended ? t("The game ended after {n} actions.", { n: ev.actions }) : t("Cut off after {n} actions, before its end.", { n: ev.actions }));
            break;
          case "problem":
            outcome = "failed";
            problem({ message: ev.error.reason, problem: ev.error.problem });
            break;
        }
      }, ctl.signal);
    } catch (err) {
      if (ctl.signal.aborted) return;
      outcome = "failed";
      problem(err);
    }
    if (running !== ctl) return;
    running = null;
    log.dataset.done = outcome || "failed";
    status.textContent = outcome === "ended" ? t("Played to its end.") : outcome === "cut-off" ? t("Cut off before its end.") : t("The rule failed: see the console.");
  };
  const problem = (err) => {
    const p = err.problem;
    line("failure", p ? (p.line ? t("Line {line}", { line: p.line }) + (p.hook ? ` \u00b7 ${t("in {hook}", { hook: p.hook })}` : "") + ": " + p.message : p.message) : String(err.message ?? ""), { "data-line": (p && p.line) || 0 });
    if (p && p.hint) line("hint", t("Hint: {hint}", { hint: p.hint }));
    if (p && p.line) editor.markError(p.line);
  };
  play.addEventListener("click", run);
  editor.addEventListener("input", () => {
    if (!played || !again.checked) return;
    clearTimeout(timer);
    timer = setTimeout(run, 700);
  });
  return h("section", { class: "panel rule-test", id: "rule-test", "aria-labelledby": "rule-test-title" },
    h("h2", { id: "rule-test-title" }, t("Test table")),
    h("p", { class: "help" }, t("One game against bots with the script as it is in the editor: nothing is uploaded. It runs apart from the live games.")),
    h("div", { class: "row try-controls" },
      h("label", { class: "field" }, h("span", {}, t("Game")), pick),
      h("label", { class: "field" }, h("span", {}, t("Seats")), seats),
      h("label", { class: "field" }, h("span", {}, t("Deal number")), seed)),
    h("label", { class: "field row" }, again, h("span", {}, t("Play again after each edit"))),
    h("div", { class: "row" }, play),
    status, log);
}

// passed says a script checked (res: the check's answer) or was uploaded (up: the upload's
// answer, which is res too): what it declares, one line per dry-run game (with the rule's option
// values, and a game cut off before its end said so), how often each hook ran and did something,
// the hooks that never did anything, and the time the steps with the rule took of their budget.
function passed(res, up) {
  const games = res.dry_run || [];
  const d = up ? up.version || {} : res.declared || {};
  const name = up ? up.house_rule.name : d.name;
  const head = up
    ? h("p", { class: "ok-text", "data-uploaded": `${name} v${up.version.number}` }, `\u2713 Uploaded ${name} version ${up.version.number}: ${STATUS[up.version.status]?.[0] || up.version.status}. You can use it in rooms you host now; others once an admin approves it.`)
    : h("p", { class: "ok-text", "data-checked": name }, `\u2713 ${name} checks out.`);
  const parts = [];
  if (d.description) parts.push(h("p", {}, d.description));
  if ((d.options || []).length) parts.push(h("p", { class: "help" }, "Options: ", optionWords(d.options, {})));
  if ((d.actions || []).length) parts.push(h("p", { class: "help" }, "Actions: ", d.actions.map((a) => `${a.label} (${a.name}${a.blocking ? ", blocking" : ""})`).join(", ")));
  if ((d.hooks || []).length) parts.push(h("p", { class: "help" }, "Hooks: ", d.hooks.join(", ")));
  const cut = games.filter((g) => !g.ended);
  if (cut.length) {
    parts.push(h("p", { class: "warn-text", role: "status", "data-cut-off": cut.length }, `${cut.length} of ${games.length} dry-run games were cut off before their end (after ${cut[0].actions} actions): the check cannot say whether a game ends with this rule. Play it out with the command line (cardhouse rules check) or in a room you host.`));
  }
  const optionsOf = (g) => (g.options && Object.keys(g.options).length ? `, options ${Object.entries(g.options).map(([k, v]) => `${k}=${v}`).join(", ")}` : "");
  const list = h("ol", { class: "dry-run" }, games.map((g) => h("li", { class: g.ended ? "" : "cut-off", "data-ended": String(g.ended) },
    `${g.ruleset}, ${g.seats} seats, bots of level ${g.bot_level}${optionsOf(g)}: ${g.actions} actions, ${g.ended ? "played to its end" : "cut off before its end"}`)));
  const hooks = res.hooks || [];
  const counts = hooks.length
    ? h("table", { class: "hook-counts" }, h("caption", {}, `Hooks over the ${games.length} games: how often each ran, and how often it did something (refused, changed the table, ended the round, answered, opened, emitted)`),
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Hook"), h("th", { scope: "col" }, "Calls"), h("th", { scope: "col" }, "Did something"))),
      h("tbody", {}, hooks.map((c) => h("tr", { "data-hook": c.hook, class: c.fired ? "" : "never" }, h("td", {}, c.hook), h("td", {}, String(c.calls)), h("td", {}, String(c.fired))))))
    : "";
  const never = (res.never || []).length
    ? h("p", { class: "warn-text", "data-never": res.never.join(",") }, `Never did anything: ${res.never.join(", ")}. Is its condition ever true in these games?`)
    : "";
  const time = res.budget_ms ? h("p", { class: "help", "data-step-ms": res.step_ms }, `The steps with the rule took ${res.step_ms} ms of the check's budget of ${res.budget_ms / 1000} s (the game's moves and the rule's hooks, not the bots' thinking).`) : "";
  return h("div", { class: "rule-ok" }, head, ...parts, games.length ? [h("p", { class: "help" }, "Dry run:"), list] : "", counts, never, time);
}

// problemBox shows why a check or an upload failed: the line (with the script's lines around it),
// the hook, the dry-run game, the message and the hint; with editor (the page's, ruleEditor), a
// button that puts the cursor on the line.
function problemBox(err, source, editor) {
  const p = err.problem;
  if (!p) return h("div", { class: "rule-problem", role: "alert" }, h("p", { class: "message" }, String(err.message ?? "")));
  const where = [p.line ? h("b", { "data-line": p.line }, `Line ${p.line}`) : h("b", {}, "The script"), p.hook ? ` \u00b7 in ${p.hook}` : ""];
  const box = h("div", { class: "rule-problem", role: "alert", "data-line": p.line || 0 },
    h("p", { class: "where" }, ...where,
      p.line && editor ? h("button", { class: "btn ghost small", type: "button", "data-go-to-line": p.line, onclick: () => editor.goToLine(p.line) }, t("Go to line {line}", { line: p.line })) : ""),
    h("p", { class: "message" }, p.message),
    p.hint ? h("p", { class: "hint" }, h("b", {}, "Hint: "), p.hint) : "",
    p.where ? h("p", { class: "help" }, `During the ${p.where}.`) : "",
    p.options && Object.keys(p.options).length ? h("p", { class: "help", "data-options": Object.entries(p.options).map(([k, v]) => `${k}=${v}`).join(",") }, `With the rule's options ${Object.entries(p.options).map(([k, v]) => `${k}=${v}`).join(", ")}.`) : "");
  if (p.line) {
    const lines = source.split("\n");
    const from = Math.max(1, p.line - 2), to = Math.min(lines.length, p.line + 2);
    const pre = h("pre", { class: "excerpt", tabindex: "0", "aria-label": t("the script around line {line}", { line: p.line }) });
    for (let n = from; n <= to; n++) pre.append(h("span", { class: n === p.line ? "bad-line" : "" }, `${String(n).padStart(3)} ${n === p.line ? "\u25b6" : " "} ${lines[n - 1]}\n`));
    box.append(pre);
  }
  return box;
}

// ruleCard is one of my rules: its versions with their review and the reviewer's reason, their
// failures in live games (how many, the newest's message, line, hook, room and game), and a
// button that loads it into the editor for a new version (edit).
function ruleCard(r, rulesets, edit) {
  const names = (r.rulesets || []).map((id) => (rulesets || []).find((d) => d.id === id)?.name || id).join(", ");
  const versions = [...(r.versions || [])].sort((a, b) => b.number - a.number);
  return h("article", { class: "rule-card", "data-rule": r.name },
    h("div", { class: "row" }, h("b", { class: "grow" }, r.name), h("span", { class: "help" }, t("for {games}", { games: names })),
      h("button", { class: "btn ghost small", type: "button", "data-new-version": r.name, onclick: edit }, t("New version"))),
    h("p", {}, r.description),
    h("ul", { class: "versions" }, versions.map((v) => h("li", { "data-version": v.number, "data-status": v.status },
      h("div", { class: "row" }, h("b", {}, `v${v.number}`), statusChip(v.status), h("span", { class: "help" }, new Date(v.status_at || v.created_at).toLocaleString())),
      v.status_reason ? h("p", { class: "reason" }, t("Reviewer: \u201c{reason}\u201d", { reason: v.status_reason })) : "",
      v.failures ? failureBox(v.failures) : "",
      (v.options || []).length ? h("p", { class: "help" }, t("Options: "), optionWords(v.options, {})) : ""))));
}

// failureBox says how a version failed in live games: the count, the games, the suspensions and
// the newest failure (its line, hook, message, room and game).
function failureBox(f) {
  const last = f.last;
  return h("div", { class: "rule-failures", role: "status", "data-failures": f.count },
    h("p", {}, h("b", {}, t("Failed in live games: {count} times in {games} games", { count: f.count, games: f.games })),
      f.suspensions ? ` \u00b7 ${t("suspended for the rest of a game: {n}", { n: f.suspensions })}` : ""),
    last ? h("p", { class: "where" }, last.line ? h("b", { "data-line": last.line }, t("Line {line}", { line: last.line })) : h("b", {}, t("The script")),
      last.hook ? ` \u00b7 ${t("in {hook}", { hook: last.hook })}` : "",
      " \u00b7 ", t("room {room}, game {game}, action {seq}", { room: last.room, game: last.game, seq: last.seq }),
      " \u00b7 ", new Date(last.created_at).toLocaleString()) : "",
    last ? h("p", { class: "message", "data-last-failure": last.id }, last.message) : "");
}

// newestFailure is the id of the newest live failure among rules (0 for none).
function newestFailure(rules) {
  let id = 0;
  for (const r of rules || []) for (const v of r.versions || []) if (v.failures && v.failures.last) id = Math.max(id, v.failures.last.id);
  return id;
}

const SEEN_KEY = "cardhouse.rule-failures-seen";

function seenFailure() {
  try { return Number(localStorage.getItem(SEEN_KEY) || 0); } catch { return 0; }
}

function markFailuresSeen(id) {
  try { if (id > seenFailure()) localStorage.setItem(SEEN_KEY, String(id)); } catch { /* private mode */ }
}

// ruleAlerts is the lobby's notice that one of me's rules failed in a live game since the owner
// last opened "My rules": an element that fills itself once the server answers (empty for a
// guest, for no rules, or when nothing new failed).
export function ruleAlerts(me) {
  const el = h("div", { id: "rule-alerts" });
  if (!me || me.guest) return el;
  api("GET", "/api/house-rules?mine=true").then((res) => {
    const rules = res.house_rules || [];
    const newest = newestFailure(rules);
    if (newest <= seenFailure()) return;
    const failing = rules.filter((r) => (r.versions || []).some((v) => v.failures && v.failures.last && v.failures.last.id > seenFailure()));
    el.replaceChildren(h("div", { class: "banner bad notice", role: "status", "data-rule-alert": failing.map((r) => r.name).join(",") },
      t("Your house rule {names} failed in a live game.", { names: failing.map((r) => r.name).join(", ") }), " ",
      h("a", { href: "#/house-rules", id: "rule-alert-link" }, t("See My rules"))));
  }).catch(() => { /* the lobby works without it */ });
  return el;
}

// ---- The room form -----------------------------------------------------------------------------

// ruleChooser is the room form's "House rules": each rule this user may use in a room of the
// ruleset, a box to take it and, once taken, its options as a form. value() lists the rules
// taken as POST /api/rooms wants them ({name, options}); errors of those fields land beside them.
export function ruleChooser(ruleset, me) {
  const list = h("div", { class: "rule-choices" }, h("p", { class: "help" }, t("Loading house rules…")));
  const box = h("fieldset", { class: "house-rules-choice", id: "room-house-rules" }, h("legend", {}, t("House rules")), list, h("span", { class: "error-text", "data-for": "house_rules" }));
  let rules = [];
  api("GET", `/api/house-rules?ruleset=${encodeURIComponent(ruleset)}`).then((res) => {
    rules = (res.house_rules || []).filter((r) => usableVersion(r, me));
    if (!rules.length) return list.replaceChildren(h("p", { class: "help" }, t("None for this game yet."), " ", h("a", { href: "#/house-rules" }, t("Write one"))));
    list.replaceChildren(...rules.map((r, i) => ruleOption(r, usableVersion(r, me), i)));
  }).catch((err) => list.replaceChildren(h("p", { class: "error-text" }, err.message)));
  return {
    el: box,
    value(form) {
      const taken = rules.filter((r) => form.querySelector(`input[data-house-rule="${CSS.escape(r.name)}"]`)?.checked);
      // The server names a problem with the k-th rule sent house_rules[k]: its slot says so.
      for (const el of list.querySelectorAll(".rule-choice")) el.querySelector(".error-text").dataset.for = `house_rules[${taken.findIndex((r) => r.name === el.dataset.rule)}]`;
      return taken.map((r) => ({ name: r.name, options: ruleOptions(form, usableVersion(r, me).options, `house_rules.${r.name}.options.`) }));
    },
  };
}

// ruleOption is one rule of a chooser: the box, its description and review, its options (shown
// once taken), with values (current options) when given.
function ruleOption(r, v, i, values, taken) {
  const fields = h("div", { class: "rule-options" + (taken ? "" : " hidden") }, (v.options || []).map((o) => optionField(o, `house_rules.${r.name}.options.`, values ? values[o.name] : undefined)));
  const check = h("input", { type: "checkbox", "data-house-rule": r.name, checked: taken || undefined });
  check.addEventListener("change", () => fields.classList.toggle("hidden", !check.checked));
  return h("div", { class: "rule-choice", "data-rule": r.name },
    h("label", { class: "field row" }, check, h("span", {}, `${r.name} v${v.number}`), v.status !== "approved" ? statusChip(v.status) : "",
      h("span", { class: "help" }, r.description), h("span", { class: "error-text", "data-for": `house_rules[${i}]` })),
    fields);
}

// ---- The room: the rules in force, the host's controls ----------------------------------------

// roomRules is the room panel's "House rules" section for room ({code, info, you, me, takesRules:
// whether the ruleset's plugin runs house rules}), or "" when the room has none and its user is
// not a host who could add one. Every member
// sees the rules in force with their descriptions and option values; the host, between games,
// may set a rule's options, remove it, or add another.
export function roomRules(room) {
  const info = room.info || {};
  const you = room.you || {};
  const rules = info.house_rules || [];
  const between = !info.game || info.game.status !== "live";
  const host = !!you.host && between;
  if (!rules.length && (!host || !room.takesRules)) return "";
  const playing = (info.game && info.game.status === "live" && info.game.house_rules) || null;
  const items = rules.map((r) => h("li", { "data-rule": r.name, "data-usable": String(r.usable) },
    h("div", { class: "row" }, h("b", { class: "grow" }, `${r.name} v${r.version}`), r.status !== "approved" ? statusChip(r.status) : "",
      host && (r.schema || []).length ? h("button", { class: "btn ghost small", type: "button", "data-rule-edit": r.name, title: t("Options of {rule}", { rule: r.name }), onclick: () => ruleDialog(room, r.name) }, t("Options")) : "",
      host ? h("button", { class: "btn ghost small", type: "button", "data-rule-remove": r.name, title: t("Remove {rule}", { rule: r.name }), onclick: () => removeRule(room, r.name) }, t("Remove")) : ""),
    h("p", { class: "help rule-description" }, r.description),
    (r.schema || []).length ? h("p", { class: "help rule-settings" }, optionWords(r.schema, r.options)) : "",
    r.usable ? "" : h("p", { class: "error-text" }, t("No longer usable (an admin took it back): the next deal is refused until it is removed."))));
  return h("section", { class: "room-rules", id: "room-rules" }, h("h3", {}, t("House rules")),
    // The list scrolls in the side panel, where during a game it holds nothing focusable: it takes
    // the focus itself, so a keyboard can scroll it.
    rules.length ? h("ul", { tabindex: "0", "aria-label": t("house rules in force") }, items) : h("p", { class: "help" }, t("None: the game's own rules.")),
    playing && playing.length ? h("p", { class: "help" }, t("This game: {rules}", { rules: playing.join(", ") })) : "",
    host ? h("button", { class: "btn small", type: "button", id: "add-house-rule", onclick: () => ruleDialog(room, null) }, t("Add a house rule")) : "",
    h("p", { class: "error-text rules-error" }));
}

// ruleLog is the room panel's "Rule output" section: what the game's house rules printed (print,
// game.log) as the room sends it (house_log, docs/protocol.md): only to each rule's owner (their
// own rules' lines) and to admins, never to other players. lines: [{rule, hook, text}], oldest
// first; each line is marked with its rule's name.
export function ruleLog(lines) {
  return h("section", { class: "rule-log", id: "rule-log", "aria-label": t("what house rules printed") },
    h("h3", {}, t("Rule output"), " ", h("span", { class: "rule-log-note" }, t("· not for players"))),
    h("div", { class: "rule-log-lines" }, lines.map((l) => h("div", { class: l.failure ? "line failure" : "line", "data-rule": l.rule, "data-hook": l.hook, "data-failure": l.failure ? "true" : undefined, title: t("{rule}, in {hook}", { rule: l.rule, hook: l.hook }) },
      h("b", { class: "rule-tag" }, `[${l.rule}]`), " ", l.failure ? t("failed in {hook}, {text}", { hook: l.hook, text: l.text.replace(/^failed: /, "") }) : l.text))));
}

// failureText words a failure line of one's own rule (house_log, failure): the toast the room
// shows its owner, and its line in Rule output.
export function failureText(l) {
  return t("House rule {rule} failed in {hook}, {text}", { rule: l.rule, hook: l.hook, text: l.text.replace(/^failed: /, "") });
}

async function removeRule(room, name) {
  try {
    await api("DELETE", `/api/rooms/${room.code}/house-rules/${encodeURIComponent(name)}`);
  } catch (err) {
    const e = document.querySelector("#room-rules .rules-error");
    if (e) e.textContent = String(err.message ?? "");
  }
}

// ruleDialog lets the host enable a rule (name null: any the host may use that the room has not)
// or set the options of one the room has, in a dialog; the room's next update redraws the panel.
async function ruleDialog(room, name) {
  const info = room.info || {};
  const enabled = info.house_rules || [];
  const dlg = h("dialog", { "aria-label": name ? t("Options of {rule}", { rule: name }) : t("Add a house rule"), id: "rule-dialog" });
  const form = h("form", { method: "dialog" }, h("h2", {}, name ? t("{rule}: options", { rule: name }) : t("Add a house rule")), h("div", { class: "rule-choices" }, h("p", { class: "help" }, t("Loading…"))),
    h("p", { class: "error-text general", role: "alert" }),
    h("div", { class: "row", style: "justify-content:flex-end" }, h("button", { class: "btn ghost", type: "button", id: "rule-cancel", onclick: () => dlg.close() }, t("Cancel")), h("button", { class: "btn primary", type: "submit", id: "rule-enable" }, name ? t("Save") : t("Add"))));
  dlg.append(form);
  dlg.addEventListener("close", () => dlg.remove());
  document.body.append(dlg);
  dlg.showModal();
  // The list keeps its height as it loads (houserules.css), and a failure to load shows in its
  // place: nothing above the buttons grows, so they stay where a quick tap aims.
  let rules = [], failed = null;
  try {
    rules = ((await api("GET", `/api/house-rules?ruleset=${encodeURIComponent(info.ruleset)}`)).house_rules || []).filter((r) => usableVersion(r, room.me));
  } catch (err) {
    failed = err;
  }
  const list = form.querySelector(".rule-choices");
  if (failed && !name) {
    list.replaceChildren(h("p", { class: "error-text", role: "alert" }, String(failed.message ?? "")));
  } else if (name) {
    const cur = enabled.find((r) => r.name === name);
    const r = rules.find((x) => x.name === name) || { name, description: cur.description, versions: [] };
    const v = { number: cur.version, status: cur.status, options: cur.schema || [] };
    list.replaceChildren(ruleOption(r, v, 0, cur.options, true));
    list.querySelector("input[data-house-rule]").disabled = true;
  } else {
    const left = rules.filter((r) => !enabled.some((e) => e.name === r.name));
    list.replaceChildren(...(left.length ? left.map((r, i) => ruleOption(r, usableVersion(r, room.me), i)) : [h("p", { class: "help" }, t("No other rule for this game."), " ", h("a", { href: "#/house-rules" }, t("Write one")))]));
  }
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const picked = name ? [name] : [...form.querySelectorAll("input[data-house-rule]:checked")].map((b) => b.dataset.houseRule);
    if (!picked.length) { form.querySelector(".error-text.general").textContent = t("Pick a rule first."); return; }
    try {
      for (const n of picked) {
        const cur = enabled.find((r) => r.name === n);
        const schema = cur ? cur.schema : usableVersion(rules.find((r) => r.name === n), room.me).options;
        await api("POST", `/api/rooms/${room.code}/house-rules`, { name: n, version: cur ? cur.version : 0, options: ruleOptions(form, schema, `house_rules.${n}.options.`) });
      }
      dlg.close();
    } catch (err) {
      showErrors(form, err);
    }
  });
}
