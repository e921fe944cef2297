package room

import (
	"sync"
	"sync/atomic"
)

// Client is one connection (a browser's WebSocket) attached to a room. The room pushes encoded
// messages into its bounded outbox without ever waiting: a client too slow to keep up is dropped
// (Gone closes) and reconnects to a fresh full view, so a slow client never stalls a room.
//
// The outbox is a channel of messages (Out) that the connection's writer reads, or, for a client
// made with NewSinkClient, a Sink that takes the messages' bytes as they are queued and writes them
// when the room's actor has done what it was doing (everything one action sends a connection goes
// out in one write, with no goroutine woken when the socket takes it at once).
type Client struct {
	// UserID is the connection's account.
	UserID int64
	// Protocol is the protocol version the connection speaks (set before Attach): ProtocolPatches
	// for patches after a full view, anything else for full views only.
	Protocol int
	// admin is true for an admin's connection (set by Attach): it sees what house rules print.
	admin bool
	// held are the views the connection holds, one per seat (sdk.Spectator included), as the
	// room last sent them: a patch goes only to a connection holding the view it patches.
	// Owned by the room's actor.
	held   []heldView
	out    chan Message
	sink   Sink
	dirty  atomic.Bool // the sink holds messages not flushed yet
	gone   chan struct{}
	once   sync.Once
	mu     sync.Mutex
	code   int
	reason string
}

// Close codes a room gives when it drops a client (WebSocket close codes).
const (
	CloseGoingAway = 1001
	ClosePolicy    = 1008
	CloseTooSlow   = 1013
)

// NewClient returns a client of user with an outbox of queue messages.
func NewClient(userID int64, queue int) *Client {
	if queue <= 0 {
		queue = 64
	}
	return &Client{UserID: userID, out: make(chan Message, queue), gone: make(chan struct{})}
}

// A Sink takes a connection's messages in place of the outbox channel (NewSinkClient). Its methods
// never wait for the connection, and may be called from several goroutines.
type Sink interface {
	// Queue copies the message b to the bytes waiting for the connection. It reports false when
	// too many messages already wait unwritten: the client is then dropped as too slow.
	Queue(b []byte) bool
	// Flush starts writing what waits: at once when the socket takes it, else by the connection's
	// writer, without waiting for either.
	Flush()
}

// NewSinkClient returns a client of user whose messages go to sink (bounded by the sink) instead
// of an outbox channel: Out is nil.
func NewSinkClient(userID int64, sink Sink) *Client {
	return &Client{UserID: userID, sink: sink, gone: make(chan struct{})}
}

// Message is one encoded JSON message in an outbox. Its writer calls Done once it is written.
type Message struct {
	b   []byte
	buf *[]byte // the pooled buffer holding b, for this message only; nil when b may be shared
}

// Bytes returns the message; they are valid until Done.
func (m Message) Bytes() []byte { return m.b }

// Done gives the message's buffer back for another message; the message must not be used after.
func (m Message) Done() {
	if m.buf != nil && cap(*m.buf) <= maxPooledMessage {
		*m.buf = m.b[:0]
		messageBufs.Put(m.buf)
	}
}

// messageBufs recycles the buffers of the messages built for one connection (a seat's view, a few
// KiB each, several per action): allocated afresh, they were a quarter of the server's allocations.
var messageBufs = sync.Pool{New: func() any { b := make([]byte, 0, 4<<10); return &b }}

// maxPooledMessage is the largest buffer kept for reuse.
const maxPooledMessage = 64 << 10

// Out is the outbox: encoded JSON messages to write, in order.
func (c *Client) Out() <-chan Message { return c.out }

// Gone is closed when the room drops the client; Reason says why.
func (c *Client) Gone() <-chan struct{} { return c.gone }

// Reason returns the close code and reason after Gone is closed.
func (c *Client) Reason() (int, string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.code, c.reason
}

func (c *Client) drop(code int, reason string) {
	c.once.Do(func() {
		c.mu.Lock()
		c.code, c.reason = code, reason
		c.mu.Unlock()
		close(c.gone)
	})
}

// push queues b without waiting; it reports false (and drops the client) when the outbox is full.
// b may be shared with other clients' outboxes.
func (c *Client) push(b []byte) bool { return c.pushMessage(Message{b: b}) }

// pushOwn queues a message built in a buffer of messageBufs for this client alone (the buffer goes
// back to the pool once written, or now if the client is gone).
func (c *Client) pushOwn(buf *[]byte) bool { return c.pushMessage(Message{b: *buf, buf: buf}) }

// pushMessage queues m, or gives its buffer back when it cannot (m is not to be used after). A
// sink's message waits for flush.
func (c *Client) pushMessage(m Message) bool {
	select {
	case <-c.gone:
		m.Done()
		return false
	default:
	}
	if c.sink != nil {
		ok := c.sink.Queue(m.b)
		m.Done()
		if !ok {
			c.drop(CloseTooSlow, "too slow: reconnect for a fresh view")
			return false
		}
		c.dirty.Store(true)
		return true
	}
	select {
	case c.out <- m:
		return true
	default:
		m.Done()
		c.drop(CloseTooSlow, "too slow: reconnect for a fresh view")
		return false
	}
}

// flush has the sink write what was queued since the last flush. The room's actor flushes its
// clients after each thing it does, so that a connection's messages of one action go together.
func (c *Client) flush() {
	if c.sink != nil && c.dirty.Swap(false) {
		c.sink.Flush()
	}
}

// Send queues an encoded message for the client without waiting (false: dropped as too slow),
// and, for a sink's client, flushes it: Send is for the connection's own goroutines, not the
// room's actor.
func (c *Client) Send(b []byte) bool {
	ok := c.push(b)
	c.flush()
	return ok
}

// PongMessage encodes the answer to a ping with id. The connection answers a heartbeat itself,
// never through the room: a room busy with another socket's action (waiting for its commit) must
// not leave the heartbeat unanswered, or a client takes the socket for dead (docs/performance.md,
// "Every write through the committer").
func PongMessage(id string) []byte { return encode(Outgoing{Type: MsgPong, ID: id}) }

// ErrorMessage encodes an error message of the protocol answering message id.
func ErrorMessage(id, code, reason string) []byte { return errorMsg(id, code, reason) }

// heldView is the view a connection holds for one seat: the room's views of generation gen
// (roomGame.viewGen).
type heldView struct {
	seat, gen int
}

// holds reports whether c holds seat's view of generation gen.
func (c *Client) holds(seat, gen int) bool {
	for _, h := range c.held {
		if h.seat == seat {
			return h.gen == gen
		}
	}
	return false
}

// hold notes that c now holds seat's view of generation gen.
func (c *Client) hold(seat, gen int) {
	for i := range c.held {
		if c.held[i].seat == seat {
			c.held[i].gen = gen
			return
		}
	}
	c.held = append(c.held, heldView{seat, gen})
}
