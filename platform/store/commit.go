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
// them all in one transaction: one INSERT for the action rows, one UPDATE for the games' states
// that come with some of them. Each room waits for its own action's result before it tells anyone
// (P-7), so nothing is broadcast before it is committed; the batch is what was waiting while the
// previous one wrote (and, under load, what came within a short linger: below).
//
// On SQLite this also removes the writers' fight for the write lock (each losing writer slept in
// the busy handler, milliseconds at a time); on PostgreSQL it turns N transactions into one. A
// batch that fails as a whole (one stale game, a duplicate row) is retried action by action, each
// in its own transaction, so each caller gets its own answer and one bad action never fails the
// others.

// maxBatch bounds the actions of one transaction (and the size of its INSERT).
const maxBatch = 128

// maxWrites bounds the writes other than actions in one transaction. They wait in a queue of their
// own, so that a flood of them (a thousand sockets reconnecting, each saving its room) never
// queues the actions behind it: every batch takes all the actions waiting (up to maxBatch) and at
// most maxWrites of the others.
const maxWrites = 32

// commitTimeout bounds one batch's transaction.
const commitTimeout = 10 * time.Second

// commitReq is one action waiting to be stored.
type commitReq struct {
	gameID int64
	rec    *ActionRecord
	state  *GameState // nil: the action alone
	fence  *Fence     // nil: no lease to check (one node)
	// write, when set, is a write other than an action (rec is then nil), run on the batch's
	// transaction (Store.write).
	write func(tx *gorm.DB) error
	err   error // the request's own result once its batch committed (writeBatch)
	done  chan error
}

// committer owns the queue of actions to store.
type committer struct {
	last map[int64]int // game -> its last stored action (see writeBatch)
	// conn is the committer's own connection (touched by its goroutine only; nil until the first
	// batch, or after one failed): it never waits in the pool's queue behind the reads. When it
	// did, a burst of reads (a thousand sockets reconnecting, each reading its session and its
	// room) held the pool while every room's action and write waited behind them.
	conn *sql.Conn

	// The recent rate of actions (busy), for lingering.
	windowStart time.Time
	inWindow    int
	lastRate    float64

	queue    chan *commitReq // actions
	others   chan *commitReq // the other writes (Store.write)
	stop     chan struct{}
	stopOnce sync.Once
	done     chan struct{}

	batches, actions, writes, retried atomic.Int64
}

// CommitStats counts the group commits so far: transactions that stored several requests at once
// (Batches, holding Actions actions and Writes other writes in all, single ones included) and
// batches whose actions failed together and were stored one by one (Retried).
type CommitStats struct {
	Batches, Actions, Writes, Retried int64
}

// CommitStats returns the group commit counters.
func (s *Store) CommitStats() CommitStats {
	c := s.commits
	return CommitStats{Batches: c.batches.Load(), Actions: c.actions.Load(), Writes: c.writes.Load(), Retried: c.retried.Load()}
}

// CommitCollectors are the group commit counters as Prometheus metrics:
// cardhouse_commit_batches_total, cardhouse_commit_actions_total and cardhouse_commit_writes_total
// (their sum over the batches is the mean batch) and cardhouse_commit_retried_total; on SQLite also the background checkpoints
// (cardhouse_sqlite_checkpoints_total, cardhouse_sqlite_checkpoints_complete_total).
func (s *Store) CommitCollectors() []prometheus.Collector {
	counter := func(name, help string, v func(CommitStats) int64) prometheus.Collector {
		return prometheus.NewCounterFunc(prometheus.CounterOpts{Name: name, Help: help},
			func() float64 { return float64(v(s.CommitStats())) })
	}
	cs := []prometheus.Collector{
		counter("cardhouse_commit_batches_total", "Transactions of the group committer (each stores one or more actions).",
			func(c CommitStats) int64 { return c.Batches }),
		counter("cardhouse_commit_actions_total", "Actions stored by the group committer.",
			func(c CommitStats) int64 { return c.Actions }),
		counter("cardhouse_commit_writes_total", "Writes other than actions (rooms, members, games, sessions) stored by the group committer.",
			func(c CommitStats) int64 { return c.Writes }),
		counter("cardhouse_commit_retried_total", "Batches that failed as a whole and were stored action by action.",
			func(c CommitStats) int64 { return c.Retried }),
	}
	if c := s.ckpt; c != nil {
		cs = append(cs,
			prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "cardhouse_sqlite_checkpoints_total",
				Help: "Background checkpoints of the SQLite WAL."}, func() float64 { return float64(c.runs.Load()) }),
			prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "cardhouse_sqlite_checkpoints_complete_total",
				Help: "Background checkpoints that copied the whole WAL back (the next commit starts it afresh)."}, func() float64 { return float64(c.complete.Load()) }))
	}
	return cs
}

