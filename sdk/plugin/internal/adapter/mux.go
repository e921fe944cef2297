package adapter

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"net"
	"os"
	"sync"
	"sync/atomic"
	"time"

	pb "cardhouse/sdk/plugin/internal/pb/rulesetv1"

	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/proto"
)

// This file is the host's side of the calls channel (calls.go is the plugin's): one long-lived
// socket per plugin process carries every call, tagged with an id. A call costs one message each
// way: no HTTP/2 stream, no headers, no per-call context.

// mux multiplexes calls on one channel.
//
// The callers read the replies themselves: the one holding the read token reads until its own
// reply comes, handing the others' replies over on the way, then passes the token on. A lone
// caller thus reads its reply straight off the socket: no goroutine to wake, no system call to
// re-arm a reader; that is a real share of a call's cost across processes.
type mux struct {
	w     *socketWire
	token chan struct{} // holds the read token while no caller reads

	nextID atomic.Uint64

	// The batch being gathered and the batches in flight (send, below), under sendMu.
	sendMu      sync.Mutex
	writeBefore time.Time     // when the write deadline must be pushed back
	timeout     time.Duration // the calls' timeout, for the rolling write deadline
	out, spare  []byte        // the frames of the next batch; the buffer of the batch before
	gathering   *batch        // out's calls
	flushing    bool          // a caller is writing batches (flush)
	inflight    int           // batches written whose calls are not all answered
	inBatch     map[uint64]*batch
	batches     atomic.Uint64 // batches written, for tests and figures

	watch *watchdog // expires calls that have no deadline of their own

	mu      sync.Mutex
	pending map[uint64]chan reply
	err     error         // why the channel ended; set once
	dead    chan struct{} // closed when err is set
}

func newMux(w *socketWire) *mux {
	m := &mux{w: w, token: make(chan struct{}, 1), watch: newWatchdog(), pending: map[uint64]chan reply{}, dead: make(chan struct{}),
		inBatch: map[uint64]*batch{}}
	m.token <- struct{}{}
	return m
}

// reply is a Reply and, when a step's views came in a transit buffer (decodeReply), that buffer.
type reply struct {
	*pb.Reply
	transit *[]byte
}

// deliver hands r to the caller waiting for it; a reply nobody waits for (its caller gave up) is
// dropped.
func (m *mux) deliver(r reply) {
	m.mu.Lock()
	ch := m.pending[r.Id]
	delete(m.pending, r.Id)
	m.mu.Unlock()
	if ch != nil {
		ch <- r // buffered: never blocks
	} else {
		releaseTransit(r.transit)
	}
}

// readFor is a caller holding the read token: it reads until the reply of call id comes (or was
// handed over on ch), handing the other replies to their callers. It returns the reply, or
// ctx's error when ctx ended first, or neither when the channel died. A read is interrupted (and
// later resumed where it stopped) when ctx ends or the watchdog expires a call.
func (m *mux) readFor(ctx context.Context, id uint64, ch chan reply) (reply, error) {
	if ctx.Done() != nil {
		stop := context.AfterFunc(ctx, m.interrupt)
		defer stop()
	}
	for {
		select {
		case r := <-ch:
			return r, nil
		default:
		}
		if err := ctx.Err(); err != nil {
			return reply{}, err
		}
		if !m.alive() {
			return reply{}, nil
		}
		r := reply{Reply: new(pb.Reply)}
		var err error
		if r.transit, err = m.w.readReply(r.Reply); err != nil {
			if errors.Is(err, os.ErrDeadlineExceeded) { // interrupted: look again why
				_ = m.w.conn.SetReadDeadline(time.Time{})
				continue
			}
			m.fail(err)
			return reply{}, nil
		}
		m.answered(r.Id)
		if r.Id == id {
			m.forget(id)
			return r, nil
		}
		m.deliver(r)
	}
}

