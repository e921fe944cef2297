package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"gorm.io/gorm"
)

// Room leases. In a cluster a room's actor runs on one node at a time: the node that holds the
// room's lease. A lease has a fencing epoch, raised every time a node takes the room, and every
// commit of the room's actions names the epoch it was made under (Fence) and checks it in its own
// transaction, so a node that lost the room (paused, partitioned, slow) can never write to it
// again: its commit fails with ErrFenced and nothing of it is stored. Expiry is measured on the
// database's clock (nowMs), never a node's, so nodes with skewed clocks still agree on who owns a
// room. A single node needs no lease: its commits carry no fence (CommitAction).

// ErrLeaseHeld is returned by AcquireLease when another node holds the room's lease, unexpired.
var ErrLeaseHeld = errors.New("another node holds the room's lease")

// ErrFenced is returned when a node writes to, or renews the lease of, a room whose lease it no
// longer holds: another node has taken it since (a higher epoch).
var ErrFenced = errors.New("the room's lease was taken by another node")

// Lease is a node's hold on a room.
type Lease struct {
	RoomID int64
	// Node is the holder's name; "" once the lease was released (ReleaseLease).
	Node  string
	Epoch int64
	// ExpiresMs is when the lease ends, in Unix milliseconds of the database's clock.
	ExpiresMs int64
}

// Fence names the lease a write is made under: the write succeeds only while the room's lease
// still has this epoch.
type Fence struct {
	RoomID int64
	Epoch  int64
}

// Fence returns the fence of writes made under l.
func (l Lease) Fence() Fence { return Fence{RoomID: l.RoomID, Epoch: l.Epoch} }

// nowMs is the database's clock in Unix milliseconds, as an SQL expression.
func (s *Store) nowMs() string {
	if s.dialect == "postgres" {
		return "(extract(epoch from clock_timestamp()) * 1000)::bigint"
	}
	return "CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)"
}

// params rewrites a statement written with $1, $2, ... for the store's dialect (SQLite: ?1, ?2).
func (s *Store) params(q string) string {
	if s.dialect == "postgres" {
		return q
	}
	return strings.ReplaceAll(q, "$", "?")
}

// AcquireLease makes node the holder of the room's lease for ttl, under a new epoch, when nobody
// holds it, its lease has expired, or node itself holds it (a node restarted under the same name
// takes a new epoch: whatever its previous run still had in flight is fenced off). A lease held
// by another node and not yet expired is not taken: the answer is that lease and ErrLeaseHeld.
func (s *Store) AcquireLease(ctx context.Context, roomID int64, node string, ttl time.Duration) (Lease, error) {
	if node == "" || ttl <= 0 {
		return Lease{}, fmt.Errorf("acquiring room %d's lease: a node name and a positive duration are needed", roomID)
	}
	now := s.nowMs()
	q := s.params(`INSERT INTO room_leases (room_id, node, epoch, expires_ms) VALUES ($1, $2, 1, ` + now + ` + $3)
ON CONFLICT (room_id) DO UPDATE SET node = excluded.node, epoch = room_leases.epoch + 1, expires_ms = excluded.expires_ms
WHERE room_leases.expires_ms <= ` + now + ` OR room_leases.node = excluded.node
RETURNING epoch, expires_ms`)
	l := Lease{RoomID: roomID, Node: node}
	err := s.sqlDB.QueryRowContext(ctx, q, roomID, node, ttl.Milliseconds()).Scan(&l.Epoch, &l.ExpiresMs)
	if errors.Is(err, sql.ErrNoRows) {
		held, herr := s.LeaseOf(ctx, roomID)
		if herr != nil {
			return Lease{}, fmt.Errorf("reading room %d's lease: %w", roomID, herr)
		}
		return held, fmt.Errorf("room %d: %s holds it until %d: %w", roomID, held.Node, held.ExpiresMs, ErrLeaseHeld)
	}
	if err != nil {
		return Lease{}, fmt.Errorf("acquiring room %d's lease: %w", roomID, s.translate(err))
	}
	return l, nil
}

// RenewLease extends l by ttl from now, as RenewLeases does for one lease. A lease that expired
// but was not taken is renewed (its epoch is unchanged, so nobody else wrote in between); one
// another node has taken since returns ErrFenced, and its holder must stop running the room.
func (s *Store) RenewLease(ctx context.Context, l *Lease, ttl time.Duration) error {
	renewed, err := s.RenewLeases(ctx, l.Node, []Lease{*l}, ttl)
	if err != nil {
		return err
	}
	exp, ok := renewed[l.RoomID]
	if !ok {
		return fmt.Errorf("renewing room %d's lease (epoch %d): %w", l.RoomID, l.Epoch, ErrFenced)
	}
	l.ExpiresMs = exp
	return nil
}