func (s *Store) startCommitter() {
	c := &committer{last: map[int64]int{}, queue: make(chan *commitReq, 4*maxBatch), others: make(chan *commitReq, 4*maxBatch), stop: make(chan struct{}), done: make(chan struct{})}
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
	defer func() {
		if c.conn != nil {
			_ = c.conn.Close()
		}
	}()
	batch := make([]*commitReq, 0, maxBatch+maxWrites)
	for {
		var first *commitReq
		select {
		case first = <-c.queue:
		case first = <-c.others:
		case <-c.stop:
			for {
				select {
				case r := <-c.queue:
					r.done <- errStoreClosed
				case r := <-c.others:
					r.done <- errStoreClosed
				default:
					return
				}
			}
		}
		batch = append(batch[:0], first)
		writes := 0
		if first.write != nil {
			writes = 1
		}
	fill:
		for len(batch)-writes < maxBatch {
			select {
			case r := <-c.queue:
				batch = append(batch, r)
			default:
				break fill
			}
		}
	fillWrites:
		for writes < maxWrites {
			select {
			case r := <-c.others:
				batch = append(batch, r)
				writes++
			default:
				break fillWrites
			}
		}
		if c.busy(time.Now(), len(batch)) {
			n := len(batch)
			batch = c.linger(batch)
			c.inWindow += len(batch) - n
		}
		s.commitBatch(batch)
	}
}

// Lingering. A transaction costs several times what one more action in it costs (on SQLite about
// 65 µs against 13, BenchmarkCommitBatch), so when actions come fast the committer waits a little
// for more before it writes: while the last tenth of a second brought actions at lingerRate per
// second or more (at least one more is then expected within the wait), it takes those that come
// within lingerFor. At a light load actions are written at once, as they come. Under load the wait
// is a fraction of a millisecond against the tens of milliseconds actions then spend queued, and
// transactions grow from about 3 actions to about 15 (250 rooms).
const (
	lingerFor    = 500 * time.Microsecond
	lingerRate   = 2000
	lingerWindow = 100 * time.Millisecond
)

// busy reports whether actions came at lingerRate or more over the last lingerWindow, counting
// the n that just came (at now).
func (c *committer) busy(now time.Time, n int) bool {
	if now.Sub(c.windowStart) >= lingerWindow {
		c.lastRate = float64(c.inWindow) / now.Sub(c.windowStart).Seconds()
		c.windowStart, c.inWindow = now, 0
	}
	c.inWindow += n
	return c.lastRate >= lingerRate
}

// linger adds to batch the requests that come within lingerFor, up to maxBatch. Requests already
// waiting are always taken, even once the wait is over (a select would pick at random between
// them and the timer).
func (c *committer) linger(batch []*commitReq) []*commitReq {
	t := time.NewTimer(lingerFor)
	defer t.Stop()
	for len(batch) < maxBatch {
		select {
		case r := <-c.queue:
			batch = append(batch, r)
			continue
		default:
		}
		select {
		case r := <-c.queue:
			batch = append(batch, r)
		case <-t.C:
			return batch
		case <-c.stop:
			return batch
		}
	}
	return batch
}

// commitBatch stores batch and answers each request.
func (s *Store) commitBatch(batch []*commitReq) {
	ctx, cancel := context.WithTimeout(context.Background(), commitTimeout)
	defer cancel()
	c := s.commits
	c.batches.Add(1)
	for _, r := range batch {
		if r.write != nil {
			c.writes.Add(1)
		} else {
			c.actions.Add(1)
		}
	}
	err := s.writeBatch(ctx, batch)
	if err == nil || len(batch) == 1 {
		for _, r := range batch {
			if err != nil {
				r.done <- err
			} else {
				r.done <- r.err
			}
		}
		return
	}
	// The transaction itself failed (its COMMIT, a savepoint): each request alone, in its own.
	c.retried.Add(1)
	for i := range batch {
		err := s.writeBatch(ctx, batch[i:i+1])
		batch[i].done <- err
	}
}

