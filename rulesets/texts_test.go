package rulesets_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"cardhouse/plugins/builtin"
	"cardhouse/sdk"
	"cardhouse/sdk/botplay"
	"cardhouse/sdk/engine"
)

// playerTexts lists the English texts of a variant a player reads: its Info's (name, summary,
// options, presets, event texts) and those of the views games of bots show (action, zone,
// indicator, team and score-sheet words), each with where it was met.
func playerTexts(t *testing.T, e engine.Engine, d *engine.Description) map[string]string {
	t.Helper()
	texts := map[string]string{}
	add := func(s, where string) {
		s = strings.TrimSpace(s)
		if s == "" || strings.Trim(s, "0123456789-+ ") == "" {
			return
		}
		if _, ok := texts[s]; !ok {
			texts[s] = where
		}
	}
	add(d.Name, "name")
	add(d.Summary, "summary")
	for _, o := range d.Options {
		add(o.Label, "option "+o.Name)
		add(o.Description, "option "+o.Name)
		add(o.DefaultText, "option "+o.Name)
		for _, l := range o.ChoiceLabels {
			add(l, "option "+o.Name)
		}
	}
	for _, p := range d.Presets {
		add(p.Name, "preset")
		add(p.Description, "preset "+p.Name)
	}
	for k, v := range d.EventTexts {
		add(v, "event "+k)
	}
	optionSets := []map[string]any{nil}
	for _, p := range d.Presets {
		optionSets = append(optionSets, p.Options)
	}
	for seats := d.MinSeats; seats <= min(d.MaxSeats, 4); seats++ {
		for i, opts := range optionSets {
			cfg := botplay.Config{Seats: seats, Options: opts, Seed: uint64(100*seats + i), DueFirst: true, ThinkMS: 1000, Views: true,
				Bot:   botplay.EngineBot(e, botplay.Level(1), func(t *botplay.Turn) uint64 { return uint64(t.N) }),
				Order: botplay.OutOfTurnFirst, MaxSteps: 3000, Games: 1,
				OnAct: func(_ context.Context, a botplay.Attempt) error {
					if a.Step == nil {
						return nil
					}
					for _, raw := range a.Step.Views {
						var v sdk.View
						if err := json.Unmarshal(raw, &v); err != nil {
							return err
						}
						for _, a := range v.Actions {
							add(a.Label, "action "+a.Type)
							for _, l := range a.ChoiceLabels {
								add(l, "action "+a.Type+" choice")
							}
						}
						for _, z := range v.Zones {
							add(z.Label, "zone "+z.ID)
						}
						for _, ind := range v.Indicators {
							add(ind.Label, "indicator "+ind.ID)
							// The client shows no value of these (a card drawn, the pile's fire, the
							// direction's arrow), and a room option's value by the option's words.
							shown := !slices.Contains([]string{"drawn", "fire", "direction"}, ind.ID) &&
								!slices.ContainsFunc(d.Options, func(o sdk.Option) bool { return o.Name == ind.ID })
							if shown && (ind.Kind == "" || ind.Kind == "text") {
								add(ind.Value, "indicator "+ind.ID+" value")
							}
						}
						for _, tm := range v.Teams {
							add(tm.Name, "team")
						}
						if v.Sheet != nil {
							if v.Sheet.By != "seat" {
								for _, c := range v.Sheet.Columns {
									add(c, "sheet column")
								}
							}
							for _, r := range v.Sheet.Rows {
								add(r.Label, "sheet row")
								for _, n := range r.Notes {
									// The client words a note's parts ("nil failed, bags -100") one by one.
									for _, part := range strings.Split(n, ", ") {
										add(part, "sheet note")
									}
								}
							}
						}
						for _, p := range v.Players {
							if p.Bid != "" {
								add(p.Bid, "bid")
							}
						}
					}
					return nil
				}}
			if _, err := botplay.Play(context.Background(), e, cfg); err != nil {
				t.Fatalf("%d seats, options %v: %v", seats, opts, err)
			}
		}
	}
	return texts
}

// TestEveryTextInFrench: every text a player of a built-in variant reads (its Info's and those of
// the views of games of bots at each seat count and preset) has a French translation in
// Info.Texts["fr"], with the same placeholders; a translation no text uses is reported too (a
// text changed in English and not in French). CARDHOUSE_TEXTS_OUT=DIR writes the missing ones.
func TestEveryTextInFrench(t *testing.T) {
	t.Parallel()
	for id, newEngine := range builtin.Engines() {
		t.Run(id, func(t *testing.T) {
			t.Parallel()
			e := newEngine()
			d, err := e.Describe(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			fr := d.Texts["fr"]
			texts := playerTexts(t, e, d)
			var missing []string
			for s, where := range texts {
				key, tr, ok := lookup(fr, s)
				if !ok {
					missing = append(missing, s)
					t.Errorf("%s: no French for %q (%s)", id, s, where)
					continue
				}
				if a, b := placeholders(key), placeholders(tr); !slices.Equal(a, b) {
					t.Errorf("%s: the French of %q has placeholders %v, not %v", id, key, b, a)
				}
			}
			if dir := os.Getenv("CARDHOUSE_TEXTS_OUT"); dir != "" && len(missing) > 0 {
				sort.Strings(missing)
				b, _ := json.MarshalIndent(missing, "", " ")
				_ = os.WriteFile(fmt.Sprintf("%s/%s.json", dir, id), b, 0o644)
			}
			if d.Rules != "" && d.RulesText["fr"] == "" {
				t.Logf("%s: no French rules page yet", id)
			}
		})
	}
}

// lookup finds the translation of s in texts as the client does (web/static/js/i18n.js): s
// itself, else a key with placeholders that matches it ("Hand {n}" for "Hand 3").
func lookup(texts map[string]string, s string) (key, tr string, ok bool) {
	if tr, ok = texts[s]; ok {
		return s, tr, true
	}
	for k, v := range texts {
		if !placeholder.MatchString(k) {
			continue
		}
		parts := placeholder.Split(k, -1)
		for i := range parts {
			parts[i] = regexp.QuoteMeta(parts[i])
		}
		if regexp.MustCompile("^" + strings.Join(parts, "(.+?)") + "$").MatchString(s) {
			return k, v, true
		}
	}
	return "", "", false
}

func placeholders(s string) []string {
	var out []string
	for _, m := range placeholder.FindAllString(s, -1) {
		out = append(out, m)
	}
	sort.Strings(out)
	return out
}
