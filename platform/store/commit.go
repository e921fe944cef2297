package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"gorm.io/gorm"
)

// Group commit. Every accepted action of every room is stored by one committer goroutine: it takes
// the first waiting action, then every other action already waiting (up to maxBatch), and writes
// them all in one transaction: one INSERT for the action rows, one UPDATE per game. Each room
// waits for its own action's result before it tells anyone (P-7), so nothing is broadcast before
// it is committed; the batch is just what happened to be waiting while the previous one wrote.
//
// On SQLite this also removes the writers' fight for the write lock (each losing writer slept in
// the busy handler, milliseconds at a time); on PostgreSQL it turns N transactions into one. A
// batch that fails as a whole (one stale game, a duplicate row) is retried action by action, each
// in its own transaction, so each caller gets its own answer and one bad action never fails the
// others.

// maxBatch bounds the actions of one transaction (and the size of its INSERT).
const maxBatch = 128

// commitTimeout bounds one batch's transaction.
const commitTimeout = 10 * time.Second

// commitReq is one action waiting to be stored.
type commitReq struct {
	gameID        int64
	rec           *ActionRecord
	state         []byte
	phase, status string
	ended         *time.Time
	done          chan error
}

// committer owns the queue of actions to store.
type committer struct {
	queue    chan *commitReq
	stop     chan struct{}
	stopOnce sync.Once
	done     chan struct{}

	batches, actions, retried atomic.Int64
}

// CommitStats counts the group commits so far: transactions that stored several actions at once
// (Batches, holding Actions actions in all, single ones included) and batches that failed as a
// whole and were stored action by action (Retried).
type CommitStats struct {
	Batches, Actions, Retried int64
}

// CommitStats returns the group commit counters.
func (s *Store) CommitStats() CommitStats {
	c := s.commits
	return CommitStats{Batches: c.batches.Load(), Actions: c.actions.Load(), Retried: c.retried.Load()}
}

// CommitCollectors are the group commit counters as Prometheus metrics:
// cardhouse_commit_batches_total, cardhouse_commit_actions_total (their ratio is the mean batch)
// and cardhouse_commit_retried_total.
func (s *Store) CommitCollectors() []prometheus.Collector {
	counter := func(name, help string, v func(CommitStats) int64) prometheus.Collector {
		return prometheus.NewCounterFunc(prometheus.CounterOpts{Name: name, Help: help},
			func() float64 { return float64(v(s.CommitStats())) })
	}
	return []prometheus.Collector{
		counter("cardhouse_commit_batches_total", "Transactions of the group committer (each stores one or more actions).",
			func(c CommitStats) int64 { return c.Batches }),
		counter("cardhouse_commit_actions_total", "Actions stored by the group committer.",
			func(c CommitStats) int64 { return c.Actions }),
		counter("cardhouse_commit_retried_total", "Batches that failed as a whole and were stored action by action.",
			func(c CommitStats) int64 { return c.Retried }),
	}
}

func (s *Store) startCommitter() {
	c := &committer{queue: make(chan *commitReq, 4*maxBatch), stop: make(chan struct{}), done: make(chan struct{})}
	s.commits = c
	go s.commitLoop(c)
}

// stopCommitter stores what is queued, then ends the committer.
func (s *Store) stopCommitter() {
	if s.commits == nil {
		return
	}
	s.commits.stopOnce.Do(func() { close(s.commits.stop) })
	<-s.commits.done
}

var errStoreClosed = errors.New("the store is closed")

func (s *Store) commitLoop(c *committer) {
	defer close(c.done)
	batch := make([]*commitReq, 0, maxBatch)
	for {
		var first *commitReq
		select {
		case first = <-c.queue:
		case <-c.stop:
			for {
				select {
				case r := <-c.queue:
					r.done <- errStoreClosed
				default:
					return
				}
			}
		}
		batch = append(batch[:0], first)
	fill:
		for len(batch) < maxBatch {
			select {
			case r := <-c.queue:
				batch = append(batch, r)
			default:
				break fill
			}
		}
		s.commitBatch(batch)
	}
}

