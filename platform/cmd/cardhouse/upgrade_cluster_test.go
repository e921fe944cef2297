package main

import (
	"archive/tar"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// previousRelease is the commit of the release before this one: the rolling upgrade runs its
// binary beside today's. Move it on at each release (and record its database with
// TestMakeUpgradeFixture).
const previousRelease = "e597b1b"

var previousBin struct {
	once       sync.Once
	path, skip string
	err        error
}

// previousBinary builds the previous release's cardhouse from this repository's history (git
// archive of previousRelease, then go build), once per test binary; it skips t where the
// checkout has no history to build it from.
func previousBinary(t *testing.T) string {
	t.Helper()
	previousBin.once.Do(func() {
		git, err := exec.LookPath("git")
		if err != nil {
			previousBin.skip = "git is not installed"
			return
		}
		if err := exec.Command(git, "cat-file", "-e", previousRelease+"^{commit}").Run(); err != nil {
			previousBin.skip = "this checkout does not hold commit " + previousRelease + " (a shallow clone?)"
			return
		}
		dir, err := os.MkdirTemp("", "cardhouse-previous-")
		if err != nil {
			previousBin.err = err
			return
		}
		top, err := exec.Command(git, "rev-parse", "--show-toplevel").Output()
		if err != nil {
			previousBin.skip = "this is not a git checkout"
			return
		}
		archive := exec.Command(git, "archive", "--format=tar", previousRelease)
		archive.Dir = strings.TrimSpace(string(top)) // the whole tree, not this folder's part
		out, err := archive.StdoutPipe()
		if err != nil {
			previousBin.err = err
			return
		}
		if err := archive.Start(); err != nil {
			previousBin.err = err
			return
		}
		if err := untar(out, dir); err != nil {
			previousBin.err = err
			return
		}
		if err := archive.Wait(); err != nil {
			previousBin.err = err
			return
		}
		previousBin.path = filepath.Join(dir, "cardhouse")
		build := exec.Command("go", "build", "-o", previousBin.path, "./platform/cmd/cardhouse")
		build.Dir = dir
		if b, err := build.CombinedOutput(); err != nil {
			previousBin.err = errors.New("building " + previousRelease + ": " + err.Error() + ": " + string(b))
		}
	})
	if previousBin.skip != "" {
		t.Skipf("%s: skipping the upgrade from %s (CI's checkout has it)", previousBin.skip, previousRelease)
	}
	if previousBin.err != nil {
		t.Fatal(previousBin.err)
	}
	return previousBin.path
}

func removePreviousBinary() {
	if previousBin.path != "" {
		_ = os.RemoveAll(filepath.Dir(previousBin.path))
	}
}

// untar writes the files of a tar stream under dir.
func untar(r io.Reader, dir string) error {
	tr := tar.NewReader(r)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		path := filepath.Join(dir, filepath.FromSlash(h.Name))
		if !strings.HasPrefix(path, filepath.Clean(dir)+string(os.PathSeparator)) {
			return errors.New("a path outside the archive's folder: " + h.Name)
		}
		switch h.Typeflag {
		case tar.TypeDir:
			if err := os.MkdirAll(path, 0o755); err != nil {
				return err
			}
		case tar.TypeReg:
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				return err
			}
			f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, os.FileMode(h.Mode)&0o777)
			if err != nil {
				return err
			}
			_, err = io.Copy(f, tr)
			f.Close()
			if err != nil {
				return err
			}
		}
	}
}

// TestClusterRollingUpgradeOnRealNodes upgrades a three-node cluster node by node while a table
// of each variant plays: every node starts on the previous release's binary; then each in turn is
// stopped with SIGTERM and started on today's, so that nodes of both releases run the rooms, route
// requests and relay sockets side by side. Nothing is lost: the checks of the cluster tests (every
// action seen accepted is in its replay once, the replays match, the action logs are whole, every
// write came from the lease's holder, every game ends).
func TestClusterRollingUpgradeOnRealNodes(t *testing.T) {
	needCluster(t)
	old := previousBinary(t)
	ce := newClusterEnv(t, "upgrade", os.Getenv("CARDHOUSE_TEST_NATS_URL"))
	ce.binOf = map[string]string{}
	for _, s := range clusterNodes {
		ce.binOf[s] = old
		ce.start(s)
	}
	ce.auditWrites()
	tables := make([]*clusterTable, len(clusterVariants))
	for i := range tables {
		tables[i] = newClusterTable(t, ce, i, clusterNodes[i%len(clusterNodes)])
	}
	upgraded := 0
	playTables(t, tables, func(done <-chan struct{}) {
		for _, s := range clusterNodes {
			if !awaitProgress(t, tables, totalProgress(tables), 8, done) {
				return
			}
			ce.term(s)
			delete(ce.binOf, s) // today's binary from now on
			ce.start(s)
			upgraded++
			t.Logf("%s upgraded to today's build after %d actions accepted", s, totalProgress(tables))
		}
		awaitProgress(t, tables, totalProgress(tables), 8, done)
	})
	if upgraded != len(clusterNodes) {
		t.Fatalf("the games ended after %d of %d nodes were upgraded", upgraded, len(clusterNodes))
	}
	finish(t, ce, tables)
}
