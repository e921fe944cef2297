package adapter

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/binary"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	pb "cardhouse/sdk/plugin/internal/pb/rulesetv1"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
)

// This file is the plugin's side of the calls channel: many calls on one long-lived socket (opened
// by OpenChannel), each answered by a Reply of the same id, the calls served concurrently by a
// pool of workers. mux.go is the host's side.

// statusReply is a reply carrying a transport-level status instead of the method's response.
func statusReply(id uint64, code codes.Code, msg string) *pb.Reply {
	return &pb.Reply{Id: id, Response: &pb.Reply_Status{Status: &pb.CallStatus{Code: int32(code), Message: msg}}}
}

// dispatch runs one call through its handler (which already recovers the engine's panics) and
// wraps the answer. A panic that escapes even them becomes an Internal status: one bad call
// never takes the plugin process down.
//
// An action's views are written into a recycled buffer: dispatch sets *done to give it back, for
// the caller to call once the reply is written.
func (s *Server) dispatch(ctx context.Context, c *pb.Call, done *func()) (r *pb.Reply) {
	defer func() {
		if p := recover(); p != nil {
			r = statusReply(c.GetId(), codes.Internal, fmt.Sprintf("panic serving call %d: %v\n%s", c.GetId(), p, debug.Stack()))
		}
	}()
	r = &pb.Reply{Id: c.Id}
	var err error
	switch q := c.Request.(type) {
	case *pb.Call_Act:
		var resp *pb.StepResponse
		if resp, err = s.act(ctx, q.Act, done); err == nil {
			r.Response = &pb.Reply_Step{Step: resp}
		}
	case *pb.Call_Bot:
		var resp *pb.BotResponse
		if resp, err = s.bot(ctx, q.Bot); err == nil {
			r.Response = &pb.Reply_Bot{Bot: resp}
		}
	case *pb.Call_Inspect:
		var resp *pb.InspectResponse
		if resp, err = s.inspect(ctx, q.Inspect); err == nil {
			r.Response = &pb.Reply_Inspect{Inspect: resp}
		}
	case *pb.Call_NewGame:
		var resp *pb.StepResponse
		if resp, err = s.newGame(ctx, q.NewGame); err == nil {
			r.Response = &pb.Reply_Step{Step: resp}
		}
	case *pb.Call_Describe:
		var resp *pb.DescribeResponse
		if resp, err = s.describe(ctx); err == nil {
			r.Response = &pb.Reply_Describe{Describe: resp}
		}
	case *pb.Call_DescribeHouseRule:
		var resp *pb.DescribeHouseRuleResponse
		if resp, err = s.describeHouseRule(ctx, q.DescribeHouseRule); err == nil {
			r.Response = &pb.Reply_HouseRule{HouseRule: resp}
		}
	default:
		err = status.Errorf(codes.Unimplemented, "call %d: this plugin does not know the request %T", c.Id, c.Request)
	}
	if err != nil {
		st := status.Convert(err)
		return statusReply(c.Id, st.Code(), st.Message())
	}
	return r
}

// callCtx is the context of one call: cancelled when the host cancels the call or the channel
// ends, and past its deadline by the channel's watchdog (no timer per call). Err says
// DeadlineExceeded once the deadline has passed; contexts derived from it see Canceled with
// DeadlineExceeded as the cause.
type callCtx struct {
	context.Context
	deadline time.Time
	late     atomic.Bool
}

func (c *callCtx) Deadline() (time.Time, bool) { return c.deadline, !c.deadline.IsZero() }

func (c *callCtx) Err() error {
	if c.late.Load() {
		return context.DeadlineExceeded
	}
	return c.Context.Err()
}

// serveCalls reads calls from w until it fails and serves each concurrently, so that a slow
// call never holds up the others. Each call gets a context that ends at its timeout, when the
// host cancels it, or when ctx ends. The error is why w stopped (io.EOF when the host closed it).
func (s *Server) serveCalls(ctx context.Context, w *socketWire) error {
	ctx, cancelAll := context.WithCancel(ctx)
	defer cancelAll()
	ss := &session{s: s, w: w, ctx: ctx, watch: newWatchdog(), inflight: map[uint64]context.CancelCauseFunc{},
		turn: make(chan struct{}, 1), end: make(chan error, 1)}
	defer ss.watch.stop()
	ss.turn <- struct{}{}
	ss.spawn()
	return <-ss.end
}

// maxIdleWorkers bounds the workers a session keeps waiting after a burst of concurrent calls.
const maxIdleWorkers = 8

