package server

import (
	"bufio"
	"errors"
	"net"
	"net/http"
	"sync"
	"syscall"
	"time"

	"cardhouse/platform/room"
)

// Writing a connection's messages. The room's actor queues each message for a connection as one
// WebSocket frame in the connection's pending bytes (wsWriter.Queue, a copy), and when it has done
// what it was doing (an action: the views to every connection, the acting one's "accepted") it
// flushes each connection: one non-blocking write of everything pending, from the actor itself.
// When the socket takes it all, as it nearly always does, no goroutine is woken for it. When it
// does not (the client reads slowly, its buffers are full), what is left goes to the connection's
// writer goroutine, which waits for the socket (writeTimeout at most per write) while the actor
// goes on: the actor never waits for a socket, and a connection with more than its limit of
// messages unwritten is dropped as too slow (1013). The WebSocket library writes only its control
// frames (pong, close): it sees the wsWriter as its net.Conn, and what it writes joins the pending
// bytes in order.

// wsWriter is the net.Conn the WebSocket library is given (through hijackingWriter) and the room's
// Sink for the connection's messages.
type wsWriter struct {
	net.Conn
	// raw is the socket's file descriptor, for the non-blocking writes (nil when the connection has
	// none: then the writer goroutine writes everything).
	raw syscall.RawConn
	// tryFn is w.tryFd, bound once (a closure per write would be an allocation).
	tryFn func(fd uintptr) bool
	// limit is how many queued messages may wait unwritten; Queue refuses more.
	limit int
	// wake tells the writer goroutine that pending bytes are its to write (writing is set).
	wake chan struct{}

	mu sync.Mutex
	// pend holds the frames not yet written whole: (*pend)[off:] is to write. nil when nothing is:
	// the buffer goes back to wsBuffers, so an idle connection keeps none.
	pend *[]byte
	off  int
	// ends are the offsets in *pend where the queued messages end; ends[head:] are the messages
	// not yet written whole.
	ends []int
	head int
	// writing is set while a goroutine writes outside mu (the writer goroutine, or the library
	// writing a control frame at once); only it writes until it clears it, and it looks at pend
	// again before it does. handed: the writer goroutine's turn (woken by wake); a direct write of
	// the library's signals idle when it is done.
	writing, handed bool
	idle            sync.Cond
	err             error // the socket failed: what is queued is dropped
	// tb, tn and terr are tryFd's argument and results.
	tb   []byte
	tn   int
	terr error
}

var _ room.Sink = (*wsWriter)(nil)

// wsBuffers recycles the pending bytes of connections: one action's frames for a connection are
// a few KiB, gone as soon as they are written, and ten thousand idle connections should not each
// keep a buffer.
var wsBuffers = sync.Pool{New: func() any { b := make([]byte, 0, 8<<10); return &b }}

// maxPooledWS is the largest pending buffer kept for reuse.
const maxPooledWS = 256 << 10

// newWSWriter returns the writer of a connection still to come (attach): what is queued until
// then waits.
func newWSWriter(limit int) *wsWriter {
	w := &wsWriter{limit: limit, wake: make(chan struct{}, 1)}
	w.idle.L = &w.mu
	return w
}

// attach gives w its connection and starts writing what waits.
func (w *wsWriter) attach(conn net.Conn) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.Conn = conn
	if sc, ok := conn.(syscall.Conn); ok {
		if raw, err := sc.SyscallConn(); err == nil {
			w.raw = raw
			w.tryFn = w.tryFd
		}
	}
	w.flushLocked()
}

// appendFrame appends b as one unmasked, final WebSocket text frame (RFC 6455, section 5.2).
func appendFrame(dst, b []byte) []byte {
	const finText = 0x81
	switch n := len(b); {
	case n < 126:
		dst = append(dst, finText, byte(n))
	case n <= 0xffff:
		dst = append(dst, finText, 126, byte(n>>8), byte(n))
	default:
		dst = append(dst, finText, 127, byte(n>>56), byte(n>>48), byte(n>>40), byte(n>>32), byte(n>>24), byte(n>>16), byte(n>>8), byte(n))
	}
	return append(dst, b...)
}

// Queue adds the message b, as a text frame, to the pending bytes (room.Sink). It refuses it when
// limit messages already wait unwritten.
func (w *wsWriter) Queue(b []byte) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err != nil {
		return true // the connection is ending: its reader sees it and detaches the client
	}
	if len(w.ends)-w.head >= w.limit {
		return false
	}
	if w.pend == nil {
		w.pend = wsBuffers.Get().(*[]byte)
	}
	*w.pend = appendFrame(*w.pend, b)
	w.ends = append(w.ends, len(*w.pend))
	return true
}

