package rulesettest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"cardhouse/sdk"
	"cardhouse/sdk/engine"
)

// Config says which games the kit plays. The zero Config checks every seat count of the ruleset
// with its default options.
type Config struct {
	// Seats are the seat counts to check; empty means every count from MinSeats to MaxSeats.
	Seats []int
	// Options are the option sets to check, each with every seat count; empty means the defaults
	// only. A set that is invalid for a seat count (the ruleset refuses it) is skipped for it.
	Options []map[string]any
	// Seeds is how many seeds each combination is played with; 0 means 2.
	Seeds int
	// RandomSteps bounds each random playout (random and bad actions, checked step by step);
	// 0 means 150.
	RandomSteps int
	// MaxSteps bounds each bot playout: it must reach game_over within this many accepted steps;
	// 0 means 20000.
	MaxSteps int
	// BotLevel is the level of the bot playouts; 0 means the lowest of the ruleset's BotLevels.
	BotLevel int
}

func (c Config) withDefaults(info sdk.Info) Config {
	if len(c.Seats) == 0 {
		for n := info.MinSeats; n <= info.MaxSeats; n++ {
			c.Seats = append(c.Seats, n)
		}
	}
	if len(c.Options) == 0 {
		c.Options = []map[string]any{nil}
	}
	if c.Seeds <= 0 {
		c.Seeds = 2
	}
	if c.RandomSteps <= 0 {
		c.RandomSteps = 150
	}
	if c.MaxSteps <= 0 {
		c.MaxSteps = 20000
	}
	return c
}

// game is one combination the kit plays.
type game struct {
	seats   int
	options map[string]any
	seed    uint64
}

func (g game) String() string {
	return fmt.Sprintf("seats=%d/options=%s/seed=%d", g.seats, optionsName(g.options), g.seed)
}

func optionsName(o map[string]any) string {
	if len(o) == 0 {
		return "default"
	}
	keys := make([]string, 0, len(o))
	for k := range o {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s:%v", k, o[k])
	}
	return strings.Join(parts, ",")
}

// games lists the combinations of cfg the ruleset accepts (probing each with NewGame).
func games(ctx context.Context, tb testing.TB, e engine.Engine, cfg Config) []game {
	tb.Helper()
	var out []game
	for _, opts := range cfg.Options {
		for _, n := range cfg.Seats {
			_, err := e.NewGame(ctx, &engine.NewGameRequest{Seats: n, Options: opts, Seed: 1, NoViews: true})
			if re, ok := sdk.AsRefusal(err); ok && re.Code == sdk.CodeBadOption {
				tb.Logf("skipping %d seats with options %s: %s", n, optionsName(opts), re.Reason)
				continue
			}
			if err != nil {
				tb.Errorf("new game of %d seats, options %s: %v", n, optionsName(opts), err)
				continue
			}
			for i := range cfg.Seeds {
				out = append(out, game{seats: n, options: opts, seed: uint64(1000*n + 17*i + 1)})
			}
		}
	}
	if len(out) == 0 {
		tb.Errorf("no game to check: the ruleset refused every combination of seats %v and options %v", cfg.Seats, cfg.Options)
	}
	return out
}

// RunEngine runs the checks possible through the byte-level Engine, so they also run across the
// real plugin process: for every seat count, option set and seed of cfg
//   - random playouts with deliberately bad actions: every refusal is a *sdk.RuleError (errors.Is
//     sdk.ErrIllegal) with a reason, and Inspect reads the old state the same after it; no
//     accepted action fails or loses a card (Inspect().Cards keeps the starting multiset); every
//     seat's view shows no cards of another seat's hand and the spectators' view no hand cards;
//     no view holds a null (a nil list, which a view patch cannot say: leave lists empty instead);
//   - determinism: the same seed and the same actions give the same state bytes and events;
//   - bot playouts (host dealing on round_over) reach game_over within cfg.MaxSteps.
func RunEngine(t *testing.T, e engine.Engine, cfg Config) {
	t.Helper()
	runEngine(context.Background(), t, e, func() engine.Engine { return e }, cfg, func(name string, f func(tb testing.TB)) {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			f(t)
		})
	})
}