// session is one channel's calls on the plugin's side, served by a pool of workers that take
// turns reading: the worker that reads a call hands the turn to an idle worker (starting one if
// none waits) and serves the call itself, at once, with no goroutine switch in between. Workers
// outlive their calls, so the stack a ruleset grew is kept, not grown again for every call.
type session struct {
	s       *Server
	w       *socketWire
	ctx     context.Context
	watch   *watchdog
	turn    chan struct{} // the reading turn: held by the worker reading, else buffered here
	waiting atomic.Int32  // workers waiting for the turn
	end     chan error    // the reader's error, once

	mu       sync.Mutex
	inflight map[uint64]context.CancelCauseFunc
}

func (ss *session) spawn() {
	ss.waiting.Add(1)
	go ss.work()
}

// work waits for the turn, reads one call and every other call already read with it (a batch:
// what the host wrote together, mux.go), passes the turn on and serves them; then waits again,
// unless enough workers already wait.
func (ss *session) work() {
	var batch []pending
	for {
		<-ss.turn
		ss.waiting.Add(-1)
		var err error
		if batch, err = ss.nextBatch(batch[:0]); err != nil {
			ss.end <- err // the turn is never passed on: the session is over
			return
		}
		if ss.waiting.Load() == 0 {
			ss.spawn() // someone must read while these calls run
		}
		ss.turn <- struct{}{}
		ss.serveBatch(batch)
		clear(batch)
		if ss.waiting.Load() >= maxIdleWorkers {
			return
		}
		ss.waiting.Add(1)
	}
}

// pending is a call read and not yet served, with its context.
type pending struct {
	c      *pb.Call
	ctx    context.Context
	cancel context.CancelCauseFunc
}

// maxBatchCalls bounds the calls one worker serves in a row before it answers them.
const maxBatchCalls = 128

// nextBatch reads one call (waiting for it), then takes the calls whose frames are already read
// (no more system calls), up to maxBatchCalls.
func (ss *session) nextBatch(batch []pending) ([]pending, error) {
	c, cctx, cancel, err := ss.next(true)
	if err != nil {
		return batch, err
	}
	batch = append(batch, pending{c, cctx, cancel})
	for len(batch) < maxBatchCalls {
		if c, cctx, cancel, err = ss.next(false); err != nil {
			return batch, err
		}
		if c == nil { // only cancellations were left
			break
		}
		batch = append(batch, pending{c, cctx, cancel})
	}
	return batch, nil
}

// inline reports whether a call is one of the quick ones a worker serves in a row with the others
// of its batch (a step, a look at a game); the others (a bot's choice may search for a while, a
// description) are served on their own, so that they never hold up a batch's answers.
func inline(c *pb.Call) bool {
	switch c.Request.(type) {
	case *pb.Call_Act, *pb.Call_Inspect, *pb.Call_NewGame:
		return true
	}
	return false
}

// serveBatch serves the calls of a batch and writes their replies with one write: the quick ones
// in a row here, each other one on a goroutine of its own that writes its reply when done.
func (ss *session) serveBatch(batch []pending) {
	if len(batch) == 1 {
		ss.serve(batch[0].ctx, batch[0].c, batch[0].cancel)
		return
	}
	bp := frameBufs.Get().(*[]byte)
	out := (*bp)[:0]
	for _, p := range batch {
		if !inline(p.c) {
			go ss.serve(p.ctx, p.c, p.cancel)
			continue
		}
		var done func()
		r := ss.finish(p.ctx, p.c, p.cancel, &done)
		out = appendReply(out, r)
		if done != nil {
			done()
		}
	}
	if len(out) > 0 {
		_ = ss.w.write(out) // a failed write ends the channel: the reader sees it
	}
	putFrameBuf(bp, out)
}

// appendReply appends r's frame to out, or, when r cannot be sent (too large, say), the status
// saying why.
func appendReply(out []byte, r *pb.Reply) []byte {
	n := len(out)
	b, err := proto.MarshalOptions{}.MarshalAppend(append(out, 0, 0, 0, 0), r)
	if err == nil && len(b)-n-4 > MaxMessage {
		err = fmt.Errorf("a message of %d bytes exceeds the limit of %d", len(b)-n-4, MaxMessage)
	}
	if err != nil {
		return appendReply(b[:n], statusReply(r.GetId(), codes.ResourceExhausted, err.Error()))
	}
	binary.LittleEndian.PutUint32(b[n:], uint32(len(b)-n-4))
	return b
}

