package viewpatch

import (
	"cardhouse/sdk"
	"encoding/json"
	"os"
	"reflect"
	"testing"
)

// BenchmarkForms measures the patch forms over every step of random games of every variant:
// bytes per viewer per step (patch/op, against full/op for the whole view) and the host's CPU per
// step for all its viewers (ns/op). "merge" is RFC 7386 (a changed array goes whole), "keyed" the
// chosen form (Lists patched by key, their entries patched, other arrays spliced),
// "keyed-nosplice" without the splices, "keyed-whole" keyed lists whose changed entries go whole; "merge-decoded" is RFC 7386 computed on decoded views
// (encoding/json), for the cost of decoding.
func BenchmarkForms(b *testing.B) {
	games := playGames(b, 2)
	type step struct{ old, new [][]byte }
	var steps []step
	for _, g := range games {
		for i := 1; i < len(g.views); i++ {
			steps = append(steps, step{g.views[i-1], g.views[i]})
		}
	}
	for _, c := range []struct {
		name string
		diff func(dst, old, new []byte) ([]byte, bool)
	}{
		{"merge", func(dst, old, new []byte) ([]byte, bool) { return diffForm(dst, old, new, form{}) }},
		{"keyed", Diff},
		{"keyed-nosplice", func(dst, old, new []byte) ([]byte, bool) { return diffForm(dst, old, new, form{keyed: true}) }},
		{"keyed-whole", func(dst, old, new []byte) ([]byte, bool) {
			return diffForm(dst, old, new, form{keyed: true, whole: true})
		}},
		{"merge-decoded", decodedMerge},
	} {
		b.Run(c.name, func(b *testing.B) {
			var buf []byte
			var patch, full, viewers int
			for i := 0; b.Loop(); i++ {
				st := steps[i%len(steps)]
				for s := range st.new {
					p, ok := c.diff(buf[:0], st.old[s], st.new[s])
					if !ok || len(p) > len(st.new[s]) {
						p = st.new[s]
					}
					buf = p[:0]
					patch += len(p)
					full += len(st.new[s])
					viewers++
				}
			}
			b.ReportMetric(float64(patch)/float64(viewers), "patch/op")
			b.ReportMetric(float64(full)/float64(viewers), "full/op")
		})
	}
}

// decodedMerge is RFC 7386's diff on decoded views.
func decodedMerge(dst, old, new []byte) ([]byte, bool) {
	var o, n map[string]any
	if json.Unmarshal(old, &o) != nil || json.Unmarshal(new, &n) != nil {
		return dst, false
	}
	b, err := json.Marshal(mergeDiff(o, n))
	if err != nil {
		return dst, false
	}
	return append(dst, b...), true
}

func mergeDiff(o, n map[string]any) map[string]any {
	p := map[string]any{}
	for k, nv := range n {
		ov, found := o[k]
		if found && reflect.DeepEqual(ov, nv) {
			continue
		}
		om, ook := ov.(map[string]any)
		nm, nok := nv.(map[string]any)
		if found && ook && nok {
			p[k] = mergeDiff(om, nm)
		} else {
			p[k] = nv
		}
	}
	for k := range o {
		if _, found := n[k]; !found {
			p[k] = nil
		}
	}
	return p
}

// BenchmarkDiff and BenchmarkApply: one viewer's patch of one step, over the steps of random
// games of every variant (ns/op is per viewer per step).
func BenchmarkDiff(b *testing.B) {
	pairs := viewerSteps(b)
	var buf []byte
	for i := 0; b.Loop(); i++ {
		p := pairs[i%len(pairs)]
		buf, _ = Diff(buf[:0], p.Old, p.New)
	}
}

func BenchmarkApply(b *testing.B) {
	pairs := viewerSteps(b)
	var buf []byte
	for i := range pairs {
		pairs[i].Patch, _ = Diff(nil, pairs[i].Old, pairs[i].New)
	}
	for i := 0; b.Loop(); i++ {
		p := pairs[i%len(pairs)]
		buf, _ = Apply(buf[:0], p.Old, p.Patch)
	}
}

type viewerStep struct{ Old, New, Patch []byte }

func viewerSteps(b *testing.B) []viewerStep {
	var out []viewerStep
	if f := os.Getenv("VIEWPATCH_STEPS"); f != "" { // a file of steps kept from an earlier run (for valgrind)
		if data, err := os.ReadFile(f); err == nil && json.Unmarshal(data, &out) == nil {
			return out
		}
		defer func() {
			data, _ := json.Marshal(out)
			_ = os.WriteFile(f, data, 0o644)
		}()
	}
	for _, g := range playGames(b, 2) {
		for i := 1; i < len(g.views); i++ {
			for s := range g.views[i] {
				out = append(out, viewerStep{Old: g.views[i-1][s], New: g.views[i][s]})
			}
		}
	}
	return out
}

// BenchmarkTypedPatch: the patch a sticky engine writes from the typed views (sdk.AppendViewPatch)
// over the same steps as BenchmarkDiff.
func BenchmarkTypedPatch(b *testing.B) {
	pairs := viewerSteps(b)
	typed := make([][2]sdk.View, len(pairs))
	for i, p := range pairs {
		if json.Unmarshal(p.Old, &typed[i][0]) != nil || json.Unmarshal(p.New, &typed[i][1]) != nil {
			b.Fatal("a view does not decode")
		}
	}
	var buf []byte
	for i := 0; b.Loop(); i++ {
		t := &typed[i%len(typed)]
		buf, _ = sdk.AppendViewPatch(buf[:0], &t[0], &t[1])
	}
}