// commitBatch stores batch and answers each request.
func (s *Store) commitBatch(batch []*commitReq) {
	ctx, cancel := context.WithTimeout(context.Background(), commitTimeout)
	defer cancel()
	c := s.commits
	c.batches.Add(1)
	c.actions.Add(int64(len(batch)))
	if len(batch) > 1 {
		if err := s.writeActions(ctx, batch); err == nil {
			for _, r := range batch {
				r.done <- nil
			}
			return
		}
		c.retried.Add(1)
	}
	for i := range batch {
		batch[i].done <- s.writeActions(ctx, batch[i:i+1])
	}
}

// commitStmts are the committer's two statements, prepared once: statements GORM would build and
// the driver compile afresh for every action were most of a commit's cost.
type commitStmts struct {
	insert, update *sql.Stmt
}

func (s *Store) prepareCommits(db *sql.DB) error {
	insert := "INSERT INTO actions (game_id, seq, seat, action, now, created_at) VALUES (?, ?, ?, ?, ?, ?)"
	update := "UPDATE games SET state = ?, seq = ?, phase = ?, status = ?, ended_at = ? WHERE id = ? AND seq = ?"
	if s.dialect == "postgres" {
		insert = "INSERT INTO actions (game_id, seq, seat, action, now, created_at) VALUES ($1, $2, $3, $4, $5, $6)"
		update = "UPDATE games SET state = $1, seq = $2, phase = $3, status = $4, ended_at = $5 WHERE id = $6 AND seq = $7"
	}
	var err error
	if s.stmts.insert, err = db.Prepare(insert); err != nil {
		return fmt.Errorf("preparing the action log's insert: %w", err)
	}
	if s.stmts.update, err = db.Prepare(update); err != nil {
		return fmt.Errorf("preparing the games' update: %w", err)
	}
	return nil
}

// writeActions stores the actions of rs and their games' new states in one transaction.
func (s *Store) writeActions(ctx context.Context, rs []*commitReq) (err error) {
	tx, err := s.sqlDB.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			_ = tx.Rollback()
		}
	}()
	if len(rs) > 1 {
		err = writeActionsBulk(ctx, tx, s.dialect, rs)
		if err == nil {
			err = tx.Commit()
		}
		return err
	}
	insert, update := tx.StmtContext(ctx, s.stmts.insert), tx.StmtContext(ctx, s.stmts.update)
	for _, r := range rs {
		if _, err := insert.ExecContext(ctx, r.gameID, r.rec.Seq, r.rec.Seat, r.rec.Action, r.rec.Now, r.rec.CreatedAt); err != nil {
			if errors.Is(s.translate(err), gorm.ErrDuplicatedKey) {
				return fmt.Errorf("game %d action %d: %w", r.gameID, r.rec.Seq, ErrConflict)
			}
			return err
		}
	}
	for _, r := range rs {
		var ended any
		if r.ended != nil {
			ended = *r.ended
		}
		res, err := update.ExecContext(ctx, r.state, r.rec.Seq, r.phase, r.status, ended, r.gameID, r.rec.Seq-1)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil {
			return err
		} else if n == 0 {
			return fmt.Errorf("game %d is not at action %d: %w", r.gameID, r.rec.Seq-1, ErrConflict)
		}
	}
	return tx.Commit()
}

