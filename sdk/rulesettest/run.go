package rulesettest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"cardhouse/sdk"
	"cardhouse/sdk/engine"
)

// Run checks a ruleset in-process, for every seat count and option set of cfg: everything
// RunEngine checks (through engine.New(r); the long bot playouts through an in-memory engine
// that skips the state codec but checks the cards just as strictly), and on the ruleset's own state type, replaying
// every action a random playout tried (accepted and refused, bad ones included):
//   - Apply never mutates its input (the state's JSON before and after Apply is the same), nor do
//     the read-only calls: View, Status, Observe, Cards and History, nor a bot (level 1) editing the
//     view it was given (the engine shares decoded states between calls, so any of these that
//     writes into a state, or hands out a slice a bot may sort, corrupts later calls);
//   - a refused action returns a *sdk.RuleError with a reason; an accepted one keeps the card
//     multiset (Cards);
//   - for every viewer (each seat and the spectators) the view is structurally hidden while the
//     round is played (no cards in hand zones the viewer does not own; once it is over the hands
//     left may be shown, and Redeal then keeps them) and, through the ruleset's sdk.Redealer (required),
//     unchanged when what the viewer cannot see is redealt (views compared as JSON, events
//     excluded); the redeal keeps the cards and does not mutate its input; no view's JSON
//     (AppendJSON) holds a null, which only a nil list writes;
//   - the patch check (checkPatches): through a sticky engine asked for patches, every step's
//     views are View's, and every seat's and the spectators' patch is the diff of the whole views
//     before and after (sdk.AppendViewPatch), byte for byte, however the engine made it;
//   - when the ruleset implements sdk.StateAppender, AppendState writes every state (and every
//     redealt one) byte for byte as json.Marshal does;
//   - when the ruleset implements sdk.TableEditor, SetTable(Table(s)) gives back an equivalent state
//     (same table, observation and cards), and an edit that loses a card is either refused or
//     shows in Cards, so the engine's conservation check catches it.
func Run[S any](t *testing.T, r sdk.Ruleset[S], cfg Config) {
	t.Helper()
	run(context.Background(), t, r, cfg, func(name string, f func(testing.TB)) {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			f(t)
		})
	})
}

func run[S any](ctx context.Context, tb testing.TB, r sdk.Ruleset[S], cfg Config, sub func(string, func(testing.TB))) {
	tb.Helper()
	info := r.Info()
	if _, ok := r.(sdk.Redealer[S]); !ok {
		tb.Errorf("%s does not implement sdk.Redealer[%T]: the kit needs Redeal to check that views hide what their viewer cannot see", info.ID, *new(S))
	}
	e := engine.New(r)
	runEngine(ctx, tb, e, func() engine.Engine { return newMemEngine(r) }, cfg, func(name string, f func(testing.TB)) { sub("engine/"+name, f) })
	cfg = cfg.withDefaults(info)
	if cfg.BotLevel == 0 && len(info.BotLevels) > 0 {
		cfg.BotLevel = slices.Min(info.BotLevels)
	}
	for _, g := range games(ctx, tb, e, cfg) {
		sub("state/"+g.String(), func(tb testing.TB) { checkStates(ctx, tb, r, newMemEngine(r), cfg, g) })
		sub("patches/"+g.String(), func(tb testing.TB) { checkPatches(ctx, tb, r, cfg, g) })
	}
}

// tried is an action a playout tried, and whether the engine accepted it.
type tried struct {
	Move
	accepted bool
}

