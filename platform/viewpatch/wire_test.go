package viewpatch

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"cardhouse/sdk"
)

// BenchmarkWire measures where a patch's bytes go, per viewer per step, over random games of
// each variant (and all together): the patch's size and each top-level member's share of it
// (events, actions, players, zones, the rest), as docs/performance.md reports them. The
// message's envelope is the room's (platform/room, appendPatchMessage), not counted here.
func BenchmarkWire(b *testing.B) {
	games := playGames(b, 2)
	byVariant := map[string][]game{"all": games}
	for _, g := range games {
		v := strings.Split(g.name, "/")[0]
		byVariant[v] = append(byVariant[v], g)
	}
	for _, name := range []string{"all", "lastcard", "hotspot", "drugs"} {
		gs := byVariant[name]
		if len(gs) == 0 {
			continue
		}
		b.Run(name, func(b *testing.B) {
			parts := map[string]int{}
			var patch, viewers int
			var buf []byte
			for b.Loop() {
				clear(parts)
				patch, viewers = 0, 0
				for _, g := range gs {
					for i := 1; i < len(g.views); i++ {
						for s := range g.views[i] {
							p, ok := Diff(buf[:0], g.views[i-1][s], g.views[i][s])
							buf = p[:0]
							viewers++
							if !ok || len(p) >= len(g.views[i][s]) {
								patch += len(g.views[i][s])
								parts["full"] += len(g.views[i][s])
								continue
							}
							patch += len(p)
							ms, err := members(nil, p)
							if err != nil {
								b.Fatal(err)
							}
							rest := len(p)
							for _, m := range ms {
								k := string(m.key)
								switch k {
								case "events", "actions", "players", "zones", "deadlines", "indicators":
								default:
									k = "other"
								}
								n := len(m.key) + 3 + len(m.val) + 1 // "key": value,
								parts[k] += n
								rest -= n
							}
							parts["other"] += rest
						}
					}
				}
			}
			b.ReportMetric(float64(patch)/float64(viewers), "patch/op")
			for k, n := range parts {
				b.ReportMetric(float64(n)/float64(viewers), k+"/op")
			}
		})
	}
}

// TestDerivedMembersHoldInEveryVariant: in every view of random games of every built-in variant, a
// player's hand_count is the count of zone hand.<seat> and a zone's count is the length of its
// cards when it shows them, so that a patch of these variants never needs to say either
// (docs/protocol.md, "Derived members"; the patches say them when a view does not follow this).
func TestDerivedMembersHoldInEveryVariant(t *testing.T) {
	t.Parallel()
	views := 0
	for _, g := range playGames(t, 2) {
		for i, step := range g.views {
			for s, raw := range step {
				var v sdk.View
				if err := json.Unmarshal(raw, &v); err != nil {
					t.Fatal(err)
				}
				views++
				for _, z := range v.Zones {
					if len(z.Cards) > 0 && z.Count != len(z.Cards) {
						t.Fatalf("%s step %d viewer %d: zone %s shows %d cards, count %d", g.name, i, s, z.ID, len(z.Cards), z.Count)
					}
				}
				for _, p := range v.Players {
					if z, ok := v.Zone("hand." + strconv.Itoa(p.Seat)); ok && z.Count != p.HandCount {
						t.Fatalf("%s step %d viewer %d: seat %d hand_count %d, its hand's count %d", g.name, i, s, p.Seat, p.HandCount, z.Count)
					}
				}
			}
		}
	}
	if views < 1000 {
		t.Fatalf("only %d views", views)
	}
}