// writeActionsBulk writes a batch in two statements, one INSERT of every action and one UPDATE of
// every game from a VALUES list: on PostgreSQL two round trips instead of two per action, on
// SQLite two statements to compile instead of two per action (the driver compiles a statement at
// every execution, prepared or not). Any failure (a duplicate, a game not at the expected action)
// fails the whole batch, which the committer then retries action by action.
func writeActionsBulk(ctx context.Context, tx *sql.Tx, dialect string, rs []*commitReq) error {
	pg := dialect == "postgres"
	var q strings.Builder
	args := make([]any, 0, 7*len(rs))
	arg := func(v any, cast string) {
		args = append(args, v)
		if !pg {
			q.WriteByte('?')
			return
		}
		q.WriteByte('$')
		q.WriteString(strconv.Itoa(len(args)))
		q.WriteString(cast)
	}
	q.WriteString("INSERT INTO actions (game_id, seq, seat, action, now, created_at) VALUES ")
	for i, r := range rs {
		if i > 0 {
			q.WriteByte(',')
		}
		q.WriteByte('(')
		for j, v := range []any{r.gameID, r.rec.Seq, r.rec.Seat, r.rec.Action, r.rec.Now, r.rec.CreatedAt} {
			if j > 0 {
				q.WriteByte(',')
			}
			arg(v, "")
		}
		q.WriteByte(')')
	}
	if _, err := tx.ExecContext(ctx, q.String(), args...); err != nil {
		return err
	}
	q.Reset()
	args = args[:0]
	// SQLite names a VALUES list's columns column1, column2, ...; PostgreSQL takes names.
	if pg {
		q.WriteString("UPDATE games AS g SET state = v.state, seq = v.seq, phase = v.phase, status = v.status, ended_at = v.ended_at FROM (VALUES ")
	} else {
		q.WriteString("UPDATE games SET state = v.column2, seq = v.column3, phase = v.column4, status = v.column5, ended_at = v.column6 FROM (VALUES ")
	}
	for i, r := range rs {
		if i > 0 {
			q.WriteByte(',')
		}
		var ended any
		if r.ended != nil {
			ended = *r.ended
		}
		q.WriteByte('(')
		arg(r.gameID, "::bigint")
		q.WriteByte(',')
		arg(r.state, "::bytea")
		q.WriteByte(',')
		arg(r.rec.Seq, "::bigint")
		q.WriteByte(',')
		arg(r.phase, "::text")
		q.WriteByte(',')
		arg(r.status, "::text")
		q.WriteByte(',')
		arg(ended, "::timestamptz")
		q.WriteByte(',')
		arg(r.rec.Seq-1, "::bigint")
		q.WriteByte(')')
	}
	if pg {
		q.WriteString(") AS v(id, state, seq, phase, status, ended_at, prev) WHERE g.id = v.id AND g.seq = v.prev")
	} else {
		q.WriteString(") AS v WHERE games.id = v.column1 AND games.seq = v.column7")
	}
	res, err := tx.ExecContext(ctx, q.String(), args...)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil {
		return err
	} else if n != int64(len(rs)) {
		return fmt.Errorf("%d of %d games were at the expected action: %w", n, len(rs), ErrConflict)
	}
	return nil
}

// translate maps a driver's error to GORM's (ErrDuplicatedKey, ...), as GORM's own calls do.
func (s *Store) translate(err error) error {
	if t, ok := s.db.Dialector.(gorm.ErrorTranslator); ok {
		return t.Translate(err)
	}
	return err
}

// CommitAction stores an accepted action and the state it produced, in one transaction (P-7),
// shared with the actions of other games waiting at the same time (group commit, above). It
// succeeds only if the game is still at seq-1 actions: a stale writer gets ErrConflict and nothing
// of it is written. status and ended are the game's status after the action. Once queued, the
// action's fate is awaited even if ctx ends, so the caller never takes a stored action for a
// lost one.
func (s *Store) CommitAction(ctx context.Context, gameID int64, rec *ActionRecord, state []byte, phase, status string, ended *time.Time) error {
	if rec.CreatedAt.IsZero() {
		rec.CreatedAt = time.Now().UTC()
	}
	rec.GameID = gameID
	r := &commitReq{gameID: gameID, rec: rec, state: state, phase: phase, status: status, ended: ended, done: make(chan error, 1)}
	select {
	case s.commits.queue <- r:
	case <-s.commits.stop:
		return errStoreClosed
	case <-ctx.Done():
		return ctx.Err()
	}
	select {
	case err := <-r.done:
		return err
	case <-s.commits.done: // the committer ended: it answered every request it took
		select {
		case err := <-r.done:
			return err
		default:
			return errStoreClosed
		}
	}
}