// RenewLeases renews, in one statement, every lease of ls held by node under the epoch named, by
// ttl from now, and returns the database's new expiry of each renewed one by room; a lease
// missing from the answer was taken by another node (ErrFenced for that room). A node renews its
// hundreds of rooms in one round trip rather than one each.
func (s *Store) RenewLeases(ctx context.Context, node string, ls []Lease, ttl time.Duration) (map[int64]int64, error) {
	renewed := make(map[int64]int64, len(ls))
	for len(ls) > 0 {
		chunk := ls[:min(len(ls), 500)] // bounded statements: 2 arguments a lease
		ls = ls[len(chunk):]
		b := &sqlArgs{pg: s.dialect == "postgres"}
		b.q.WriteString("UPDATE room_leases SET expires_ms = " + s.nowMs() + " + ")
		b.arg(ttl.Milliseconds(), "::bigint")
		b.q.WriteString(" WHERE node = ")
		b.arg(node, "::text")
		b.q.WriteString(" AND (")
		for i, l := range chunk {
			if i > 0 {
				b.q.WriteString(" OR ")
			}
			b.q.WriteString("(room_id = ")
			b.arg(l.RoomID, "::bigint")
			b.q.WriteString(" AND epoch = ")
			b.arg(l.Epoch, "::bigint")
			b.q.WriteByte(')')
		}
		b.q.WriteString(") RETURNING room_id, expires_ms")
		rows, err := s.sqlDB.QueryContext(ctx, b.q.String(), b.args...)
		if err != nil {
			return nil, fmt.Errorf("renewing %d room leases: %w", len(chunk), err)
		}
		for rows.Next() {
			var id, exp int64
			if err := rows.Scan(&id, &exp); err != nil {
				rows.Close()
				return nil, err
			}
			renewed[id] = exp
		}
		err = rows.Err()
		rows.Close()
		if err != nil {
			return nil, err
		}
	}
	return renewed, nil
}

// ReleaseLease ends l at once, so that another node may take the room without waiting for its
// expiry (a graceful stop hands its rooms over). Releasing a lease already taken by another node
// does nothing. A released lease names no node (Node is ""), so that a renewal of it still on its
// way (the holder's keeper sent its round just before the release) renews nothing rather than
// bring the lease back for another whole term.
func (s *Store) ReleaseLease(ctx context.Context, l Lease) error {
	q := s.params(`UPDATE room_leases SET expires_ms = 0, node = '' WHERE room_id = $1 AND node = $2 AND epoch = $3`)
	if _, err := s.sqlDB.ExecContext(ctx, q, l.RoomID, l.Node, l.Epoch); err != nil {
		return fmt.Errorf("releasing room %d's lease: %w", l.RoomID, err)
	}
	return nil
}

// LeaseOf returns the room's lease as it stands (expired or not), or ErrNotFound when no node
// ever held it.
func (s *Store) LeaseOf(ctx context.Context, roomID int64) (Lease, error) {
	l := Lease{RoomID: roomID}
	err := s.sqlDB.QueryRowContext(ctx, s.params(`SELECT node, epoch, expires_ms FROM room_leases WHERE room_id = $1`), roomID).
		Scan(&l.Node, &l.Epoch, &l.ExpiresMs)
	if errors.Is(err, sql.ErrNoRows) {
		return Lease{}, ErrNotFound
	}
	return l, err
}

// Leases returns every lease with the database's clock at the time of reading (Unix ms), so that
// a caller can tell the live ones from the expired, by room.
func (s *Store) Leases(ctx context.Context) (leases []Lease, nowMs int64, err error) {
	if err := s.sqlDB.QueryRowContext(ctx, "SELECT "+s.nowMs()).Scan(&nowMs); err != nil {
		return nil, 0, err
	}
	rows, err := s.sqlDB.QueryContext(ctx, `SELECT room_id, node, epoch, expires_ms FROM room_leases ORDER BY room_id`)
	if err != nil {
		return nil, 0, err
	}
	defer rows.Close()
	for rows.Next() {
		var l Lease
		if err := rows.Scan(&l.RoomID, &l.Node, &l.Epoch, &l.ExpiresMs); err != nil {
			return nil, 0, err
		}
		leases = append(leases, l)
	}
	return leases, nowMs, rows.Err()
}