// runEngine runs the engine checks on e, each bot playout on an engine botsEngine makes (Run
// passes a fresh, faster in-memory engine of the same ruleset for each).
func runEngine(ctx context.Context, tb testing.TB, e engine.Engine, botsEngine func() engine.Engine, cfg Config, sub func(string, func(testing.TB))) {
	tb.Helper()
	desc, err := e.Describe(ctx)
	if err != nil {
		tb.Fatalf("describe: %v", err)
		return
	}
	cfg = cfg.withDefaults(desc.Info)
	if cfg.BotLevel == 0 && len(desc.BotLevels) > 0 {
		cfg.BotLevel = slices.Min(desc.BotLevels)
	}
	for _, g := range games(ctx, tb, e, cfg) {
		sub("random/"+g.String(), func(tb testing.TB) { checkRandomPlayout(ctx, tb, e, cfg, g) })
		if len(desc.BotLevels) > 0 {
			sub("bots/"+g.String(), func(tb testing.TB) { checkBotPlayout(ctx, tb, botsEngine(), cfg, g) })
		}
	}
	if len(desc.BotLevels) == 0 {
		tb.Logf("%s declares no bot levels: bot playouts not checked", desc.ID)
	}
}

// checkRandomPlayout plays random and bad actions, checking each, then replays the game.
func checkRandomPlayout(ctx context.Context, tb testing.TB, e engine.Engine, cfg Config, g game) {
	tb.Helper()
	pc := PlayoutConfig{
		Seats: g.seats, Options: g.options, Seed: g.seed, Level: cfg.BotLevel, Random: 0.7, Bad: 0.3,
		MaxSteps: cfg.RandomSteps, Games: 1 << 30, Views: true,
	}
	var start []sdk.Card
	var digests []stepDigest
	var fails []string
	fail := func(format string, args ...any) error {
		fails = append(fails, fmt.Sprintf(format, args...))
		if len(fails) >= 5 {
			return errors.New("too many failures")
		}
		return nil
	}
	pc.OnAct = func(ctx context.Context, a Attempt) error {
		if start == nil {
			in, err := e.Inspect(ctx, &engine.InspectRequest{State: a.Before})
			if err != nil {
				return fmt.Errorf("inspect: %w", err)
			}
			start = in.Cards
			digests = append(digests, digest(a.BeforeStep))
			if msg := viewLeak(a.BeforeStep); msg != "" {
				if err := fail("at the start: %s", msg); err != nil {
					return err
				}
			}
		}
		what := fmt.Sprintf("%s action %s", a.Kind, describe(a.Action))
		if a.Err != nil {
			if !errors.Is(a.Err, sdk.ErrIllegal) {
				return fail("%s: failed: %v", what, a.Err)
			}
			re, ok := sdk.AsRefusal(a.Err)
			if !ok {
				return fail("%s: refused with %T (%v), want a *sdk.RuleError", what, a.Err, a.Err)
			}
			if strings.TrimSpace(re.Reason) == "" {
				return fail("%s: refused (code %q) with an empty reason", what, re.Code)
			}
			return sameInspection(ctx, e, a.Before, a.BeforeStep, what, fail)
		}
		digests = append(digests, digest(a.Step))
		in, err := e.Inspect(ctx, &engine.InspectRequest{State: a.Step.State})
		if err != nil {
			return fail("%s: inspect the new state: %v", what, err)
		}
		if d := sdk.CardDiff(start, in.Cards); d != "" {
			return fail("%s: cards %s", what, d)
		}
		if msg := viewLeak(a.Step); msg != "" {
			return fail("%s: %s", what, msg)
		}
		return nil
	}
	res, err := Playout(ctx, e, pc)
	for _, f := range fails {
		tb.Errorf("%s", f)
	}
	if err != nil && !errors.Is(err, ErrNotEnded) && len(fails) == 0 {
		tb.Errorf("random playout: %v", err)
	}
	if len(fails) > 0 || res.Start == nil {
		return
	}
	checkReplay(ctx, tb, e, pc, res.Moves, digests)
}

// digest is a step's state and events, for the determinism check.
type stepDigest struct {
	state  []byte
	events string
}

func digest(st *engine.Step) stepDigest {
	ev, _ := json.Marshal(st.Events)
	return stepDigest{state: st.State, events: string(ev)}
}

