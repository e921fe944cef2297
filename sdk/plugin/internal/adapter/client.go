package adapter

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"cardhouse/sdk"
	pb "cardhouse/sdk/plugin/internal/pb/rulesetv1"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// TransportError is a call that failed on the way rather than in the ruleset: the connection was
// lost, the plugin does not speak the method, a message was too large. It matches sdk.ErrRuleset
// (the game cannot go on through this plugin as it is); Lost says the connection to the process
// is gone, which the supervisor reads as a crash.
type TransportError struct {
	Method string
	Lost   bool
	Err    error
}

func (e *TransportError) Error() string {
	return fmt.Sprintf("plugin call %s: %v", e.Method, e.Err)
}

func (e *TransportError) Unwrap() error { return e.Err }

// Is makes errors.Is(err, sdk.ErrRuleset) true.
func (e *TransportError) Is(target error) bool { return target == sdk.ErrRuleset }

// Transports a Client can carry its calls on, fastest first.
const (
	// TransportSocket is the direct channel of OpenChannel: framed messages on a private unix
	// socket, multiplexed by call id.
	TransportSocket = "socket"
	// TransportStream is the Calls gRPC stream, multiplexed by call id.
	TransportStream = "stream"
	// TransportUnary is one gRPC call per engine call: what every plugin of protocol 1 answers.
	TransportUnary = "unary"
)

// Client is the host's side of protocol 1: an sdk.Engine that forwards each call to a plugin.
// Errors come back typed: a refusal as *sdk.RuleError, a failure as *sdk.FailureError, a deadline
// or cancellation as (a wrap of) context.DeadlineExceeded / context.Canceled, anything else as
// *TransportError. gRPC codes stay inside this package.
//
// A new Client makes unary calls; Connect moves it onto a multiplexed channel when the plugin
// offers one. It is safe for concurrent use.
type Client struct {
	rpc     pb.RulesetClient
	mux     atomic.Pointer[mux]
	timeout time.Duration
}

// NewClient returns an engine that calls rpc, one unary call per engine call, with no default
// deadline.
func NewClient(rpc pb.RulesetClient) *Client { return &Client{rpc: rpc} }

var _ sdk.Engine = (*Client)(nil)

// Connect chooses how the calls travel and checks the choice with a Describe, whose answer it
// returns with the transport's name. It tries the transports from prefer down (TransportSocket or
// "": socket, stream, unary; TransportStream: stream, unary; TransportUnary: unary only) and
// keeps the first the plugin answers on; a plugin that does not know a transport, or cannot open
// it, is served by the next. timeout becomes the deadline of every later call whose context has
// none (0: none). Connect is called once, before the Client is shared.
func (c *Client) Connect(ctx context.Context, prefer string, timeout time.Duration) (*sdk.Description, string, error) {
	c.timeout = timeout
	var order []string
	switch prefer {
	case "", TransportSocket:
		order = []string{TransportSocket, TransportStream}
	case TransportStream:
		order = []string{TransportStream}
	case TransportUnary:
	default:
		return nil, "", fmt.Errorf("unknown plugin transport %q (want %q, %q or %q)", prefer, TransportSocket, TransportStream, TransportUnary)
	}
	for _, kind := range order {
		var m *mux
		var err error
		if kind == TransportSocket {
			m, err = openSocket(ctx, c.rpc)
		} else {
			m, err = openStream(c.rpc)
		}
		if err != nil {
			if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
				return nil, "", err
			}
			continue // not offered, or cannot be opened here: try the next
		}
		c.mux.Store(m)
		d, err := c.Describe(ctx)
		if err == nil {
			return d, kind, nil
		}
		c.mux.Store(nil)
		m.close()
		if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
			return nil, "", err
		}
	}
	d, err := c.Describe(ctx)
	return d, TransportUnary, err
}

// Transport names the transport the calls travel on.
func (c *Client) Transport() string {
	if m := c.mux.Load(); m != nil {
		return m.kind
	}
	return TransportUnary
}

// Broken reports whether the multiplexed channel has ended (the plugin died or closed it): every
// later call would fail. A unary Client is never broken; its gRPC connection reports for it.
func (c *Client) Broken() bool {
	m := c.mux.Load()
	return m != nil && !m.alive()
}

