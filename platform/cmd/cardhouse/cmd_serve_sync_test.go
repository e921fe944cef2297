package main

import (
	"context"
	"os"
	"strings"
	"testing"
)

// TestServeRefusesABadSynchronous: --sqlite-synchronous other than full or normal is refused with
// a sentence naming the flag, before the database is opened (the data folder stays empty).
func TestServeRefusesABadSynchronous(t *testing.T) {
	o := serveOptions{data: t.TempDir(), logLevel: "error", addr: "127.0.0.1:0", sqliteSync: "off"}
	// Cancelled already: a server that started after all stops at once rather than serving on.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err := runServe(ctx, o)
	if err == nil || !strings.Contains(err.Error(), `--sqlite-synchronous: want full or normal, got "off"`) {
		t.Fatalf("runServe: %v, want a refusal naming --sqlite-synchronous", err)
	}
	if files, _ := os.ReadDir(o.data); len(files) != 0 {
		t.Errorf("the refused start left %d files in the data folder: it opened the database", len(files))
	}
}