// checkStates replays a random playout's attempts on S directly.
func checkStates[S any](ctx context.Context, tb testing.TB, r sdk.Ruleset[S], e engine.Engine, cfg Config, g game) {
	tb.Helper()
	var attempts []tried
	pc := PlayoutConfig{
		Seats: g.seats, Options: g.options, Seed: g.seed, Level: cfg.BotLevel, Random: 0.7, Bad: 0.3,
		MaxSteps: cfg.RandomSteps, Games: 1 << 30, Views: true,
		OnAct: func(_ context.Context, a Attempt) error {
			attempts = append(attempts, tried{Move: Move{Action: a.Action, Now: a.Now}, accepted: a.Err == nil})
			return nil
		},
	}
	// The engine-level checks report the playout's own failures; here it only supplies actions.
	_, _ = Playout(ctx, e, pc)

	info := r.Info()
	opts, err := sdk.CheckOptions(info, r, g.seats, g.options)
	if err != nil {
		tb.Fatalf("options: %v", err)
		return
	}
	rng := sdk.NewRNG(g.seed)
	s, err := r.Start(ctx, sdk.StartRequest{Seats: g.seats, Options: opts, Seed: g.seed, RNG: rng})
	if err != nil {
		tb.Fatalf("start: %v", err)
		return
	}
	c := &stateChecker[S]{tb: tb, r: r, seed: g.seed}
	c.checkState(s, "the start")
	for i, a := range attempts {
		if tb.Failed() {
			return
		}
		what := fmt.Sprintf("attempt %d (%s)", i+1, describe(a.Action))
		before, err := json.Marshal(s)
		if err != nil {
			tb.Fatalf("%s: the state does not encode: %v", what, err)
			return
		}
		cards := r.Cards(s)
		res, err := apply(ctx, r, s, a.Move)
		after, _ := json.Marshal(s)
		if !bytes.Equal(before, after) {
			tb.Errorf("%s: Apply mutated its input state:\nbefore: %.400s\nafter:  %.400s", what, before, after)
			return
		}
		if err != nil {
			re, ok := sdk.AsRefusal(err)
			switch {
			case !ok:
				tb.Errorf("%s: Apply failed with %T: %v, want a *sdk.RuleError or success", what, err, err)
				return
			case strings.TrimSpace(re.Reason) == "":
				tb.Errorf("%s: refused (code %q) with an empty reason", what, re.Code)
			case a.accepted:
				tb.Errorf("%s: refused in-process (%v) but accepted through the engine: not deterministic", what, err)
				return
			}
			continue
		}
		if !a.accepted {
			tb.Errorf("%s: accepted in-process but refused through the engine: not deterministic", what)
			return
		}
		if d := sdk.CardDiff(cards, r.Cards(res.State)); d != "" {
			tb.Errorf("%s: cards %s", what, d)
			return
		}
		s = res.State
		c.checkState(s, what)
	}
}

// apply calls Apply with panics turned into errors (the engine does the same).
func apply[S any](ctx context.Context, r sdk.Ruleset[S], s S, m Move) (res sdk.ApplyResponse[S], err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic: %v", p)
		}
	}()
	return r.Apply(ctx, sdk.ApplyRequest[S]{State: s, Action: m.Action, Now: m.Now})
}

type stateChecker[S any] struct {
	tb   testing.TB
	r    sdk.Ruleset[S]
	seed uint64
	n    uint64
}

// readOnly reports whether the calls that must only read a state leave it as it was, including a
// bot that sorts and trims the cards of the view it is given (the view must not share the state's
// slices).
func (c *stateChecker[S]) readOnly(s S, viewers []int) bool {
	before, _ := json.Marshal(s)
	c.r.Status(s)
	c.r.Observe(s)
	c.r.Cards(s)
	hist, _ := c.r.(sdk.Historian[S])
	bots, _ := c.r.(sdk.Bots)
	for _, v := range viewers {
		view := c.r.View(s, v)
		if v < 0 {
			continue
		}
		if hist != nil {
			hist.History(s, v)
		}
		if bots != nil {
			rng := sdk.NewRNG(c.seed + uint64(v))
			_, _ = bots.Bot(context.Background(), sdk.BotRequest{Seat: v, Level: 1, View: view, RNG: &rng})
		}
		for _, z := range view.Zones {
			slices.Reverse(z.Cards)
			if len(z.Cards) > 0 {
				z.Cards[0] = 0
			}
		}
	}
	after, _ := json.Marshal(s)
	return bytes.Equal(before, after)
}