// checkReplay replays moves and compares every step with the digests of the first run.
func checkReplay(ctx context.Context, tb testing.TB, e engine.Engine, pc PlayoutConfig, moves []Move, digests []stepDigest) {
	tb.Helper()
	steps, err := Replay(ctx, e, pc, moves)
	if err != nil {
		tb.Errorf("determinism: replaying the same actions: %v", err)
		return
	}
	for i, st := range steps {
		if i >= len(digests) {
			break
		}
		what := "the start"
		if i > 0 {
			what = fmt.Sprintf("move %d (%s)", i, describe(moves[i-1].Action))
		}
		d := digest(st)
		if !bytes.Equal(d.state, digests[i].state) {
			tb.Errorf("determinism: same seed and actions, different state after %s:\n%s", what, firstDifference(digests[i].state, d.state))
			return
		}
		if d.events != digests[i].events {
			tb.Errorf("determinism: same seed and actions, different events after %s:\nfirst:  %.400s\nreplay: %.400s", what, digests[i].events, d.events)
			return
		}
	}
}

// firstDifference shows two byte strings around the first byte where they differ.
func firstDifference(a, b []byte) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	from := max(0, i-60)
	return fmt.Sprintf("first:  ...%.160s\nreplay: ...%.160s", a[from:], b[from:])
}

// sameInspection checks that the engine reads state the same as at before (after a refusal).
func sameInspection(ctx context.Context, e engine.Engine, state []byte, before *engine.Step, what string, fail func(string, ...any) error) error {
	in, err := e.Inspect(ctx, &engine.InspectRequest{State: state})
	if err != nil {
		return fail("%s: inspect after the refusal: %v", what, err)
	}
	if !reflect.DeepEqual(in.Status, before.Status) {
		return fail("%s: refused, but the status read from the same state changed: %+v, was %+v", what, in.Status, before.Status)
	}
	return nil
}

// viewLeak checks the views of a step structurally: a seat's view has no cards in another seat's
// hand zone, the spectators' view none in any hand zone, and no view holds a null (viewNull). ""
// when they are sound.
func viewLeak(st *engine.Step) string {
	if st == nil {
		return ""
	}
	check := func(viewer int, raw []byte) string {
		if len(raw) == 0 {
			return ""
		}
		var v sdk.View
		if err := json.Unmarshal(raw, &v); err != nil {
			return fmt.Sprintf("the view of %s is not a view: %v", viewerName(viewer), err)
		}
		if path, err := viewNull(raw); err != nil {
			return fmt.Sprintf("the view of %s is not a view: %v", viewerName(viewer), err)
		} else if path != "" {
			return nullMessage(viewer, path)
		}
		return handLeak(v, viewer)
	}
	for i, raw := range st.Views {
		if msg := check(i, raw); msg != "" {
			return msg
		}
	}
	return check(sdk.Spectator, st.Spectator)
}

// handLeak reports a hand zone of v not owned by viewer that shows cards.
func handLeak(v sdk.View, viewer int) string {
	if v.Phase != sdk.PhasePlaying {
		return "" // a round over may show every hand left (the reveal); Redeal must then keep them
	}
	for _, z := range v.Zones {
		if z.Kind == sdk.ZoneHand && z.Owner != viewer && len(z.Cards) > 0 && !allZero(z.Cards) {
			return fmt.Sprintf("the view of %s shows the cards of zone %s (%s's hand): %v", viewerName(viewer), z.ID, viewerName(z.Owner), sdk.CardStrings(z.Cards))
		}
	}
	return ""
}

func allZero(cards []sdk.Card) bool {
	for _, c := range cards {
		if c != 0 {
			return false
		}
	}
	return true
}

func viewerName(v int) string {
	if v == sdk.Spectator {
		return "the spectators"
	}
	return fmt.Sprintf("seat %d", v)
}

// checkBotPlayout plays bots until game_over and fails when the game does not end.
func checkBotPlayout(ctx context.Context, tb testing.TB, e engine.Engine, cfg Config, g game) {
	tb.Helper()
	res, err := Playout(ctx, e, PlayoutConfig{Seats: g.seats, Options: g.options, Seed: g.seed, Level: cfg.BotLevel, MaxSteps: cfg.MaxSteps})
	if err != nil {
		tb.Errorf("bot playout (level %d): %v", cfg.BotLevel, err)
		return
	}
	if !res.Ended {
		tb.Errorf("bot playout (level %d) did not end within %d steps", cfg.BotLevel, cfg.MaxSteps)
	}
}

// equalJSON compares two JSON documents byte for byte after compacting them.
func equalJSON(a, b []byte) bool {
	var ca, cb bytes.Buffer
	if json.Compact(&ca, a) != nil || json.Compact(&cb, b) != nil {
		return bytes.Equal(a, b)
	}
	return bytes.Equal(ca.Bytes(), cb.Bytes())
}
