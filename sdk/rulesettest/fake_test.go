package rulesettest

import (
	"fmt"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"
)

// fakeTB captures what a check reports, so the kit's tests can assert that a broken ruleset is
// caught (and how). Fatal stops the goroutine as testing.T does; run must wrap the call.
type fakeTB struct {
	testing.TB // nil: only the methods below may be called
	mu         sync.Mutex
	failed     bool
	msgs       []string
	cleanups   []func()
}

func (f *fakeTB) Helper() {}

func (f *fakeTB) Name() string { return "fake" }

func (f *fakeTB) Errorf(format string, args ...any) { f.Error(fmt.Sprintf(format, args...)) }

func (f *fakeTB) Error(args ...any) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.failed = true
	f.msgs = append(f.msgs, fmt.Sprint(args...))
}

func (f *fakeTB) Fatalf(format string, args ...any) { f.Errorf(format, args...); runtime.Goexit() }

func (f *fakeTB) Fatal(args ...any) { f.Error(args...); runtime.Goexit() }

func (f *fakeTB) Logf(format string, args ...any) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.msgs = append(f.msgs, "log: "+fmt.Sprintf(format, args...))
}

func (f *fakeTB) Log(args ...any) { f.Logf("%s", fmt.Sprint(args...)) }

func (f *fakeTB) Failed() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.failed
}

func (f *fakeTB) Cleanup(fn func()) { f.cleanups = append(f.cleanups, fn) }

// run calls fn on its own goroutine so that Fatal (Goexit) ends only fn, then runs cleanups.
func (f *fakeTB) run(fn func()) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		fn()
	}()
	<-done
	for i := len(f.cleanups) - 1; i >= 0; i-- {
		f.cleanups[i]()
	}
}

func (f *fakeTB) output() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return strings.Join(f.msgs, "\n")
}

func keys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
