package bench

import (
	"bytes"
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" database/sql driver, for the bench's own schema
)

// startTimeout bounds how long a started server may take to answer /healthz.
const startTimeout = 60 * time.Second

// stopTimeout is how long a started server has to exit after SIGTERM before it is killed.
const stopTimeout = 30 * time.Second

// server is a `cardhouse serve` process this run started, on a free port of 127.0.0.1 with its
// own data folder.
type server struct {
	cmd    *exec.Cmd
	base   string
	dir    string
	log    *tailWriter
	exited chan struct{}
	err    error
	// stopOnce and stopErr make stop safe to call twice (Config.StopNodeAfter stops a node
	// before the end).
	stopOnce sync.Once
	stopErr  error
}

// servers are the nodes this run started (one, or a cluster on one PostgreSQL schema and a
// broker) and the schema they share.
type servers struct {
	nodes []*server
	// dropSchema removes the bench's PostgreSQL schema (nil on SQLite or with KeepSchema).
	dropSchema func()
}

// startServers starts cfg.Nodes nodes of cfg.Exe serve (one without --cluster): the first alone,
// as it migrates the database, the others after it.
func startServers(ctx context.Context, cfg *Config) (_ *servers, err error) {
	if cfg.Exe == "" {
		return nil, errors.New("bench: no server to start: set Exe (the cardhouse binary) or Server (a URL)")
	}
	ss := &servers{}
	defer func() {
		if err != nil {
			_ = ss.stop()
		}
	}()
	dsn := cfg.DB
	if dsn != "" && !cfg.KeepSchema {
		if dsn, ss.dropSchema, err = freshSchema(ctx, dsn); err != nil {
			return nil, err
		}
	}
	var b [3]byte
	_, _ = rand.Read(b[:])
	prefix := "bench-" + hex.EncodeToString(b[:])
	for i := range max(cfg.Nodes, 1) {
		var extra []string
		if cfg.Cluster != "" {
			// A name of its own on the broker, which other runs may share.
			extra = []string{"--cluster", cfg.Cluster, "--node", fmt.Sprintf("%s-%d", prefix, i+1)}
			if cfg.Lease > 0 {
				extra = append(extra, "--lease", cfg.Lease.String())
			}
		}
		s, err := startServer(ctx, cfg, dsn, extra, i == 0)
		if err != nil {
			if cfg.Nodes > 1 {
				err = fmt.Errorf("node %d of %d: %w", i+1, cfg.Nodes, err)
			}
			return nil, err
		}
		ss.nodes = append(ss.nodes, s)
	}
	return ss, nil
}

// stop stops every node still running (at once), then drops the schema.
func (ss *servers) stop() error {
	errs := make([]error, len(ss.nodes))
	var wg sync.WaitGroup
	for i, s := range ss.nodes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = s.stop()
		}()
	}
	wg.Wait()
	if ss.dropSchema != nil {
		ss.dropSchema()
	}
	return errors.Join(errs...)
}

// startServer runs cfg.Exe serve on dsn (empty: SQLite in its data folder) with the extra flags
// and waits until it answers /healthz. The profiled node (first) gets --pprof for ServerProfile.
func startServer(ctx context.Context, cfg *Config, dsn string, extra []string, first bool) (_ *server, err error) {
	s := &server{log: &tailWriter{max: 16 << 10}, exited: make(chan struct{})}
	defer func() {
		if err != nil {
			s.stop()
		}
	}()
	if s.dir, err = os.MkdirTemp("", "cardhouse-bench-"); err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	addr := ln.Addr().String()
	_ = ln.Close()
	args := []string{"serve", "--addr", addr, "--data", s.dir, "--signin-rate", "0", "--log-level", "warn", "--public-metrics"}
	if dsn != "" {
		args = append(args, "--db", dsn)
	}
	if cfg.ServerProfile != "" && first {
		args = append(args, "--pprof")
	}
	args = append(args, extra...)
	args = append(args, cfg.ServerArgs...)
	s.cmd = exec.Command(cfg.Exe, args...)
	s.cmd.Stdout, s.cmd.Stderr = s.log, s.log
	if err := s.cmd.Start(); err != nil {
		return nil, fmt.Errorf("bench: starting %s serve: %w", cfg.Exe, err)
	}
	go func() {
		s.err = s.cmd.Wait()
		close(s.exited)
	}()
	s.base = "http://" + addr
	deadline := time.Now().Add(startTimeout)
	for {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, s.base+"/healthz", nil)
		resp, err := http.DefaultClient.Do(req)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return s, nil
			}
		}
		select {
		case <-s.exited:
			return nil, fmt.Errorf("bench: the server exited before serving (%v): %s", s.err, s.log.Tail())
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("bench: the server did not answer /healthz within %s: %s", startTimeout, s.log.Tail())
		}
	}
}