// appendsAsMarshal checks a ruleset's sdk.StateAppender on s: it must write what json.Marshal
// writes, byte for byte (a ruleset without one passes).
func (c *stateChecker[S]) appendsAsMarshal(s S, where string) bool {
	c.tb.Helper()
	ap, ok := c.r.(sdk.StateAppender[S])
	if !ok {
		return true
	}
	want, err := json.Marshal(s)
	if err != nil {
		c.tb.Errorf("after %s: the state does not encode: %v", where, err)
		return false
	}
	prefix := []byte("prefix")
	got := ap.AppendState(slices.Clone(prefix), s)
	if !bytes.HasPrefix(got, prefix) || !bytes.Equal(got[len(prefix):], want) {
		c.tb.Errorf("after %s: AppendState writes another JSON than json.Marshal, or overwrites what it appends to (first: json.Marshal, replay: AppendState):\n%s", where, firstDifference(want, got[min(len(prefix), len(got)):]))
		return false
	}
	return true
}

// checkState checks the views (structure and redeal) and the table of one state.
func (c *stateChecker[S]) checkState(s S, where string) {
	c.tb.Helper()
	st := c.r.Status(s)
	viewers := []int{sdk.Spectator}
	for i := range st.Seats {
		viewers = append(viewers, i)
	}
	if !c.readOnly(s, viewers) {
		c.tb.Errorf("after %s: a read-only call (View, Status, Observe, Cards, History, or a bot editing its view) changed the state", where)
		return
	}
	if !c.appendsAsMarshal(s, where) {
		return
	}
	redealer, _ := c.r.(sdk.Redealer[S])
	for _, v := range viewers {
		view := c.r.View(s, v)
		if msg := handLeak(view, v); msg != "" {
			c.tb.Errorf("after %s: %s", where, msg)
			return
		}
		if path, err := viewNull(view.AppendJSON(nil)); err != nil || path != "" {
			if err != nil {
				c.tb.Errorf("after %s: the view of %s is not JSON: %v", where, viewerName(v), err)
			} else {
				c.tb.Errorf("after %s: %s", where, nullMessage(v, path))
			}
			return
		}
		if redealer == nil {
			continue
		}
		c.n++
		rng := sdk.NewRNG(c.seed*7919 + c.n)
		before, _ := json.Marshal(s)
		other := redealer.Redeal(s, v, &rng)
		if after, _ := json.Marshal(s); !bytes.Equal(before, after) {
			c.tb.Errorf("after %s: Redeal for %s mutated its input state", where, viewerName(v))
			return
		}
		if d := sdk.CardDiff(c.r.Cards(s), c.r.Cards(other)); d != "" {
			c.tb.Errorf("after %s: Redeal for %s changed the cards: %s", where, viewerName(v), d)
			return
		}
		if !c.appendsAsMarshal(other, fmt.Sprintf("%s, redealt for %s", where, viewerName(v))) {
			return
		}
		a, b := viewJSON(view), viewJSON(c.r.View(other, v))
		if !bytes.Equal(a, b) {
			c.tb.Errorf("after %s: the view of %s changes when the cards it cannot see are redealt, so it shows them:\n%s", where, viewerName(v), jsonDiff(a, b))
			return
		}
	}
	if ed, ok := c.r.(sdk.TableEditor[S]); ok {
		c.checkTable(ed, s, where)
	}
}

func viewJSON(v sdk.View) []byte {
	v.Events = nil
	b, err := json.Marshal(v)
	if err != nil {
		return []byte(fmt.Sprintf("<view does not encode: %v>", err))
	}
	return b
}

