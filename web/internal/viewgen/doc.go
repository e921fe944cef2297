// Package viewgen records real views of the built-in rulesets into web/testdata/views, so the
// browser client can be developed and tested against what the engines really send before (and
// besides) the server. Run `go test ./web/internal/viewgen -update` to rewrite the recordings; without
// -update the test checks that the recordings are still what the engines produce.
package viewgen
