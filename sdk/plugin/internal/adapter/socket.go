package adapter

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"sync"
	"sync/atomic"

	pb "cardhouse/sdk/plugin/internal/pb/rulesetv1"

	"google.golang.org/protobuf/proto"
)

// MaxMessage bounds one message either way. A 2-deck, 8-seat step with every
// view is tens of KiB; a limit hit here fails a game, so it leaves a lot of room.
const MaxMessage = 64 << 20

// errUnsent marks a message that could not be encoded or is over MaxMessage: nothing was written
// and the channel is still good.
var errUnsent = errors.New("message not sent")

// socketWire frames protobuf messages on a connection: a 4-byte little-endian length, then the
// message. Reads come from one goroutine at a time and can be interrupted (a read deadline) and
// resumed without losing a frame half read; writes are serialised and each is one write call.
type socketWire struct {
	conn net.Conn
	buf  []byte // bytes read and not yet consumed are buf[r:w]
	r, w int

	wmu            sync.Mutex
	writing        bool   // a writer is in a write call
	pending, spare []byte // frames waiting for it; the buffer of the batch before
	batches        atomic.Uint64
}

// readBufSize is the read buffer's usual size; a larger frame grows it for as long as it lasts.
const readBufSize = 64 << 10

func newSocketWire(conn net.Conn) *socketWire {
	return &socketWire{conn: conn, buf: make([]byte, readBufSize)}
}

// frameBufs recycles write buffers; very large ones are left to the GC.
var frameBufs = sync.Pool{New: func() any { b := make([]byte, 0, 16<<10); return &b }}

// writeFrame writes one frame of raw bytes.
func (w *socketWire) writeFrame(p []byte) error {
	if len(p) > MaxMessage {
		return fmt.Errorf("a frame of %d bytes exceeds the limit of %d: %w", len(p), MaxMessage, errUnsent)
	}
	bp := frameBufs.Get().(*[]byte)
	b := binary.LittleEndian.AppendUint32((*bp)[:0], uint32(len(p)))
	b = append(b, p...)
	err := w.write(b)
	putFrameBuf(bp, b)
	return err
}

// writeMsg marshals m straight into a frame and writes it.
func (w *socketWire) writeMsg(m proto.Message) error {
	bp := frameBufs.Get().(*[]byte)
	b, err := proto.MarshalOptions{}.MarshalAppend(append((*bp)[:0], 0, 0, 0, 0), m)
	if err != nil {
		err = fmt.Errorf("encoding a %T: %v: %w", m, err, errUnsent)
	} else if len(b)-4 > MaxMessage {
		err = fmt.Errorf("a message of %d bytes exceeds the limit of %d: %w", len(b)-4, MaxMessage, errUnsent)
	}
	if err == nil {
		binary.LittleEndian.PutUint32(b, uint32(len(b)-4))
		err = w.write(b)
	}
	putFrameBuf(bp, b)
	return err
}

func putFrameBuf(bp *[]byte, b []byte) {
	if cap(b) <= 1<<20 {
		*bp = b[:0]
		frameBufs.Put(bp)
	}
}

// write sends b. Frames written while another writer is in its system call cross in one batch:
// they are copied into pending, and the writer in the call writes them all with one more call
// when it is back, as the store's group commit does for transactions, so that many rooms' calls
// (or many calls' replies) waiting for one socket cost one write, not one each. A writer whose
// frame waits in the batch does not wait for it: should that write fail, the writer that made it
// gets the error and ends the channel, which fails every call in flight.
func (w *socketWire) write(b []byte) error {
	w.wmu.Lock()
	if w.writing {
		w.pending = append(w.pending, b...)
		w.wmu.Unlock()
		return nil
	}
	w.writing = true
	w.wmu.Unlock()
	_, err := w.conn.Write(b)
	for {
		w.wmu.Lock()
		out := w.pending
		if len(out) == 0 || err != nil {
			w.pending, w.writing = w.pending[:0], false
			w.wmu.Unlock()
			return err
		}
		// The frames of the next batch go into the buffer of the batch before, if it was kept:
		// never into out, which the call below reads.
		w.pending, w.spare = w.spare[:0], nil
		w.wmu.Unlock()
		_, berr := w.conn.Write(out)
		w.batches.Add(1)
		w.wmu.Lock()
		if cap(out) <= 1<<20 {
			w.spare = out
		}
		if berr != nil {
			// b itself was written, but the channel is now unusable: say so, as a write that
			// failed half-way does, so that the caller ends it and every call in flight fails.
			w.pending, w.writing = w.pending[:0], false
			w.wmu.Unlock()
			return berr
		}
		w.wmu.Unlock()
	}
}

// readFrame reads one frame; its bytes are valid until the next read. An error leaves what was
// read buffered, so a read interrupted by a deadline resumes where it stopped.
func (w *socketWire) readFrame() ([]byte, error) {
	for {
		if avail := w.w - w.r; avail >= 4 {
			n := int(binary.LittleEndian.Uint32(w.buf[w.r:]))
			if n > MaxMessage {
				return nil, fmt.Errorf("the peer sent a frame of %d bytes, over the limit of %d", n, MaxMessage)
			}
			if avail >= 4+n {
				b := w.buf[w.r+4 : w.r+4+n]
				w.r += 4 + n
				return b, nil
			}
			w.makeRoom(4 + n)
		} else {
			w.makeRoom(4)
		}
		got, err := w.conn.Read(w.buf[w.w:])
		w.w += got
		if err != nil {
			if errors.Is(err, io.EOF) && w.w > w.r {
				err = io.ErrUnexpectedEOF
			}
			return nil, err
		}
	}
}

// hasFrame reports whether a whole frame is already read off the connection (readFrame would
// return it without a system call).
func (w *socketWire) hasFrame() bool {
	avail := w.w - w.r
	return avail >= 4 && avail >= 4+int(binary.LittleEndian.Uint32(w.buf[w.r:]))
}

// makeRoom makes the buffer able to hold a frame of n bytes from w.r, moving what is unread to
// the front, and shrinks a buffer a huge frame grew once it is no longer needed.
func (w *socketWire) makeRoom(n int) {
	unread := w.w - w.r
	switch {
	case len(w.buf) < n:
		nb := make([]byte, max(n, 2*len(w.buf)))
		copy(nb, w.buf[w.r:w.w])
		w.buf = nb
	case len(w.buf) > readBufSize && n <= readBufSize && unread <= readBufSize:
		nb := make([]byte, readBufSize)
		copy(nb, w.buf[w.r:w.w])
		w.buf = nb
	case w.r+n > len(w.buf) || w.w == len(w.buf):
		copy(w.buf, w.buf[w.r:w.w])
	default:
		return
	}
	w.r, w.w = 0, unread
}

// readReply reads one reply frame into r, a step's views into a transit buffer (decodeReply).
func (w *socketWire) readReply(r *pb.Reply) (*[]byte, error) {
	b, err := w.readFrame()
	if err != nil {
		return nil, err
	}
	transit, err := decodeReply(b, r)
	if err != nil {
		return nil, fmt.Errorf("decoding a frame of %d bytes: %w", len(b), err)
	}
	return transit, nil
}

// readMsg reads one frame into m.
func (w *socketWire) readMsg(m proto.Message) error {
	b, err := w.readFrame()
	if err != nil {
		return err
	}
	if err := proto.Unmarshal(b, m); err != nil {
		return fmt.Errorf("decoding a frame of %d bytes: %w", len(b), err)
	}
	return nil
}
