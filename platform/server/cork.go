package server

import (
	"bufio"
	"net"
	"net/http"
	"sync"
)

// Corking. The WebSocket library flushes every message with a system call of its own. One action
// brings a connection several messages at once (the acting player's view and "accepted"; after a
// deal, the room and the views), so the write loop corks the connection while more messages are
// queued and lets them go in one write. The library sees an ordinary net.Conn.

// corkingWriter is the http.ResponseWriter handed to websocket.Accept: its Hijack gives the
// library the connection wrapped in a corkedConn, kept in conn for the write loop.
type corkingWriter struct {
	http.ResponseWriter
	conn *corkedConn
}

func (w *corkingWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// Hijack takes the connection over as http.Hijacker does, with its writes going through a
// corkedConn. net/http has flushed the handshake's response by then, so the fresh buffered
// writer starts empty.
func (w *corkingWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	conn, brw, err := http.NewResponseController(w.ResponseWriter).Hijack()
	if err != nil {
		return nil, nil, err
	}
	if err := brw.Writer.Flush(); err != nil {
		_ = conn.Close()
		return nil, nil, err
	}
	w.conn = &corkedConn{Conn: conn}
	brw.Writer = bufio.NewWriterSize(w.conn, 4096)
	return w.conn, brw, nil
}

// corkedConn holds back what is written to it between cork and uncork, then writes it at once.
// The library's control frames (pongs, close) may arrive from other goroutines meanwhile: they
// join the held bytes in order.
type corkedConn struct {
	net.Conn
	mu     sync.Mutex
	corked bool
	held   *[]byte
}

// corkBuffers recycles the held bytes of corked connections: a batch is a few KiB, gone as soon
// as it is written, and a thousand idle connections should not each keep one.
var corkBuffers = sync.Pool{New: func() any { b := make([]byte, 0, 16<<10); return &b }}

func (c *corkedConn) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.corked {
		return c.Conn.Write(p)
	}
	if c.held == nil {
		c.held = corkBuffers.Get().(*[]byte)
	}
	*c.held = append(*c.held, p...)
	return len(p), nil
}

// cork holds back the writes that follow until uncork.
func (c *corkedConn) cork() {
	c.mu.Lock()
	c.corked = true
	c.mu.Unlock()
}

// uncork writes what was held back in one write and lets later writes through.
func (c *corkedConn) uncork() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.corked = false
	if c.held == nil {
		return nil
	}
	_, err := c.Conn.Write(*c.held)
	*c.held = (*c.held)[:0]
	if cap(*c.held) <= 256<<10 {
		corkBuffers.Put(c.held)
	}
	c.held = nil
	return err
}