// writeBatch stores the requests of rs in one transaction: the actions, and the states that come
// with some of them, first (one INSERT, one UPDATE), then the other writes in their order. When rs
// holds more than one request, each write runs in a savepoint of its own and the actions in one
// together: one that fails (a conflict, a stale game, a fenced room) is undone alone, its error
// kept in its request's err, and the transaction goes on with the others; if the actions fail
// together, they are stored one by one, each in its own savepoint, so each gets its own answer.
// The error returned is the transaction's (nil when it committed); a lone request's own failure
// is returned as the transaction's.
//
// An action that does not follow its game's last one (a duplicate, a gap), or a state whose game
// no longer holds the state it replaces, fails with ErrConflict. The committer keeps each game's
// last action once it has read or written it (c.last, touched by the committer goroutine only), so
// a batch reads a game's log only the first time it sees it.
func (s *Store) writeBatch(ctx context.Context, rs []*commitReq) (err error) {
	tx, err := s.begin(ctx)
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			_ = tx.Rollback()
		}
	}()
	var acts, writes []*commitReq
	for _, r := range rs {
		r.err = nil
		if r.write != nil {
			writes = append(writes, r)
		} else {
			acts = append(acts, r)
		}
	}
	shared := len(rs) > 1
	switch {
	case len(acts) == 0:
	case !shared:
		if err = s.storeActions(ctx, tx, acts); err != nil {
			return err
		}
	default:
		var own error
		if own, err = inSavepoint(ctx, tx, func() error { return s.storeActions(ctx, tx, acts) }); err != nil {
			return err
		}
		if own != nil && len(acts) == 1 {
			acts[0].err = own
		} else if own != nil {
			s.commits.retried.Add(1)
			for i := range acts {
				if acts[i].err, err = inSavepoint(ctx, tx, func() error { return s.storeActions(ctx, tx, acts[i:i+1]) }); err != nil {
					return err
				}
			}
		}
	}
	if len(writes) > 0 {
		// GORM on the committer's transaction, as its own Begin makes one.
		g := s.db.Session(&gorm.Session{Context: ctx, NewDB: true})
		g.Statement.ConnPool = tx
		for _, r := range writes {
			if !shared {
				if err = run(r.write, g); err != nil {
					return err
				}
				continue
			}
			if r.err, err = inSavepoint(ctx, tx, func() error { return run(r.write, g) }); err != nil {
				return err
			}
		}
	}
	if err = tx.Commit(); err != nil {
		return err
	}
	c := s.commits
	for _, r := range acts {
		if r.err != nil {
			continue
		}
		if r.state != nil && r.state.Status != GameLive {
			delete(c.last, r.gameID) // no more actions: forget it
			continue
		}
		if len(c.last) >= maxLastSeqs {
			clear(c.last) // games abandoned without a last action are never deleted: start afresh
		}
		c.last[r.gameID] = r.rec.Seq
	}
	return nil
}

// begin starts a batch's transaction on the committer's own connection, opening one first when
// it has none; a connection that fails to begin is closed and the next batch opens another.
func (s *Store) begin(ctx context.Context) (*sql.Tx, error) {
	c := s.commits
	if c.conn == nil {
		conn, err := s.sqlDB.Conn(ctx)
		if err != nil {
			return nil, err
		}
		c.conn = conn
	}
	tx, err := c.conn.BeginTx(ctx, nil)
	if err != nil {
		_ = c.conn.Close()
		c.conn = nil
	}
	return tx, err
}

// run calls a write, turning a panic into its error (the committer serves every room).
func run(write func(tx *gorm.DB) error, g *gorm.DB) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("a write panicked: %v", p)
		}
	}()
	return write(g)
}

// inSavepoint runs f in a savepoint of tx: own is f's error (what f did is then undone), err a
// failure of the savepoint itself, after which tx is not to be used.
func inSavepoint(ctx context.Context, tx *sql.Tx, f func() error) (own, err error) {
	if _, err = tx.ExecContext(ctx, "SAVEPOINT w"); err != nil {
		return nil, err
	}
	if own = f(); own != nil {
		if _, err = tx.ExecContext(ctx, "ROLLBACK TO SAVEPOINT w"); err != nil {
			return own, err
		}
	}
	_, err = tx.ExecContext(ctx, "RELEASE SAVEPOINT w")
	return own, err
}

