// Package viewpatch writes and applies the view patches of protocol v2 (docs/protocol.md,
// "Patches"): after a full view, a connection receives only what changed for its seat. Diff
// computes a patch from two views' bytes as the ruleset wrote them, without decoding them; Apply
// is its inverse, used by Go clients (the bench) and the tests. A sticky plugin writes the same
// form from its typed views instead (sdk.AppendViewPatch, engine.Step.Patches); the room uses
// Diff when it has no such patches. The web client has its own (web/static/js/patch.js) and
// the tests hold the two to the same results.
//
// Start at Diff (diff.go); scan.go is the small JSON scanner both sides use.
package viewpatch
