package store

import (
	"context"
	"database/sql"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"
)

// Checkpointing. In WAL mode SQLite copies the log back into the database file (a checkpoint)
// when the log passes wal_autocheckpoint pages, on the connection whose commit crossed the line,
// before that commit returns: the actions of that batch waited for the copy and its fsync (the
// commit wait's tail, docs/performance.md). So a checkpointer goroutine of its own copies the
// log back every checkpointEvery, on a connection of its own, while the committer goes on
// writing (a PASSIVE checkpoint never blocks writers). While commits leave it gaps (a paced
// load), it copies the whole log back and the next commit starts the log afresh, so the
// connections never reach their own threshold. Under a constant stream of commits it never
// catches the log's end; the connections' own checkpoint at walBackstopPages then bounds the log,
// with less left to copy.

// checkpointEvery is how often the checkpointer runs when actions were committed meanwhile.
const checkpointEvery = 250 * time.Millisecond

// checkpointer runs PASSIVE checkpoints until stop is closed.
type checkpointer struct {
	db       *sql.DB
	log      *slog.Logger
	every    time.Duration
	commits  func() int64 // the committer's transactions so far
	stop     chan struct{}
	stopOnce sync.Once
	done     chan struct{}
	seen     int64 // the commits at the last tick (the ticking goroutine's)
	failing  bool  // the last checkpoint failed (logged once, until one succeeds again)

	runs     atomic.Int64 // checkpoints run
	complete atomic.Int64 // of which copied the whole log back (the next commit starts it afresh)
}

func newCheckpointer(db *sql.DB, log *slog.Logger, every time.Duration, commits func() int64) *checkpointer {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	c := &checkpointer{db: db, log: log, every: every, commits: commits, stop: make(chan struct{}), done: make(chan struct{})}
	go c.run()
	return c
}

// close stops the checkpointer and waits for it.
func (c *checkpointer) close() {
	c.stopOnce.Do(func() { close(c.stop) })
	<-c.done
}

func (c *checkpointer) run() {
	defer close(c.done)
	t := time.NewTicker(c.every)
	defer t.Stop()
	for {
		select {
		case <-c.stop:
			return
		case <-t.C:
			c.tick()
		}
	}
}

// tick checkpoints if anything was committed since the last tick.
func (c *checkpointer) tick() {
	if n := c.commits(); n != c.seen {
		c.seen = n
		c.checkpoint()
	}
}

// checkpoint copies what it can of the log back into the database.
func (c *checkpointer) checkpoint() {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var busy, logFrames, copied int
	if err := c.db.QueryRowContext(ctx, "PRAGMA wal_checkpoint(PASSIVE)").Scan(&busy, &logFrames, &copied); err != nil {
		if !c.failing {
			c.log.Warn("checkpointing the SQLite log failed; commits will checkpoint it themselves once it reaches "+walBackstopPages+" pages", "err", err)
			c.failing = true
		}
		return
	}
	if c.failing {
		c.log.Info("checkpointing the SQLite log works again")
		c.failing = false
	}
	c.runs.Add(1)
	if busy == 0 && copied == logFrames {
		c.complete.Add(1)
	}
}