// interrupt makes the caller reading the socket, if any, stop and look at why.
func (m *mux) interrupt() { _ = m.w.conn.SetReadDeadline(time.Unix(1, 0)) }

// fail ends the channel with err (the first error wins) and wakes every waiting caller.
func (m *mux) fail(err error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.err != nil {
		return
	}
	m.err = err
	close(m.dead)
	clear(m.pending)
	m.watch.stop()
}

// alive reports whether the channel still works.
func (m *mux) alive() bool {
	select {
	case <-m.dead:
		return false
	default:
		return true
	}
}

// close ends the channel; calls in flight fail as lost.
func (m *mux) close() {
	m.fail(errors.New("the host closed the calls channel"))
	_ = m.w.conn.Close()
}

// lost is the error of a call whose channel died.
func (m *mux) lost(method string) error {
	m.mu.Lock()
	err := m.err
	m.mu.Unlock()
	return &TransportError{Method: method, Lost: true, Err: fmt.Errorf("the calls channel to the plugin ended: %w", err)}
}

// expired is what the watchdog hands a caller whose call ran out of time.
var expired = &pb.Reply{}

// call sends c and waits for its reply, for at most the context's deadline or, when it has none,
// timeout (0: no limit). A step's views may come in a transit buffer (see reply), which the
// caller gives back (ownViews). Errors come typed: a wrap of context.DeadlineExceeded or
// context.Canceled, or a *TransportError (Lost when the channel died).
func (m *mux) call(ctx context.Context, method string, c *pb.Call, timeout time.Duration) (reply, error) {
	var deadline time.Time
	if d, ok := ctx.Deadline(); ok {
		if c.TimeoutNs = int64(time.Until(d)); c.TimeoutNs <= 0 {
			return reply{}, fmt.Errorf("plugin call %s: %w", method, context.DeadlineExceeded)
		}
	} else if timeout > 0 {
		deadline = time.Now().Add(timeout)
		c.TimeoutNs = int64(timeout)
	}
	c.Id = m.nextID.Add(1)
	ch := make(chan reply, 1)
	m.mu.Lock()
	if m.err != nil {
		m.mu.Unlock()
		return reply{}, m.lost(method)
	}
	m.pending[c.Id] = ch
	m.mu.Unlock()
	if !deadline.IsZero() {
		id := c.Id
		m.watch.add(id, deadline, func() { m.expire(id) })
	}

	if err := m.send(c, true, timeout); err != nil {
		m.forget(c.Id)
		if unsent(err) { // this call only: the channel is fine
			return reply{}, &TransportError{Method: method, Err: err}
		}
		return reply{}, m.lost(method) // send ended the channel
	}

	for {
		select {
		case r := <-ch:
			return m.answer(method, c.Id, r, timeout)
		case <-m.dead:
			select { // the reply may have come in just before the channel died
			case r := <-ch:
				return m.answer(method, c.Id, r, timeout)
			default:
			}
			return reply{}, m.lost(method)
		case <-ctx.Done():
			m.abandon(c.Id)
			return reply{}, fmt.Errorf("plugin call %s: %w", method, ctx.Err())
		case <-m.token:
			r, err := m.readFor(ctx, c.Id, ch)
			m.token <- struct{}{}
			if err != nil {
				m.abandon(c.Id)
				return reply{}, fmt.Errorf("plugin call %s: %w", method, err)
			}
			if r.Reply != nil {
				return m.answer(method, c.Id, r, timeout)
			}
			// The channel died: the next turn of the loop says so.
		}
	}
}

// keepWriteDeadline bounds how long a write to the socket may block (a plugin that stopped reading
// would otherwise hold every caller in the write, past its deadline): a rolling write deadline of
// timeout, pushed back once per half timeout rather than set per call. A write blocked that long
// fails, which ends the channel; the host then treats the process as crashed. The caller holds
// sendMu.
func (m *mux) keepWriteDeadline(timeout time.Duration) {
	if timeout <= 0 {
		return
	}
	if now := time.Now(); now.After(m.writeBefore) {
		m.writeBefore = now.Add(timeout / 2)
		_ = m.w.conn.SetWriteDeadline(now.Add(timeout))
	}
}