// Close ends the multiplexed channel, if any; calls in flight on it fail as lost. The gRPC
// connection belongs to go-plugin and is not closed here.
func (c *Client) Close() {
	if m := c.mux.Load(); m != nil {
		m.close()
	}
}

// invoke sends one call on the channel, or as a unary call, and returns the reply. A reply that
// carries a status comes back as the error the status means. A step's views are written into
// viewBuf when its capacity is enough (sdk.ActRequest.ViewBuf), else into a buffer of their own.
func (c *Client) invoke(ctx context.Context, method string, call *pb.Call, viewBuf []byte) (*pb.Reply, error) {
	if m := c.mux.Load(); m != nil {
		r, err := m.call(ctx, method, call, c.timeout)
		if err != nil {
			return nil, err
		}
		if r.transit != nil {
			ownViews(r.GetStep(), r.transit, viewBuf)
		}
		if s, ok := r.Response.(*pb.Reply_Status); ok {
			return nil, statusError(method, s.Status)
		}
		return r.Reply, nil
	}
	if _, ok := ctx.Deadline(); !ok && c.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, c.timeout)
		defer cancel()
	}
	r := &pb.Reply{}
	var err error
	switch q := call.Request.(type) {
	case *pb.Call_Act:
		var resp *pb.StepResponse
		resp, err = c.rpc.Act(ctx, q.Act)
		r.Response = &pb.Reply_Step{Step: resp}
	case *pb.Call_Bot:
		var resp *pb.BotResponse
		resp, err = c.rpc.Bot(ctx, q.Bot)
		r.Response = &pb.Reply_Bot{Bot: resp}
	case *pb.Call_Inspect:
		var resp *pb.InspectResponse
		resp, err = c.rpc.Inspect(ctx, q.Inspect)
		r.Response = &pb.Reply_Inspect{Inspect: resp}
	case *pb.Call_NewGame:
		var resp *pb.StepResponse
		resp, err = c.rpc.NewGame(ctx, q.NewGame)
		r.Response = &pb.Reply_Step{Step: resp}
	case *pb.Call_Describe:
		var resp *pb.DescribeResponse
		resp, err = c.rpc.Describe(ctx, q.Describe)
		r.Response = &pb.Reply_Describe{Describe: resp}
	default:
		return nil, fmt.Errorf("plugin call %s: no unary method for %T", method, call.Request)
	}
	if err != nil {
		return nil, callError(method, err)
	}
	return r, nil
}

// noAnswer is a reply without the response its call asks for: a plugin bug.
func noAnswer(op string) error {
	return badReply(op, errors.New("the reply carries no response for the call"))
}

// callError turns a gRPC error into the error the host expects.
func callError(method string, err error) error {
	st, ok := status.FromError(err)
	if !ok {
		if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
			return fmt.Errorf("plugin call %s: %w", method, err)
		}
		return &TransportError{Method: method, Err: err}
	}
	switch st.Code() {
	case codes.DeadlineExceeded:
		return fmt.Errorf("plugin call %s: %w", method, context.DeadlineExceeded)
	case codes.Canceled:
		return fmt.Errorf("plugin call %s: %w", method, context.Canceled)
	case codes.Unavailable:
		return &TransportError{Method: method, Lost: true, Err: errors.New(st.Message())}
	}
	return &TransportError{Method: method, Err: fmt.Errorf("%s: %s", st.Code(), st.Message())}
}

// errorFromPB rebuilds a refusal or failure; nil when e is nil.
func errorFromPB(e *pb.Error) error {
	switch k := e.GetKind().(type) {
	case *pb.Error_Refusal:
		return &sdk.RuleError{Code: k.Refusal.GetCode(), Reason: k.Refusal.GetReason()}
	case *pb.Error_Failure:
		return &sdk.FailureError{Ruleset: k.Failure.GetRuleset(), Op: k.Failure.GetOp(), Err: errors.New(k.Failure.GetMessage())}
	}
	return nil
}

// errNoRequest is a host bug: a call without its request.
func errNoRequest(method string) error { return fmt.Errorf("plugin call %s: no request given", method) }

