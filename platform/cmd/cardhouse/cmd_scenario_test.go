package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"cardhouse/sdk/engine"
	"cardhouse/sdk/houserules"
	"cardhouse/sdk/rulesettest/toy"

	"github.com/google/go-cmp/cmp"
)

func TestRunScenarios(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	ok := "name: toy opens\nruleset: toy\nseats: 2\ndeal: {pile: [7H], hands: [[8H], [5C]], first: 0}\nsteps:\n  - {seat: 0, play: [8H]}\n  - expect: {winner: 0}\n"
	bad := "name: unknown variant\nruleset: poker\nseats: 2\nsteps: []\n"
	if err := os.WriteFile(filepath.Join(dir, "ok.yaml"), []byte(ok), 0o644); err != nil {
		t.Fatal(err)
	}
	closed := false
	open := func(_ context.Context, pluginsDir string) (map[string]engine.Engine, func(), error) {
		if pluginsDir != "/plugins" {
			t.Errorf("plugins dir %q, want /plugins", pluginsDir)
		}
		return map[string]engine.Engine{"toy": engine.New[toy.State](toy.Ruleset{})}, func() { closed = true }, nil
	}
	var out bytes.Buffer
	if err := runScenarios(context.Background(), &out, open, "/plugins", []string{dir}); err != nil {
		t.Fatalf("err = %v, output:\n%s", err, out.String())
	}
	if got, want := out.String(), "ok toy opens\n1 passed, 0 failed\n"; got != want {
		t.Errorf("output %q, want %q", got, want)
	}
	if !closed {
		t.Error("the engines were not closed")
	}

	if err := os.WriteFile(filepath.Join(dir, "poker.yaml"), []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	err := runScenarios(context.Background(), &out, open, "/plugins", []string{dir})
	if err == nil || err.Error() != "1 scenario(s) failed" {
		t.Errorf("err = %v, want 1 scenario(s) failed", err)
	}
	want := "ok toy opens\nFAIL unknown variant: unknown ruleset \"poker\" (available: toy)\n1 passed, 1 failed\n"
	if out.String() != want {
		t.Errorf("output %q, want %q", out.String(), want)
	}

	failOpen := func(context.Context, string) (map[string]engine.Engine, func(), error) {
		return nil, nil, errors.New("no plugin binary")
	}
	if err := runScenarios(context.Background(), &out, failOpen, "", []string{dir}); err == nil || err.Error() != "opening the rulesets: no plugin binary" {
		t.Errorf("err = %v", err)
	}
}

// TestScenarioShowsTheRulesLog: what a scenario's house rules print (print, game.log) is shown
// under its line, with the step and the hook.
func TestScenarioShowsTheRulesLog(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	rule := "name = \"chatty\"\ndescription = \"says what was played\"\nfunction after_action(game, action)\n" +
		"  print(\"played\", action.cards[1])\n  game.log(\"turn now\", game.turn)\nend\n"
	sc := "name: chatty toy\nruleset: toy\nseats: 2\nhouse_rules: [chatty.lua]\ndeal: {pile: [7H], hands: [[8H, 9C], [5C]], first: 0}\n" +
		"steps:\n  - {seat: 0, play: [8H]}\n  - expect: {turn: 1}\n"
	for name, body := range map[string]string{"chatty.lua": rule, "chatty.yaml": sc} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	open := func(context.Context, string) (map[string]engine.Engine, func(), error) {
		return map[string]engine.Engine{"toy": engine.New[toy.State](toy.Ruleset{}, houserules.Enable())}, nil, nil
	}
	var out bytes.Buffer
	if err := runScenarios(context.Background(), &out, open, "", []string{dir}); err != nil {
		t.Fatalf("err = %v, output:\n%s", err, out.String())
	}
	want := "ok chatty toy\n    log: step 1, chatty (after_action): played\t8H\n    log: step 1, chatty (after_action): turn now\t1\n1 passed, 0 failed\n"
	if diff := cmp.Diff(want, out.String()); diff != "" {
		t.Errorf("output (-want +got):\n%s", diff)
	}
}