// next reads until a call comes (handling cancellations on the way) and prepares its context.
// Unless wait is set, it reads only frames already read off the socket, and returns a nil call
// when they held no call.
func (ss *session) next(wait bool) (*pb.Call, context.Context, context.CancelCauseFunc, error) {
	for {
		if !wait && !ss.w.hasFrame() {
			return nil, nil, nil, nil
		}
		c := new(pb.Call)
		if err := ss.w.readMsg(c); err != nil {
			return nil, nil, nil, err
		}
		if _, ok := c.Request.(*pb.Call_Cancel); ok {
			ss.mu.Lock()
			if cancel := ss.inflight[c.Id]; cancel != nil {
				cancel(context.Canceled)
			}
			ss.mu.Unlock()
			continue
		}
		cctx := &callCtx{}
		var cancel context.CancelCauseFunc
		cctx.Context, cancel = context.WithCancelCause(ss.ctx)
		if c.TimeoutNs > 0 {
			cctx.deadline = time.Now().Add(time.Duration(c.TimeoutNs))
			ss.watch.add(c.Id, cctx.deadline, func() {
				cctx.late.Store(true)
				cancel(context.DeadlineExceeded)
			})
		}
		ss.mu.Lock()
		ss.inflight[c.Id] = cancel
		ss.mu.Unlock()
		return c, cctx, cancel, nil
	}
}

// finish runs one call and forgets it: its reply is what is left to write (then done, if set).
func (ss *session) finish(ctx context.Context, c *pb.Call, cancel context.CancelCauseFunc, done *func()) *pb.Reply {
	r := ss.s.dispatch(ctx, c, done)
	ss.mu.Lock()
	delete(ss.inflight, c.Id)
	ss.mu.Unlock()
	ss.watch.remove(c.Id)
	cancel(context.Canceled)
	return r
}

// serve runs one call and writes its reply.
func (ss *session) serve(ctx context.Context, c *pb.Call, cancel context.CancelCauseFunc) {
	var done func()
	r := ss.finish(ctx, c, cancel, &done)
	if err := ss.w.writeMsg(r); err != nil && unsent(err) {
		// The reply could not be written (too large, say): tell the host why.
		_ = ss.w.writeMsg(statusReply(c.Id, codes.ResourceExhausted, err.Error()))
	}
	// Written (marshalled into the frame, or given up): the views' buffer can serve a later call.
	if done != nil {
		done()
	}
}

// channelAcceptTimeout bounds how long a channel opened by OpenChannel waits for its host; a host
// connects right after asking.
const channelAcceptTimeout = 30 * time.Second

// OpenChannel opens the direct channel: a unix socket in a fresh private folder and a random
// token. It accepts one connection whose first frame is the token, removes the socket and serves
// calls on the connection until the host closes it. A failure to listen is returned as an error,
// which fails the plugin's launch.
func (s *Server) OpenChannel(_ context.Context, _ *pb.OpenChannelRequest) (*pb.OpenChannelResponse, error) {
	dir, err := os.MkdirTemp("", "cardhouse-calls-")
	if err != nil {
		return nil, status.Errorf(codes.Unavailable, "opening a channel: %v", err)
	}
	path := filepath.Join(dir, "s")
	l, err := net.Listen("unix", path)
	if err != nil {
		_ = os.RemoveAll(dir)
		return nil, status.Errorf(codes.Unavailable, "opening a channel: %v", err)
	}
	token := make([]byte, 32)
	_, _ = rand.Read(token) // crypto/rand.Read never fails on supported platforms
	go s.acceptChannel(l.(*net.UnixListener), dir, token)
	return &pb.OpenChannelResponse{Network: "unix", Address: path, Token: token}, nil
}

// acceptChannel accepts the one connection of a channel, checks its token and serves it.
func (s *Server) acceptChannel(l *net.UnixListener, dir string, token []byte) {
	_ = l.SetDeadline(time.Now().Add(channelAcceptTimeout))
	conn, err := l.Accept()
	_ = l.Close()
	_ = os.RemoveAll(dir)
	if err != nil {
		return
	}
	defer conn.Close()
	w := newSocketWire(conn)
	_ = conn.SetReadDeadline(time.Now().Add(channelAcceptTimeout))
	got, err := w.readFrame()
	if err != nil || subtle.ConstantTimeCompare(got, token) != 1 {
		return
	}
	_ = conn.SetReadDeadline(time.Time{})
	_ = s.serveCalls(context.Background(), w)
}