// jsonDiff names the first top-level fields where two JSON objects differ.
func jsonDiff(a, b []byte) string {
	var ma, mb map[string]json.RawMessage
	if json.Unmarshal(a, &ma) != nil || json.Unmarshal(b, &mb) != nil {
		return fmt.Sprintf("view:    %.400s\nredealt: %.400s", a, b)
	}
	keys := map[string]bool{}
	for k := range ma {
		keys[k] = true
	}
	for k := range mb {
		keys[k] = true
	}
	var ks []string
	for k := range keys {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	var out []string
	for _, k := range ks {
		if !equalJSON(ma[k], mb[k]) {
			out = append(out, fmt.Sprintf("%s:\n  view:    %.300s\n  redealt: %.300s", k, ma[k], mb[k]))
		}
	}
	return strings.Join(out, "\n")
}

// checkTable checks that SetTable(Table(s)) round-trips and that losing a card is caught.
func (c *stateChecker[S]) checkTable(ed sdk.TableEditor[S], s S, where string) {
	c.tb.Helper()
	tab := ed.Table(s)
	before, _ := json.Marshal(s)
	back, err := ed.SetTable(s, tab.Clone())
	if err != nil {
		c.tb.Errorf("after %s: SetTable(Table(s)) refused its own table: %v", where, err)
		return
	}
	if after, _ := json.Marshal(s); !bytes.Equal(before, after) {
		c.tb.Errorf("after %s: SetTable mutated its input state", where)
		return
	}
	if got := ed.Table(back); !reflect.DeepEqual(normTable(tab), normTable(got)) {
		a, _ := json.Marshal(tab)
		b, _ := json.Marshal(got)
		c.tb.Errorf("after %s: Table(SetTable(s, Table(s))) differs from Table(s):\nwant %.400s\ngot  %.400s", where, a, b)
		return
	}
	if d := sdk.CardDiff(c.r.Cards(s), c.r.Cards(back)); d != "" {
		c.tb.Errorf("after %s: SetTable(Table(s)) changed the cards: %s", where, d)
		return
	}
	a, _ := json.Marshal(c.r.Observe(s))
	b, _ := json.Marshal(c.r.Observe(back))
	if !bytes.Equal(a, b) {
		c.tb.Errorf("after %s: SetTable(Table(s)) changed the observation:\nwant %.400s\ngot  %.400s", where, a, b)
		return
	}
	// Lose one card: the edit must be refused or show in Cards.
	zones := make([]string, 0, len(tab.Zones))
	for k := range tab.Zones {
		zones = append(zones, k)
	}
	sort.Strings(zones)
	for _, z := range zones {
		cards := tab.Zones[z]
		i := len(cards) - 1
		for i >= 0 && cards[i] == 0 {
			i--
		}
		if i < 0 {
			continue
		}
		lost := cards[i]
		edit := tab.Clone()
		edit.Zones[z] = append(edit.Zones[z][:i:i], edit.Zones[z][i+1:]...)
		out, err := ed.SetTable(s, edit)
		if err != nil {
			if !errors.Is(err, sdk.ErrIllegal) {
				c.tb.Errorf("after %s: SetTable of a table without %s from %s failed with %v, want a refusal or a state", where, lost, z, err)
			}
			return
		}
		if d := sdk.CardDiff(c.r.Cards(s), c.r.Cards(out)); d != "lost "+lost.String() {
			c.tb.Errorf("after %s: SetTable of a table without %s from %s: Cards shows %q, want %q (the engine could not catch the loss)", where, lost, z, d, "lost "+lost.String())
		}
		return
	}
}

// normTable makes nil and empty zones, counters and values compare equal.
func normTable(t sdk.Table) sdk.Table {
	out := t.Clone()
	for k, v := range out.Zones {
		if len(v) == 0 {
			out.Zones[k] = nil
		}
	}
	if len(out.Counters) == 0 {
		out.Counters = nil
	}
	if len(out.Values) == 0 {
		out.Values = nil
	}
	return out
}