// answer is the end of a call that got a reply, or ran out of time.
func (m *mux) answer(method string, id uint64, r reply, timeout time.Duration) (reply, error) {
	if r.Reply == expired {
		m.abandon(id)
		return reply{}, fmt.Errorf("plugin call %s: no answer within %v: %w", method, timeout, context.DeadlineExceeded)
	}
	m.watch.remove(id)
	return r, nil
}

// expire hands the expired reply to call id, if it is still waiting.
func (m *mux) expire(id uint64) {
	m.mu.Lock()
	ch := m.pending[id]
	delete(m.pending, id)
	m.mu.Unlock()
	if ch != nil {
		ch <- reply{Reply: expired}
		m.interrupt() // its caller may be the one reading
	}
	m.answered(id) // a call that never answers must not hold its batch in flight
}

func (m *mux) forget(id uint64) {
	m.mu.Lock()
	delete(m.pending, id)
	m.mu.Unlock()
	m.watch.remove(id)
}

// abandon forgets a call the host stopped waiting for and tells the plugin to cancel it; a late
// reply is dropped by the reader.
func (m *mux) abandon(id uint64) {
	m.forget(id)
	m.answered(id)
	if !m.alive() {
		return
	}
	_ = m.send(&pb.Call{Id: id, Request: &pb.Call_Cancel{Cancel: &pb.CancelRequest{}}}, false, 0)
}

// openSocket asks the plugin for a direct channel, connects and presents the token.
func openSocket(ctx context.Context, rpc pb.RulesetClient) (*mux, error) {
	resp, err := rpc.OpenChannel(ctx, &pb.OpenChannelRequest{})
	if err != nil {
		return nil, err
	}
	var d net.Dialer
	conn, err := d.DialContext(ctx, resp.Network, resp.Address)
	if err != nil {
		return nil, fmt.Errorf("connecting to the plugin's channel %s: %w", resp.Address, err)
	}
	w := newSocketWire(conn)
	if err := w.writeFrame(resp.Token); err != nil {
		_ = conn.Close()
		return nil, fmt.Errorf("presenting the channel's token: %w", err)
	}
	return newMux(w), nil
}

// unsent reports whether a send failed before writing anything (the message could not be encoded
// or is over the limit), leaving the channel good.
func unsent(err error) bool { return errors.Is(err, errUnsent) }

// statusError types a CallStatus: the context errors as such, Unavailable as a lost channel.
func statusError(method string, s *pb.CallStatus) error {
	switch codes.Code(s.GetCode()) {
	case codes.DeadlineExceeded:
		return fmt.Errorf("plugin call %s: %s: %w", method, s.GetMessage(), context.DeadlineExceeded)
	case codes.Canceled:
		return fmt.Errorf("plugin call %s: %s: %w", method, s.GetMessage(), context.Canceled)
	case codes.Unavailable:
		return &TransportError{Method: method, Lost: true, Err: errors.New(s.GetMessage())}
	}
	return &TransportError{Method: method, Err: fmt.Errorf("%s: %s", codes.Code(s.GetCode()), s.GetMessage())}
}

// Batches. Calls do not each cost a write: a call is encoded into the batch being gathered (out),
// and batches are written one write call each, at most maxInflight of them waiting for their
// replies at a time. A caller that finds no batch being written and fewer than maxInflight in
// flight writes out itself (with the calls that joined it meanwhile); otherwise its call waits in
// out and goes with the next batch, which the caller that reads the last reply of a batch in
// flight writes. So while the plugin works on two batches, every call that comes meanwhile crosses
// in the next one: at a light load each call goes alone at once, under load the batches grow with
// the load, with no timer. The plugin answers the calls it reads together with one write
// (calls.go), so a batch costs a write and a read on each side, not one per call.
//
// The frames are the same length-prefixed messages as ever, one per call: a batch is the frames
// one write carries, so plugins and hosts of either version work together.