// Flush writes the pending bytes the socket takes at once, and hands what is left to the writer
// goroutine (room.Sink). It never waits for the socket.
func (w *wsWriter) Flush() {
	w.mu.Lock()
	w.flushLocked()
	w.mu.Unlock()
}

func (w *wsWriter) flushLocked() {
	if w.writing || w.pend == nil || w.err != nil || w.Conn == nil {
		return
	}
	if w.raw != nil {
		w.tb = (*w.pend)[w.off:]
		err := w.raw.Write(w.tryFn)
		w.tb = nil
		if err == nil {
			err = w.terr
		}
		if err != nil {
			w.fail(err)
			return
		}
		w.advance(w.tn)
		if w.pend == nil {
			return
		}
	}
	w.writing, w.handed = true, true
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

// tryFd writes w.tb once, without waiting: a socket that would block takes nothing (tn 0).
func (w *wsWriter) tryFd(fd uintptr) bool {
	for {
		n, err := syscall.Write(int(fd), w.tb)
		if errors.Is(err, syscall.EINTR) {
			continue
		}
		if errors.Is(err, syscall.EAGAIN) {
			n, err = 0, nil
		}
		w.tn, w.terr = max(n, 0), err
		return true
	}
}

// advance notes n more bytes written; once all are, the buffer goes back to the pool.
func (w *wsWriter) advance(n int) {
	w.off += n
	for w.head < len(w.ends) && w.ends[w.head] <= w.off {
		w.head++
	}
	if w.off < len(*w.pend) {
		return
	}
	if cap(*w.pend) <= maxPooledWS {
		*w.pend = (*w.pend)[:0]
		wsBuffers.Put(w.pend)
	}
	w.pend, w.off, w.ends, w.head = nil, 0, w.ends[:0], 0
}

// fail drops what is pending after a failed write; the writer goroutine, woken, closes the
// connection.
func (w *wsWriter) fail(err error) {
	w.err = err
	w.pend, w.off, w.ends, w.head = nil, 0, nil, 0
	if w.handed {
		w.writing, w.handed = false, false
	}
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

// drain writes the pending bytes, waiting for the socket up to writeTimeout per write, until
// none are left (the writer goroutine's work). It reports false when a write failed.
func (w *wsWriter) drain() bool {
	deadline := false
	defer func() {
		if deadline {
			_ = w.Conn.SetWriteDeadline(time.Time{})
		}
	}()
	w.mu.Lock()
	defer w.mu.Unlock()
	for w.writing && !w.handed { // the library is writing a control frame
		w.idle.Wait()
	}
	for {
		if w.err != nil {
			return false
		}
		if w.pend == nil || w.Conn == nil {
			w.writing, w.handed = false, false
			return true
		}
		w.writing, w.handed = true, true
		chunk := (*w.pend)[w.off:] // Queue only appends: these bytes stay as they are
		w.mu.Unlock()
		deadline = true
		_ = w.Conn.SetWriteDeadline(time.Now().Add(writeTimeout))
		n, err := w.Conn.Write(chunk)
		w.mu.Lock()
		if err != nil {
			w.fail(err)
			return false
		}
		w.advance(n)
	}
}

// Write is the WebSocket library's: its control frames join the pending bytes when some wait;
// otherwise they are written at once (the library bounds the write with its own deadline).
func (w *wsWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err != nil {
		return 0, w.err
	}
	if w.pend != nil || w.writing {
		if w.pend == nil {
			w.pend = wsBuffers.Get().(*[]byte)
		}
		*w.pend = append(*w.pend, p...)
		w.flushLocked()
		return len(p), nil
	}
	w.writing = true
	w.mu.Unlock()
	n, err := w.Conn.Write(p)
	w.mu.Lock()
	w.writing = false
	w.idle.Broadcast()
	if err != nil {
		w.fail(err)
		return n, err
	}
	w.flushLocked() // what was queued meanwhile
	return n, nil
}

// hijackingWriter is the http.ResponseWriter handed to websocket.Accept: its Hijack gives the
// library the connection wrapped in a wsWriter, kept in conn for the connection's client.
type hijackingWriter struct {
	http.ResponseWriter
	conn *wsWriter
}

func (w *hijackingWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// Hijack takes the connection over as http.Hijacker does, with its writes going through a
// wsWriter. net/http has flushed the handshake's response by then, so the fresh buffered writer
// starts empty; it only ever holds the library's control frames.
func (w *hijackingWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	conn, brw, err := http.NewResponseController(w.ResponseWriter).Hijack()
	if err != nil {
		return nil, nil, err
	}
	if err := brw.Writer.Flush(); err != nil {
		_ = conn.Close()
		return nil, nil, err
	}
	w.conn.attach(conn)
	brw.Writer = bufio.NewWriterSize(w.conn, 256)
	return w.conn, brw, nil
}