// badReply is a reply the host cannot read: a plugin bug, reported as a failure.
func badReply(op string, err error) error {
	return &sdk.FailureError{Op: op, Err: fmt.Errorf("reading the plugin's reply: %w", err)}
}

// Describe implements sdk.Engine.
func (c *Client) Describe(ctx context.Context) (*sdk.Description, error) {
	r, err := c.invoke(ctx, "Describe", &pb.Call{Request: &pb.Call_Describe{Describe: &pb.DescribeRequest{}}}, nil)
	if err != nil {
		return nil, err
	}
	resp := r.GetDescribe()
	if resp == nil {
		return nil, noAnswer("describe")
	}
	if err := errorFromPB(resp.Error); err != nil {
		return nil, err
	}
	d, err := DescriptionFromJSON(resp.DescriptionJson)
	if err != nil {
		return nil, badReply("describe", err)
	}
	return d, nil
}

func (c *Client) stepReply(op string, r *pb.Reply) (*sdk.Step, error) {
	resp := r.GetStep()
	if resp == nil {
		return nil, noAnswer(op)
	}
	if err := errorFromPB(resp.Error); err != nil {
		return nil, err
	}
	st, err := StepFromPB(resp)
	if err != nil {
		return nil, badReply(op, err)
	}
	return st, nil
}

// NewGame implements sdk.Engine.
func (c *Client) NewGame(ctx context.Context, req *sdk.NewGameRequest) (*sdk.Step, error) {
	if req == nil {
		return nil, errNoRequest("NewGame")
	}
	q, err := NewGameToPB(req)
	if err != nil {
		return nil, err
	}
	r, err := c.invoke(ctx, "NewGame", &pb.Call{Request: &pb.Call_NewGame{NewGame: q}}, nil)
	if err != nil {
		return nil, err
	}
	return c.stepReply("start", r)
}

// Act implements sdk.Engine.
func (c *Client) Act(ctx context.Context, req *sdk.ActRequest) (*sdk.Step, error) {
	if req == nil {
		return nil, errNoRequest("Act")
	}
	a, err := ActionToPB(&req.Action)
	if err != nil {
		return nil, err
	}
	r, err := c.invoke(ctx, "Act", &pb.Call{Request: &pb.Call_Act{Act: &pb.ActRequest{State: req.State, Action: a, Now: req.Now, NoViews: req.NoViews, NoSpectator: req.NoSpectator}}}, req.ViewBuf)
	if err != nil {
		return nil, err
	}
	return c.stepReply("act", r)
}

// Inspect implements sdk.Engine.
func (c *Client) Inspect(ctx context.Context, req *sdk.InspectRequest) (*sdk.Inspection, error) {
	if req == nil {
		return nil, errNoRequest("Inspect")
	}
	r, err := c.invoke(ctx, "Inspect", &pb.Call{Request: &pb.Call_Inspect{Inspect: &pb.InspectRequest{State: req.State, Views: req.Views}}}, nil)
	if err != nil {
		return nil, err
	}
	resp := r.GetInspect()
	if resp == nil {
		return nil, noAnswer("inspect")
	}
	if err := errorFromPB(resp.Error); err != nil {
		return nil, err
	}
	in, err := InspectionFromPB(resp)
	if err != nil {
		return nil, badReply("inspect", err)
	}
	return in, nil
}

// Bot implements sdk.Engine.
func (c *Client) Bot(ctx context.Context, req *sdk.BotCall) (*sdk.BotAnswer, error) {
	if req == nil {
		return nil, errNoRequest("Bot")
	}
	r, err := c.invoke(ctx, "Bot", &pb.Call{Request: &pb.Call_Bot{Bot: &pb.BotRequest{State: req.State, Seat: int32(req.Seat), Level: int32(req.Level), Seed: req.Seed}}}, nil)
	if err != nil {
		return nil, err
	}
	resp := r.GetBot()
	if resp == nil {
		return nil, noAnswer("bot")
	}
	if err := errorFromPB(resp.Error); err != nil {
		return nil, err
	}
	ans := &sdk.BotAnswer{}
	if resp.Action != nil {
		a, err := ActionFromPB(resp.Action)
		if err != nil {
			return nil, badReply("bot", err)
		}
		ans.Action = &a
	}
	return ans, nil
}