// storeActions writes the actions of rs, and the states that come with some of them, in tx,
// after checking their fences and that each follows its game's last action.
func (s *Store) storeActions(ctx context.Context, tx *sql.Tx, rs []*commitReq) (err error) {
	defer func() {
		if err != nil && errors.Is(s.translate(err), gorm.ErrDuplicatedKey) {
			err = fmt.Errorf("%w: %w", ErrConflict, err)
		}
	}()
	if err = s.checkFences(ctx, tx, rs); err != nil {
		return err
	}
	c := s.commits
	for _, r := range rs {
		last, ok := c.last[r.gameID]
		if !ok || (r.fence != nil && r.rec.Seq != last+1) {
			// A fenced game may have moved on under another node since the committer last wrote it.
			if err = tx.QueryRowContext(ctx, lastSeqQuery(s.dialect), r.gameID).Scan(&last); err != nil {
				return fmt.Errorf("reading game %d's last action: %w", r.gameID, err)
			}
		}
		if r.rec.Seq != last+1 {
			return fmt.Errorf("game %d is at action %d, not %d: %w", r.gameID, last, r.rec.Seq-1, ErrConflict)
		}
	}
	if err = insertActions(ctx, tx, s.dialect == "postgres", rs); err != nil {
		return err
	}
	return updateStates(ctx, tx, s.dialect == "postgres", rs)
}

// maxLastSeqs bounds the games whose last action the committer keeps (a cache: a game it does not
// hold costs one SELECT when it next commits).
const maxLastSeqs = 100_000

// lastSeqQuery reads a game's last stored action (0 when none).
func lastSeqQuery(dialect string) string {
	if dialect == "postgres" {
		return "SELECT COALESCE(MAX(seq), 0) FROM actions WHERE game_id = $1"
	}
	return "SELECT COALESCE(MAX(seq), 0) FROM actions WHERE game_id = ?"
}

// sqlArgs builds a statement's text and arguments: placeholders "?" on SQLite, "$n" with a type
// cast on PostgreSQL (a VALUES list's columns take no type from their use there).
type sqlArgs struct {
	pg   bool
	q    strings.Builder
	args []any
}

func (b *sqlArgs) arg(v any, cast string) {
	b.args = append(b.args, v)
	if !b.pg {
		b.q.WriteByte('?')
		return
	}
	b.q.WriteByte('$')
	b.q.WriteString(strconv.Itoa(len(b.args)))
	b.q.WriteString(cast)
}

// insertActions writes the action rows of a batch in one statement (on PostgreSQL one round trip
// instead of one per action; on SQLite one statement to compile instead of one per action, as the
// driver compiles a statement at every execution, prepared or not). A duplicate (game_id, seq)
// fails it.
func insertActions(ctx context.Context, tx *sql.Tx, pg bool, rs []*commitReq) error {
	b := &sqlArgs{pg: pg, args: make([]any, 0, 6*len(rs))}
	b.q.WriteString("INSERT INTO actions (game_id, seq, seat, action, now, created_at) VALUES ")
	for i, r := range rs {
		if i > 0 {
			b.q.WriteByte(',')
		}
		b.q.WriteByte('(')
		for j, v := range []any{r.gameID, r.rec.Seq, r.rec.Seat, r.rec.Action, r.rec.Now, r.rec.CreatedAt} {
			if j > 0 {
				b.q.WriteByte(',')
			}
			b.arg(v, "")
		}
		b.q.WriteByte(')')
	}
	_, err := tx.ExecContext(ctx, b.q.String(), b.args...)
	return err
}