// pid is the server's process id.
func (s *server) pid() int { return s.cmd.Process.Pid }

// stop sends SIGTERM, waits for the exit (killing the process after stopTimeout), and removes the
// data folder. It reports an unclean exit; a second call returns what the first did.
func (s *server) stop() error {
	s.stopOnce.Do(func() { s.stopErr = s.stopNow() })
	return s.stopErr
}

// freeze stops the server's process with SIGSTOP: it keeps its sockets open and answers nothing.
func (s *server) freeze() error { return s.cmd.Process.Signal(syscall.SIGSTOP) }

// kill ends the server's process with SIGKILL (a frozen one too) and removes its data folder.
func (s *server) kill() {
	s.stopOnce.Do(func() {
		if s.cmd != nil && s.cmd.Process != nil {
			_ = s.cmd.Process.Kill()
			<-s.exited
		}
		if s.dir != "" {
			_ = os.RemoveAll(s.dir)
		}
	})
}

func (s *server) stopNow() error {
	var err error
	if s.cmd != nil && s.cmd.Process != nil {
		_ = s.cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-s.exited:
			if s.err != nil {
				err = fmt.Errorf("bench: the server exited with %v: %s", s.err, s.log.Tail())
			}
		case <-time.After(stopTimeout):
			_ = s.cmd.Process.Kill()
			<-s.exited
			err = fmt.Errorf("bench: the server did not stop within %s of SIGTERM; killed", stopTimeout)
		}
	}
	if s.dir != "" {
		_ = os.RemoveAll(s.dir)
	}
	return err
}

// freshSchema creates a new schema on the PostgreSQL server of dsn and returns a DSN that uses it
// (search_path), so a run starts on empty tables whatever the database holds, and a func that
// drops it.
func freshSchema(ctx context.Context, dsn string) (string, func(), error) {
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		return "", nil, fmt.Errorf("bench: opening %s: %w", dsn, err)
	}
	var b [6]byte
	_, _ = rand.Read(b[:])
	schema := "bench_" + hex.EncodeToString(b[:])
	if _, err := db.ExecContext(ctx, "CREATE SCHEMA "+schema); err != nil {
		db.Close()
		return "", nil, fmt.Errorf("bench: creating schema %s: %w", schema, err)
	}
	drop := func() {
		dctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		_, _ = db.ExecContext(dctx, "DROP SCHEMA "+schema+" CASCADE")
		db.Close()
	}
	if strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://") {
		u, err := url.Parse(dsn)
		if err != nil {
			drop()
			return "", nil, fmt.Errorf("bench: --db: %w", err)
		}
		q := u.Query()
		q.Set("search_path", schema)
		u.RawQuery = q.Encode()
		return u.String(), drop, nil
	}
	return dsn + " search_path=" + schema, drop, nil
}

// tailWriter keeps the last max bytes written (the server's log) and counts the lines.
type tailWriter struct {
	mu    sync.Mutex
	max   int
	buf   []byte
	lines int
}

func (w *tailWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.lines += bytes.Count(p, []byte("\n"))
	w.buf = append(w.buf, p...)
	if len(w.buf) > w.max {
		w.buf = append(w.buf[:0], w.buf[len(w.buf)-w.max:]...)
	}
	return len(p), nil
}

// Tail is the end of what was written.
func (w *tailWriter) Tail() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return strings.TrimSpace(string(w.buf))
}

// Lines counts the lines written.
func (w *tailWriter) Lines() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.lines
}
