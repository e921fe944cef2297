package houserules_test

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"cardhouse/rulesets/drugs"
	"cardhouse/rulesets/hearts"
	"cardhouse/rulesets/hotspot"
	"cardhouse/rulesets/lastcard"
	"cardhouse/rulesets/spades"
	"cardhouse/sdk/engine"
	"cardhouse/sdk/houserules"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite docs/house-rules/*.md from the rulesets")

// TestReferenceIsUpToDate: the committed modder's reference of each variant
// (docs/house-rules/ID.md) is what `cardhouse rules reference --ruleset ID` writes today; run with
// -update (or the command) after changing a variant.
func TestReferenceIsUpToDate(t *testing.T) {
	t.Parallel()
	for id, e := range map[string]engine.Engine{
		"lastcard": engine.New(lastcard.New(), houserules.Enable()),
		"hotspot":  engine.New(hotspot.New(), houserules.Enable()),
		"drugs":    engine.New(drugs.New(), houserules.Enable()),
		"hearts":   engine.New(hearts.New(), houserules.Enable()),
		"spades":   engine.New(spades.New(), houserules.Enable()),
	} {
		t.Run(id, func(t *testing.T) {
			t.Parallel()
			got, err := houserules.Reference(context.Background(), e)
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join("..", "..", "docs", "house-rules", id+".md")
			if *update {
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (write it with: cardhouse rules reference --ruleset %s)", err, id)
			}
			if diff := cmp.Diff(string(want), got); diff != "" {
				t.Errorf("%s is stale: regenerate it with `cardhouse rules reference --ruleset %s` (-committed +generated):\n%s", path, id, diff)
			}
		})
	}
}
