package rulesets_test

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"testing"

	"cardhouse/plugins/builtin"
	"cardhouse/sdk"
	"cardhouse/sdk/botplay"
	"cardhouse/sdk/engine"
)

// placeholder is one {FIELD} or {FIELD:FORMAT} of an event text (docs/writing-a-variant.md,
// Info.EventTexts; web/static/js/log.js fills them in).
var placeholder = regexp.MustCompile(`\{(\w+)(?::(\w+))?\}`)

// eventText is the text the client words ev with: the first "NAME KEY=VALUE" (keys in order)
// that matches the event's data, else "NAME"; ok is false when texts has neither.
func eventText(texts map[string]string, ev sdk.Event) (key, text string, ok bool) {
	keys := make([]string, 0, len(ev.Data))
	for k := range ev.Data {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		key = ev.Name + " " + k + "=" + ev.Data[k]
		if text, ok = texts[key]; ok {
			return key, text, true
		}
	}
	text, ok = texts[ev.Name]
	return ev.Name, text, ok
}

// TestEveryEventHasWords: the move log words every event a built-in variant sends from the
// variant's own Info.EventTexts (the client has no words of its own for a variant's events), and
// every placeholder there names a field the event has: games of bots at each seat count and with
// each preset send the events.
func TestEveryEventHasWords(t *testing.T) {
	t.Parallel()
	for id, newEngine := range builtin.Engines() {
		t.Run(id, func(t *testing.T) {
			t.Parallel()
			e := newEngine()
			d, err := e.Describe(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			optionSets := []map[string]any{nil}
			for _, p := range d.Presets {
				optionSets = append(optionSets, p.Options)
			}
			seen := map[string]bool{}
			for seats := d.MinSeats; seats <= min(d.MaxSeats, 4); seats++ {
				for i, opts := range optionSets {
					cfg := botplay.Config{Seats: seats, Options: opts, Seed: uint64(100*seats + i), DueFirst: true, ThinkMS: 1000,
						Bot:   botplay.EngineBot(e, botplay.Level(1), func(t *botplay.Turn) uint64 { return uint64(t.N) }),
						Order: botplay.OutOfTurnFirst, MaxSteps: 3000, Games: 2,
						OnAct: func(_ context.Context, a botplay.Attempt) error {
							if a.Step == nil {
								return nil
							}
							for _, ev := range a.Step.Events {
								if err := checkWords(d, ev); err != nil && !seen[err.Error()] {
									seen[err.Error()] = true
									t.Error(err)
								}
							}
							return nil
						}}
					if _, err := botplay.Play(context.Background(), e, cfg); err != nil {
						t.Fatalf("%d seats, options %v: %v", seats, opts, err)
					}
				}
			}
		})
	}
}

// checkWords says what is wrong with the words d gives ev, or nil.
func checkWords(d *engine.Description, ev sdk.Event) error {
	if ev.Name == engine.EventHouseRuleSuspended || ev.Name == "turn" {
		return nil // the engine's own, worded by the client; "turn" writes no line (scenarios.md)
	}
	key, text, ok := eventText(d.EventTexts, ev)
	if !ok {
		return fmt.Errorf("%s's event %q (data %v) has no words in Info.EventTexts", d.ID, ev.Name, ev.Data)
	}
	for _, m := range placeholder.FindAllStringSubmatch(text, -1) {
		field, format := m[1], m[2]
		if _, inData := ev.Data[field]; !inData && !slices.Contains([]string{"seat", "cards", "count", "target"}, field) {
			return fmt.Errorf("%s's text %q for %q: the event has no %s (data %v)", d.ID, text, key, field, ev.Data)
		}
		if format != "" && !slices.Contains([]string{"seat", "choice", "cards"}, format) {
			return fmt.Errorf("%s's text %q for %q: no format %q (seat, choice, cards)", d.ID, text, key, format)
		}
	}
	return nil
}
