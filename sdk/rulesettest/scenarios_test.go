package rulesettest

import (
	"strings"
	"testing"

	"cardhouse/sdk/engine"
	"cardhouse/sdk/rulesettest/toy"
)

func TestScenariosPass(t *testing.T) {
	t.Parallel()
	Scenarios(t, engine.New[toy.State](toy.Ruleset{}), "testdata/scenarios/good")
}

func TestScenariosReportFailures(t *testing.T) {
	t.Parallel()
	e := engine.New[toy.State](toy.Ruleset{})
	tests := []struct {
		name string
		dirs []string
		// want maps each subtest (file) to a fragment of its failure; "" means it must pass.
		want map[string]string
		// top is a fragment of a failure of the whole call, if any.
		top string
	}{
		{
			name: "bad files",
			dirs: []string{"testdata/scenarios/bad"},
			want: map[string]string{
				"unknown-card.yaml": `unknown-card.yaml: step 3: play: unknown card code "QX"`,
				"wrong-expect.yaml": "FAIL toy wrong expectation: step 2: hand.0, want [9S, 8H], got [9S]",
			},
		},
		{name: "no files", dirs: []string{"testdata/scenarios/good/missed-call.yaml-none"}, want: map[string]string{}, top: "no such file"},
		{name: "empty folder", dirs: []string{"toy"}, want: map[string]string{}, top: "no scenario files"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			top := &fakeTB{}
			subs := map[string]*fakeTB{}
			scenarios(top, e, tt.dirs, func(name string, f func(tb testing.TB)) {
				sub := &fakeTB{}
				subs[name] = sub
				sub.run(func() { f(sub) })
			})
			if tt.top != "" && !strings.Contains(top.output(), tt.top) {
				t.Errorf("call failure = %q, want it to contain %q", top.output(), tt.top)
			}
			if tt.top == "" && top.failed {
				t.Errorf("call failed: %s", top.output())
			}
			for name, want := range tt.want {
				sub, ok := subs[name]
				if !ok {
					t.Errorf("no subtest %q (have %v)", name, keys(subs))
					continue
				}
				if !sub.failed || !strings.Contains(sub.output(), want) {
					t.Errorf("subtest %s: failed=%v output %q, want a failure containing %q", name, sub.failed, sub.output(), want)
				}
			}
			if len(subs) != len(tt.want) {
				t.Errorf("ran subtests %v, want %d", keys(subs), len(tt.want))
			}
		})
	}
}