// maxInflight bounds the batches written and not yet answered.
const maxInflight = 2

// batch counts the calls of one batch still unanswered.
type batch struct {
	left int
	sent bool
}

// send encodes c into the next batch and writes it when no batch is being written and fewer than
// maxInflight are in flight. counted says c is a call that will be answered (a cancellation is
// not). An error means c was not sent: errUnsent leaves the channel good; any other ended it.
func (m *mux) send(c *pb.Call, counted bool, timeout time.Duration) error {
	m.sendMu.Lock()
	n := len(m.out)
	b, err := proto.MarshalOptions{}.MarshalAppend(append(m.out, 0, 0, 0, 0), c)
	if err != nil {
		m.sendMu.Unlock()
		return fmt.Errorf("encoding a call: %v: %w", err, errUnsent)
	}
	if size := len(b) - n - 4; size > MaxMessage {
		m.out = b[:n]
		m.sendMu.Unlock()
		return fmt.Errorf("a message of %d bytes exceeds the limit of %d: %w", size, MaxMessage, errUnsent)
	} else {
		binary.LittleEndian.PutUint32(b[n:], uint32(size))
	}
	m.out = b
	if counted {
		if m.gathering == nil {
			m.gathering = &batch{}
		}
		m.gathering.left++
		m.inBatch[c.Id] = m.gathering
	}
	if timeout > 0 { // a cancellation (0) keeps the calls' timeout
		m.timeout = timeout
	}
	if m.flushing || m.inflight >= maxInflight {
		m.sendMu.Unlock()
		return nil
	}
	m.flushing = true
	m.sendMu.Unlock()
	return m.flush()
}

// flush writes the gathered batches while there is one and room in flight for it; the caller set
// m.flushing. A failed write ends the channel, failing every call in flight.
func (m *mux) flush() error {
	for {
		m.sendMu.Lock()
		if len(m.out) == 0 || m.inflight >= maxInflight {
			m.flushing = false
			m.sendMu.Unlock()
			return nil
		}
		out, b := m.out, m.gathering
		m.out, m.spare, m.gathering = m.spare[:0], nil, nil
		if b != nil && b.left > 0 { // a batch of cancellations alone, or of calls all given up, is not waited for
			b.sent = true
			m.inflight++
		}
		// At the write, not when the calls were queued: a batch may wait longer than the timeout
		// for room in flight, and a cancellation's write may come after the deadline last set.
		m.keepWriteDeadline(m.timeout)
		m.sendMu.Unlock()
		m.batches.Add(1) // before the write: once the plugin has read a batch, it is counted
		_, err := m.w.conn.Write(out)
		m.sendMu.Lock()
		if cap(out) <= 1<<20 {
			m.spare = out
		}
		if err != nil {
			m.flushing = false
			m.sendMu.Unlock()
			m.fail(err)
			return err
		}
		m.sendMu.Unlock()
	}
}

// answered counts call id as answered (its reply came, or its caller gave up on it); the last of
// a batch in flight makes room for the next batch, which is written at once if one waits.
func (m *mux) answered(id uint64) {
	m.sendMu.Lock()
	b := m.inBatch[id]
	if b == nil {
		m.sendMu.Unlock()
		return
	}
	delete(m.inBatch, id)
	b.left--
	if b.left > 0 || !b.sent {
		m.sendMu.Unlock()
		return
	}
	m.inflight--
	if m.flushing || len(m.out) == 0 {
		m.sendMu.Unlock()
		return
	}
	m.flushing = true
	m.sendMu.Unlock()
	_ = m.flush() // a failure ends the channel: the callers see it
}
