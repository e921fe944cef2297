package store

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

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
	s.commits.batches.Add(1)
	s.commits.actions.Add(int64(len(batch)))
	if len(batch) > 1 {
		if err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error { return writeActions(tx, batch) }); err == nil {
			for _, r := range batch {
				r.done <- nil
			}
			return
		}
		s.commits.retried.Add(1)
	}
	for _, r := range batch {
		r.done <- s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error { return writeActions(tx, batch[:0:0], r) })
	}
}

// writeActions writes the action rows and the games' new states of rs (and more) in tx.
func writeActions(tx *gorm.DB, rs []*commitReq, more ...*commitReq) error {
	rs = append(rs, more...)
	var q strings.Builder
	q.WriteString("INSERT INTO actions (game_id, seq, seat, action, now, created_at) VALUES ")
	args := make([]any, 0, 6*len(rs))
	for i, r := range rs {
		if i > 0 {
			q.WriteByte(',')
		}
		q.WriteString("(?,?,?,?,?,?)")
		args = append(args, r.gameID, r.rec.Seq, r.rec.Seat, r.rec.Action, r.rec.Now, r.rec.CreatedAt)
	}
	if err := tx.Exec(q.String(), args...).Error; err != nil {
		if errors.Is(err, gorm.ErrDuplicatedKey) {
			if len(rs) == 1 {
				return fmt.Errorf("game %d action %d: %w", rs[0].gameID, rs[0].rec.Seq, ErrConflict)
			}
			return ErrConflict
		}
		return err
	}
	for _, r := range rs {
		res := tx.Exec("UPDATE games SET state = ?, seq = ?, phase = ?, status = ?, ended_at = ? WHERE id = ? AND seq = ?",
			r.state, r.rec.Seq, r.phase, r.status, r.ended, r.gameID, r.rec.Seq-1)
		if res.Error != nil {
			return res.Error
		}
		if res.RowsAffected == 0 {
			return fmt.Errorf("game %d is not at action %d: %w", r.gameID, r.rec.Seq-1, ErrConflict)
		}
	}
	return nil
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
