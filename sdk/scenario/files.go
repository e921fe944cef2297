package scenario

import (
	"cardhouse/sdk/engine"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Lookup finds the engine of a ruleset id. Its error is the failure of every scenario naming that
// ruleset, so it should list the rulesets available (MapLookup does).
type Lookup func(ruleset string) (engine.Engine, error)

// MapLookup looks rulesets up in a map by id; an unknown id is an error listing the ids it has.
func MapLookup(engines map[string]engine.Engine) Lookup {
	return func(id string) (engine.Engine, error) {
		if e, ok := engines[id]; ok {
			return e, nil
		}
		ids := make([]string, 0, len(engines))
		for k := range engines {
			ids = append(ids, k)
		}
		sort.Strings(ids)
		have := strings.Join(ids, ", ")
		if have == "" {
			have = "none"
		}
		return nil, fmt.Errorf("unknown ruleset %q (available: %s)", id, have)
	}
}

// IsScenarioFile reports whether a file name is a scenario's: *.yaml or *.yml.
func IsScenarioFile(name string) bool {
	ext := strings.ToLower(filepath.Ext(name))
	return ext == ".yaml" || ext == ".yml"
}

// Files expands paths into scenario files: a file is taken as given (whatever its extension); a
// folder is walked recursively for *.yaml and *.yml, in lexical order. A path that does not
// exist is an error.
func Files(paths ...string) ([]string, error) {
	var out []string
	for _, p := range paths {
		info, err := os.Stat(p)
		if err != nil {
			return nil, fmt.Errorf("%s: %s", p, readMsg(err))
		}
		if !info.IsDir() {
			out = append(out, p)
			continue
		}
		err = filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.IsDir() && IsScenarioFile(d.Name()) {
				out = append(out, path)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// Result is the outcome of one scenario file.
type Result struct {
	// File is the scenario's path.
	File string
	// Name is the scenario's name, or its path when the file could not be parsed.
	Name string
	// Err is nil when the scenario passed; otherwise a *ParseError, a *Failure, or the Lookup's
	// error for an unknown ruleset.
	Err error
	// Log is what the scenario's house rules printed (RunLogged).
	Log []string
}

// OK reports whether the scenario passed.
func (r Result) OK() bool { return r.Err == nil }

// Line is the result's output line: "ok NAME" or "FAIL NAME: WHAT". A file that could not be
// parsed reads "FAIL FILE: step K: FIELD: MESSAGE" (its message already names the file).
func (r Result) Line() string {
	if r.Err == nil {
		return "ok " + r.Name
	}
	var pe *ParseError
	if errors.As(r.Err, &pe) {
		return "FAIL " + pe.Error()
	}
	return "FAIL " + r.Name + ": " + r.Err.Error()
}

// RunFile parses and plays one scenario file, engines from lookup. It never panics on a bad file
// or a misbehaving engine: every fault is the Result's Err.
func RunFile(ctx context.Context, path string, lookup Lookup) (res Result) {
	res = Result{File: path, Name: path}
	defer func() {
		if p := recover(); p != nil {
			res.Err = &Failure{What: "runner", Got: fmt.Sprintf("panic: %v", p)}
		}
	}()
	s, err := ParseFile(path)
	if err != nil {
		res.Err = err
		return res
	}
	res.Name = s.Name
	e, err := lookup(s.Ruleset)
	if err != nil {
		res.Err = err
		return res
	}
	res.Log, res.Err = RunLogged(ctx, e, s)
	return res
}

// RunAll runs every scenario under paths (see Files), writes one Line per scenario to w, each
// followed by what its house rules printed ("    log: step K, RULE (HOOK): TEXT"), and the final
// line "N passed, N failed", and returns the counts. A path that does not exist counts as
// one failure.
func RunAll(ctx context.Context, w io.Writer, lookup Lookup, paths ...string) (passed, failed int) {
	for _, p := range paths {
		files, err := Files(p)
		if err != nil {
			// The error already names the path.
			fmt.Fprintf(w, "FAIL %v\n", err)
			failed++
			continue
		}
		for _, f := range files {
			res := RunFile(ctx, f, lookup)
			fmt.Fprintln(w, res.Line())
			for _, l := range res.Log {
				fmt.Fprintln(w, "    log: "+l)
			}
			if res.OK() {
				passed++
			} else {
				failed++
			}
		}
	}
	fmt.Fprintf(w, "%d passed, %d failed\n", passed, failed)
	return passed, failed
}
