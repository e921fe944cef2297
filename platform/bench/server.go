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
// own data folder (and, on PostgreSQL, its own schema).
type server struct {
	cmd    *exec.Cmd
	base   string
	dir    string
	log    *tailWriter
	exited chan struct{}
	err    error
	// dropSchema removes the bench's PostgreSQL schema (nil on SQLite or with KeepSchema).
	dropSchema func()
}

// startServer runs cfg.Exe serve and waits until it answers /healthz.
func startServer(ctx context.Context, cfg *Config) (_ *server, err error) {
	if cfg.Exe == "" {
		return nil, errors.New("bench: no server to start: set Exe (the cardhouse binary) or Server (a URL)")
	}
	s := &server{log: &tailWriter{max: 16 << 10}, exited: make(chan struct{})}
	defer func() {
		if err != nil {
			s.stop()
		}
	}()
	if s.dir, err = os.MkdirTemp("", "cardhouse-bench-"); err != nil {
		return nil, err
	}
	dsn := cfg.DB
	if dsn != "" && !cfg.KeepSchema {
		if dsn, s.dropSchema, err = freshSchema(ctx, dsn); err != nil {
			return nil, err
		}
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
	if cfg.ServerProfile != "" {
		args = append(args, "--pprof")
	}
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
// data folder and the schema. It reports an unclean exit.
func (s *server) stop() error {
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
	if s.dropSchema != nil {
		s.dropSchema()
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
