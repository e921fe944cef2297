package houserules

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"cardhouse/sdk"
	"cardhouse/sdk/botplay"
	"cardhouse/sdk/engine"
)

// ReferenceGames is how many bot games Reference plays to see a variant's counters, values and
// actions at work; each stops after ReferenceSteps actions.
const (
	ReferenceGames = 3
	ReferenceSteps = 1500
)

// probe is the house rule Reference runs: it prints the table as a rule sees it, the zones at the
// start, the counters and values after every action.
const probe = `name = "reference-probe"
description = "Prints the table for the modder's reference."
local function numbers(game)
  for k, v in pairs(game.counters) do print("counter", k, v) end
  for k, v in pairs(game.values) do print("value", k, v) end
end
function on_start(game)
  for k, v in pairs(game.zones) do print("zone", k, #v) end
  numbers(game)
end
function after_action(game, action) numbers(game) end
`

// seatNumber finds the seat number a per-seat name ends with ("hand.0", "score.3").
var seatNumber = regexp.MustCompile(`\.\d+$`)

// Reference writes a modder's reference of the variant e serves, as Markdown, from the ruleset
// itself: its zones, counters and values as a house rule sees them (read by a probe rule, at the
// start of a game and after every action of a few bot games), the actions its views offer and the
// fields players send with them, its card codes and the questions it asks house rules. e must run
// house rules (an engine with a runner, or a plugin serving one). The output is the same for the
// same ruleset: `cardhouse rules reference` writes it to docs/house-rules/ID.md.
func Reference(ctx context.Context, e engine.Engine) (string, error) {
	d, err := e.Describe(ctx)
	if err != nil {
		return "", err
	}
	if !d.HouseRules {
		return "", fmt.Errorf("the %s engine runs no house rules", d.ID)
	}
	ref := &reference{desc: d, zones: map[string]int{}, counters: map[string]*span{}, values: map[string]map[string]bool{},
		actions: map[string]*actionRef{}}
	rule := sdk.HouseRule{Name: "reference-probe", Source: probe}
	level := 1
	if len(d.BotLevels) > 0 {
		level = d.BotLevels[0]
	}
	for g := range ReferenceGames {
		seats := min(d.MinSeats+g, d.MaxSeats)
		seed := uint64(g + 1)
		res, err := botplay.Play(ctx, e, botplay.Config{Seats: seats, Seed: seed, HouseRules: []sdk.HouseRule{rule}, Views: true,
			Bot:      botplay.EngineBot(e, botplay.Level(level), func(t *botplay.Turn) uint64 { return seed*7919 + uint64(t.N+1)*31 + uint64(t.Index) }),
			MaxSteps: ReferenceSteps,
			OnAct: func(_ context.Context, a botplay.Attempt) error {
				if a.Err == nil {
					ref.action(a.Action)
					return ref.step(a.Step, false)
				}
				return nil
			}})
		if err != nil {
			return "", fmt.Errorf("bot game %d of %s: %w", g+1, d.ID, err)
		}
		if err := ref.step(res.Start, g == 0); err != nil {
			return "", err
		}
		if g == 0 {
			in, err := e.Inspect(ctx, &engine.InspectRequest{State: res.Start.State})
			if err != nil {
				return "", err
			}
			ref.cards = in.Cards
			ref.seats = seats
		}
	}
	return ref.markdown(), nil
}

// span is the smallest and largest value a counter was seen with.
type span struct{ lo, hi int }

// actionRef is what the views and the accepted actions showed of one action type.
type actionRef struct {
	labels  map[string]bool
	seats   map[string]bool // "seats", "the host", "the clock"
	fields  map[string]bool
	choices map[string]bool
	from    map[string]bool
	multi   bool
}

type reference struct {
	desc     *engine.Description
	seats    int
	zones    map[string]int
	counters map[string]*span
	values   map[string]map[string]bool
	actions  map[string]*actionRef
	cards    []sdk.Card
}

func (r *reference) act(typ string) *actionRef {
	a := r.actions[typ]
	if a == nil {
		a = &actionRef{labels: map[string]bool{}, seats: map[string]bool{}, fields: map[string]bool{}, choices: map[string]bool{}, from: map[string]bool{}}
		r.actions[typ] = a
	}
	return a
}