// updateStates writes the states that come with the actions of a batch (those with one) in one
// UPDATE from a VALUES list, each only if its game's row still holds the state it replaces.
func updateStates(ctx context.Context, tx *sql.Tx, pg bool, rs []*commitReq) error {
	var with []*commitReq
	for _, r := range rs {
		if r.state != nil {
			with = append(with, r)
		}
	}
	switch len(with) {
	case 0:
		return nil
	case 1: // a plain UPDATE: much less to compile than one from a VALUES list
		r, st := with[0], with[0].state
		q := "UPDATE games SET state = ?, seq = ?, phase = ?, status = ?, ended_at = ? WHERE id = ? AND seq = ?"
		if pg {
			q = "UPDATE games SET state = $1, seq = $2, phase = $3, status = $4, ended_at = $5 WHERE id = $6 AND seq = $7"
		}
		var ended any
		if st.Ended != nil {
			ended = *st.Ended
		}
		res, err := tx.ExecContext(ctx, q, st.State, r.rec.Seq, st.Phase, st.Status, ended, r.gameID, st.Since)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil {
			return err
		} else if n != 1 {
			return fmt.Errorf("game %d does not hold the state of action %d: %w", r.gameID, st.Since, ErrConflict)
		}
		return nil
	}
	b := &sqlArgs{pg: pg, args: make([]any, 0, 7*len(with))}
	// SQLite names a VALUES list's columns column1, column2, ...; PostgreSQL takes names.
	if pg {
		b.q.WriteString("UPDATE games AS g SET state = v.state, seq = v.seq, phase = v.phase, status = v.status, ended_at = v.ended_at FROM (VALUES ")
	} else {
		b.q.WriteString("UPDATE games SET state = v.column2, seq = v.column3, phase = v.column4, status = v.column5, ended_at = v.column6 FROM (VALUES ")
	}
	for i, r := range with {
		st := r.state
		if i > 0 {
			b.q.WriteByte(',')
		}
		var ended any
		if st.Ended != nil {
			ended = *st.Ended
		}
		b.q.WriteByte('(')
		b.arg(r.gameID, "::bigint")
		b.q.WriteByte(',')
		b.arg(st.State, "::bytea")
		b.q.WriteByte(',')
		b.arg(r.rec.Seq, "::bigint")
		b.q.WriteByte(',')
		b.arg(st.Phase, "::text")
		b.q.WriteByte(',')
		b.arg(st.Status, "::text")
		b.q.WriteByte(',')
		b.arg(ended, "::timestamptz")
		b.q.WriteByte(',')
		b.arg(st.Since, "::bigint")
		b.q.WriteByte(')')
	}
	if pg {
		b.q.WriteString(") AS v(id, state, seq, phase, status, ended_at, prev) WHERE g.id = v.id AND g.seq = v.prev")
	} else {
		b.q.WriteString(") AS v WHERE games.id = v.column1 AND games.seq = v.column7")
	}
	res, err := tx.ExecContext(ctx, b.q.String(), b.args...)
	if err != nil {
		return err
	}
	if got, err := res.RowsAffected(); err != nil {
		return err
	} else if got != int64(len(with)) {
		return fmt.Errorf("%d of %d games held the state their new one replaces: %w", got, len(with), ErrConflict)
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

// GameState is a game's state as stored with one of its actions: the state after that action,
// the game's phase and status then, and when it ended (nil while it goes on).
type GameState struct {
	State         []byte
	Phase, Status string
	Ended         *time.Time
	// Since is the seq of the state the game's row holds now, which this one replaces: the write
	// succeeds only if the row still holds it.
	Since int
}

// CommitAction stores an accepted action, with the state it produced when st is set, in one
// transaction (P-7), shared with the actions of other games waiting at the same time (group
// commit, above). The game's row keeps the state of its last action stored with one (Game.Seq);
// the actions after it are in the log (ActionsAfter), from which a game is rebuilt. The action must
// follow the game's last one (seq 1, or the seq after one in the log) and st must replace the
// state the row holds (st.Since): otherwise, as from a stale writer, the result is ErrConflict
// and nothing of it is written. Once queued, the action's fate is awaited even if ctx ends, so
// the caller never takes a stored action for a lost one.
func (s *Store) CommitAction(ctx context.Context, gameID int64, rec *ActionRecord, st *GameState) error {
	return s.commit(ctx, s.fence, gameID, rec, st)
}

func (s *Store) commit(ctx context.Context, f *Fence, gameID int64, rec *ActionRecord, st *GameState) error {
	if rec.CreatedAt.IsZero() {
		rec.CreatedAt = time.Now().UTC()
	}
	rec.GameID = gameID
	return s.queue(ctx, &commitReq{gameID: gameID, rec: rec, state: st, fence: f, done: make(chan error, 1)})
}

// write runs fn, a write of the rooms' and players' paths (a room, its members, a game started, a
// session, a chat line), in the committer's next transaction, shared with the actions and other
// writes waiting at the same time, and returns fn's error once that transaction is committed
// (synced, under SyncFull). Before this, each such write was a transaction of its own outside
// the committer: on SQLite each held the one write lock for its own sync, the others (the
// committer too) slept in SQLite's busy handler, and, holding pool connections meanwhile, they
// left none for the reads (docs/performance.md, "Every write through the committer").
//
// fn sees a transaction (in a savepoint of its own when the batch holds other requests): what it
// does is undone alone if it fails. It must use only tx, never the Store (which would wait for
// the write lock the committer holds), and may be run a second time if its whole batch fails to
// commit. Once queued, its fate is awaited even if ctx ends, as CommitAction's.
func (s *Store) write(ctx context.Context, fn func(tx *gorm.DB) error) error {
	return s.queue(ctx, &commitReq{write: fn, done: make(chan error, 1)})
}

// queue hands r to the committer and waits for its answer.
func (s *Store) queue(ctx context.Context, r *commitReq) error {
	q := s.commits.queue
	if r.write != nil {
		q = s.commits.others
	}
	select {
	case q <- r:
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
