package plugin

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Discover lists the plugin executables in dir, sorted by file name, as Specs with absolute
// paths and no arguments.
//
// The naming rule: every regular file (or symlink to one) directly in dir whose name does not
// start with "." or "_" and that has an execute bit is a plugin; sub-folders, hidden files and
// non-executable files (READMEs, Lua scripts, checksums) are skipped. The file name is free (build
// with `go build -o DIR ./plugins/lastcard`): the ruleset id comes from the plugin's own
// Describe, not from its name. Prefix a file with "_" to keep it in the folder but disabled.
func Discover(dir string) ([]Spec, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("discovering plugins in %s: %w", dir, err)
	}
	entries, err := os.ReadDir(abs)
	if err != nil {
		return nil, fmt.Errorf("discovering plugins: %w", err)
	}
	var specs []Spec
	for _, e := range entries {
		name := e.Name()
		if strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") {
			continue
		}
		path := filepath.Join(abs, name)
		info, err := os.Stat(path) // follows symlinks
		if err != nil {
			if e.Type()&os.ModeSymlink != 0 {
				continue // a dangling link is not a plugin
			}
			return nil, fmt.Errorf("discovering plugins: %w", err)
		}
		if !info.Mode().IsRegular() || info.Mode().Perm()&0o111 == 0 {
			continue
		}
		specs = append(specs, Spec{Path: path})
	}
	return specs, nil
}
