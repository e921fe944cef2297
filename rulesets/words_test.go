package rulesets_test

import (
	"regexp"
	"strings"
	"testing"

	"cardhouse/rulesets/drugs"
	"cardhouse/rulesets/ginrummy"
	"cardhouse/rulesets/hearts"
	"cardhouse/rulesets/hotspot"
	"cardhouse/rulesets/lastcard"
	"cardhouse/rulesets/spades"
	"cardhouse/sdk"
)

// rulingID is a ruling's id as docs/rulings writes it (D-5), or a variant's own ruling id (HR-1):
// words for developers, not players.
var rulingID = regexp.MustCompile(`\b(?:HE|HR|SP|GR|GRP|[DHLP])-\d+\b`)

// TestOptionWordsForPlayers: what the room form shows of each variant's options is in player
// words: every choice has a label, no label or description shows a ruling id or a raw choice
// value (no_colour_match), and every preset is a valid set of options with a name and a reason.
func TestOptionWordsForPlayers(t *testing.T) {
	for _, r := range []interface {
		Info() sdk.Info
	}{drugs.New(), ginrummy.New(), hearts.New(), hotspot.New(), lastcard.New(), spades.New()} {
		info := r.Info()
		t.Run(info.ID, func(t *testing.T) {
			var raw []string
			for _, o := range info.Options {
				for _, c := range o.Choices {
					if strings.TrimSpace(o.ChoiceLabels[c]) == "" {
						t.Errorf("option %s: choice %q has no label", o.Name, c)
					}
					if strings.ContainsAny(c, "_") {
						raw = append(raw, c)
					}
				}
			}
			for _, o := range info.Options {
				texts := []string{o.Label, o.Description, o.DefaultText}
				for _, l := range o.ChoiceLabels {
					texts = append(texts, l)
				}
				for _, s := range texts {
					if id := rulingID.FindString(s); id != "" {
						t.Errorf("option %s says ruling id %s: %q", o.Name, id, s)
					}
					for _, c := range raw {
						if strings.Contains(s, c) {
							t.Errorf("option %s shows the raw value %q: %q", o.Name, c, s)
						}
					}
				}
			}
			seen := map[string]bool{}
			for _, p := range info.Presets {
				if p.Name == "" || p.Description == "" || seen[p.Name] {
					t.Errorf("preset %+v: want a name of its own and a description", p)
				}
				seen[p.Name] = true
				if _, err := sdk.CheckOptions(info, r, info.MinSeats, p.Options); err != nil {
					t.Errorf("preset %s is refused: %v", p.Name, err)
				}
			}
		})
	}
}