// action notes an accepted action: who sent it and the fields it carried.
func (r *reference) action(a sdk.Action) {
	ar := r.act(a.Type)
	switch {
	case a.Seat == sdk.Host:
		ar.seats["the host (seat -2)"] = true
	case a.Seat == sdk.Clock:
		ar.seats["the clock (seat -1)"] = true
	default:
		ar.seats["a seat"] = true
	}
	for _, f := range []struct {
		name string
		set  bool
	}{{"cards", len(a.Cards) > 0}, {"choice", a.Choice() != ""}, {"from", a.From != ""},
		{"target", a.Target != nil}, {"index", a.Index != nil}, {"deadline", a.Deadline != ""}} {
		if f.set {
			ar.fields[f.name] = true
		}
	}
	for k := range a.Args {
		if k != sdk.ArgChoice { // the choice, above
			ar.fields["args."+k] = true
		}
	}
}

// step reads a step's probe output (with zones, the start's) and the actions its views offer.
func (r *reference) step(st *engine.Step, zones bool) error {
	if st == nil {
		return nil
	}
	if st.House != nil {
		for _, l := range st.House.Log {
			f := strings.Split(l.Text, "\t")
			if len(f) != 3 {
				continue
			}
			name := f[1]
			switch f[0] {
			case "zone":
				if n, err := strconv.Atoi(f[2]); err == nil && zones {
					r.zones[name] = n
				}
			case "counter":
				n, err := strconv.Atoi(f[2])
				if err != nil {
					continue
				}
				name = seatNumber.ReplaceAllString(name, ".N")
				if s := r.counters[name]; s == nil {
					r.counters[name] = &span{n, n}
				} else {
					s.lo, s.hi = min(s.lo, n), max(s.hi, n)
				}
			case "value":
				name = seatNumber.ReplaceAllString(name, ".N")
				if r.values[name] == nil {
					r.values[name] = map[string]bool{}
				}
				if len(r.values[name]) < 24 {
					r.values[name][f[2]] = true
				}
			}
		}
	}
	for _, raw := range st.Views {
		var v sdk.View
		if err := json.Unmarshal(raw, &v); err != nil {
			return fmt.Errorf("reading a view: %w", err)
		}
		for _, sp := range v.Actions {
			ar := r.act(sp.Type)
			ar.seats["a seat"] = true
			if sp.Label != "" {
				ar.labels[sp.Label] = true
			}
			ar.multi = ar.multi || sp.Multi
			if len(sp.Cards) > 0 {
				ar.fields["cards"] = true
			}
			if len(sp.Targets) > 0 {
				ar.fields["target"] = true
			}
			if len(sp.Indexes) > 0 {
				ar.fields["index"] = true
			}
			if sp.From != "" {
				ar.from[sp.From] = true
			}
			for _, c := range sp.Choices {
				ar.choices[c] = true
			}
			for _, k := range sp.Args {
				ar.fields["args."+k] = true
			}
		}
	}
	return nil
}