// checkFences fails, with ErrFenced, unless every fenced request of a batch holds its room's
// current epoch. On PostgreSQL the lease rows are read FOR SHARE: a node taking one of those rooms
// meanwhile (its UPDATE of the row) waits until this transaction ends, so it either sees the
// actions written under the old epoch or this transaction sees the new epoch and writes nothing.
// SQLite runs one writer at a time (IMMEDIATE transactions), which gives the same order.
func (s *Store) checkFences(ctx context.Context, tx *sql.Tx, rs []*commitReq) error {
	want := map[int64]int64{}
	for _, r := range rs {
		if r.fence != nil {
			want[r.fence.RoomID] = r.fence.Epoch
		}
	}
	if len(want) == 0 {
		return nil
	}
	b := &sqlArgs{pg: s.dialect == "postgres"}
	b.q.WriteString("SELECT room_id, epoch FROM room_leases WHERE room_id IN (")
	first := true
	for id := range want {
		if !first {
			b.q.WriteByte(',')
		}
		first = false
		b.arg(id, "")
	}
	b.q.WriteByte(')')
	if b.pg {
		b.q.WriteString(" FOR SHARE")
	}
	rows, err := tx.QueryContext(ctx, b.q.String(), b.args...)
	if err != nil {
		return fmt.Errorf("reading the rooms' leases: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id, epoch int64
		if err := rows.Scan(&id, &epoch); err != nil {
			return err
		}
		if want[id] != epoch {
			return fmt.Errorf("room %d is at epoch %d, not %d: %w", id, epoch, want[id], ErrFenced)
		}
		delete(want, id)
	}
	if err := rows.Err(); err != nil {
		return err
	}
	for id, epoch := range want {
		return fmt.Errorf("room %d has no lease (epoch %d was named): %w", id, epoch, ErrFenced)
	}
	return nil
}

// CommitFenced stores an accepted action as CommitAction does, under the room's lease f: if the
// room's lease is no longer at f's epoch when the transaction runs, nothing is written and the
// answer is ErrFenced.
func (s *Store) CommitFenced(ctx context.Context, f Fence, gameID int64, rec *ActionRecord, st *GameState) error {
	return s.commit(ctx, &f, gameID, rec, st)
}

// Fenced returns the store as a room's actor writes through it under the lease f: every write
// of the room (its actions, the start of a game, its members, its settings, its house rules, its
// chat) checks f's epoch in its own transaction and fails with ErrFenced, writing nothing, once
// another node has taken the room. Reads are the store's own.
func (s *Store) Fenced(f Fence) *Store {
	c := *s
	c.fence = &f
	return &c
}

// roomWrite runs fn in the committer's next transaction (Store.write), after checking the store's
// fence, if it has one.
func (s *Store) roomWrite(ctx context.Context, fn func(tx *gorm.DB) error) error {
	f := s.fence
	return s.write(ctx, func(tx *gorm.DB) error {
		if f != nil {
			q := "SELECT epoch FROM room_leases WHERE room_id = ?"
			if s.dialect == "postgres" {
				q += " FOR SHARE"
			}
			var epochs []int64
			if err := tx.Raw(q, f.RoomID).Scan(&epochs).Error; err != nil {
				return fmt.Errorf("reading room %d's lease: %w", f.RoomID, err)
			}
			if len(epochs) != 1 || epochs[0] != f.Epoch {
				return fmt.Errorf("room %d's lease is at epoch %v, not %d: %w", f.RoomID, epochs, f.Epoch, ErrFenced)
			}
		}
		return fn(tx)
	})
}

// OrphanedRooms returns the open rooms with a live game whose lease has expired or was released
// (or that no node ever held): rooms whose games wait for a node to take them, by id.
func (s *Store) OrphanedRooms(ctx context.Context) ([]Room, error) {
	var rs []Room
	err := s.db.WithContext(ctx).Raw(`SELECT rooms.* FROM rooms
JOIN games ON games.id = rooms.game_id
LEFT JOIN room_leases ON room_leases.room_id = rooms.id
WHERE rooms.status = ? AND games.status = ? AND (room_leases.room_id IS NULL OR room_leases.expires_ms <= `+s.nowMs()+`)
ORDER BY rooms.id`, RoomOpen, GameLive).Scan(&rs).Error
	return rs, err
}