func (r *reference) markdown() string {
	d := r.desc
	var b strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	p("# House-rule reference: %s (`%s`)\n\n", d.Name, d.ID)
	p("What a house rule sees of %s, generated from the ruleset itself by\n`cardhouse rules reference --ruleset %s` (do not edit it by hand; a test fails when it is stale).\n", d.Name, d.ID)
	p("[House rules in Lua](../house-rules.md) explains the hooks and the `game` table. %s seats %d to %d.\n\n", d.Name, d.MinSeats, d.MaxSeats)

	p("## Zones\n\n`game.zones[NAME]`: lists of card codes. A name ending in `.N` is one zone per seat (`.0` to\n`.%d` in a %d-seat game).\n\n", d.MaxSeats-1, d.MaxSeats)
	p("| zone | cards at the start of a %d-seat game |\n| --- | --- |\n", r.seats)
	perSeat := map[string][]int{}
	for name, n := range r.zones {
		g := seatNumber.ReplaceAllString(name, ".N")
		perSeat[g] = append(perSeat[g], n)
	}
	for _, name := range slices.Sorted(maps.Keys(perSeat)) {
		ns := perSeat[name]
		slices.Sort(ns)
		if ns[0] == ns[len(ns)-1] {
			p("| `%s` | %d |\n", name, ns[0])
		} else {
			p("| `%s` | %d to %d |\n", name, ns[0], ns[len(ns)-1])
		}
	}

	p("\n## Counters\n\n`game.counters[NAME]`: whole numbers a hook reads and may set; the ruleset refuses what it cannot\ntake (a value out of range, a change it does not allow), and a name not listed here is an error.\n\n")
	if len(r.counters) == 0 {
		p("None: %s keeps no counters for house rules.\n", d.Name)
	} else {
		p("| counter | seen in %d bot games |\n| --- | --- |\n", ReferenceGames)
		for _, name := range slices.Sorted(maps.Keys(r.counters)) {
			s := r.counters[name]
			if s.lo == s.hi {
				p("| `%s` | %d |\n", name, s.lo)
			} else {
				p("| `%s` | %d to %d |\n", name, s.lo, s.hi)
			}
		}
	}

	p("\n## Values\n\n`game.values[NAME]`: words a hook reads and may set, as counters are.\n\n")
	if len(r.values) == 0 {
		p("None: %s keeps no values for house rules.\n", d.Name)
	} else {
		p("| value | seen in %d bot games |\n| --- | --- |\n", ReferenceGames)
		for _, name := range slices.Sorted(maps.Keys(r.values)) {
			var seen []string
			cards := 0
			for _, v := range slices.Sorted(maps.Keys(r.values[name])) {
				if _, err := sdk.ParseCard(v); err == nil {
					cards++
					continue
				}
				seen = append(seen, fmt.Sprintf("`%q`", v))
			}
			if cards > 0 {
				seen = append(seen, "a card code")
			}
			p("| `%s` | %s |\n", name, strings.Join(seen, ", "))
		}
	}

	p("\n## Actions\n\nThe `action` of `before_action` and `after_action`: `action.type` and the fields sent with it\n(a house rule's own actions come on top).\n\n")
	p("| type | sent by | label | fields |\n| --- | --- | --- | --- |\n")
	for _, typ := range slices.Sorted(maps.Keys(r.actions)) {
		a := r.actions[typ]
		var fields []string
		for _, f := range slices.Sorted(maps.Keys(a.fields)) {
			switch {
			case f == "cards" && a.multi:
				f = "cards (one or several)"
			case f == "from" && len(a.from) > 0:
				f = "from (" + strings.Join(quoted(a.from), ", ") + ")"
			case f == "choice" && len(a.choices) > 0:
				f += " (" + strings.Join(quoted(a.choices), ", ") + ")"
			}
			fields = append(fields, f)
		}
		p("| `%s` | %s | %s | %s |\n", typ, strings.Join(slices.Sorted(maps.Keys(a.seats)), ", "),
			strings.Join(slices.Sorted(maps.Keys(a.labels)), ", "), strings.Join(fields, ", "))
	}

	p("\n## Card codes\n\nEvery card of a %d-seat game, as `cards.*` and the zones spell them (×N: that many copies).\n\n", r.seats)
	count := map[sdk.Card]int{}
	for _, c := range r.cards {
		count[c]++
	}
	var codes []string
	for _, c := range slices.Sorted(maps.Keys(count)) {
		s := "`" + c.String() + "`"
		if count[c] > 1 {
			s += fmt.Sprintf(" ×%d", count[c])
		}
		codes = append(codes, s)
	}
	p("%s\n", strings.Join(codes, " "))

	p("\n## Questions for `answers`\n\n")
	if len(d.HouseHooks) == 0 {
		p("None: %s asks house rules no questions.\n", d.Name)
	} else {
		p("| question | args | asks |\n| --- | --- | --- |\n")
		for _, h := range d.HouseHooks {
			p("| `%s` | %s | %s |\n", h.Name, strings.Join(quotedList(h.Args), ", "), h.Description)
		}
	}
	return b.String()
}

func quoted(set map[string]bool) []string { return quotedList(slices.Sorted(maps.Keys(set))) }

func quotedList(xs []string) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = "`" + x + "`"
	}
	return out
}
