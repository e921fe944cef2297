package adapter

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"cardhouse/sdk"
	"cardhouse/sdk/engine"
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

// Client is the host's side of protocol 1: an engine.Engine that forwards each call to a plugin on
// its calls channel. Errors come back typed: a refusal as *sdk.RuleError, a failure as
// *sdk.FailureError, a deadline or cancellation as (a wrap of) context.DeadlineExceeded /
// context.Canceled, anything else as *TransportError. Status codes stay inside this package.
//
// A new Client has no channel: Connect opens it. It is safe for concurrent use once connected.
type Client struct {
	rpc     pb.RulesetClient
	mux     *mux
	timeout time.Duration
}

// NewClient returns an engine that opens its calls channel through rpc (Connect).
func NewClient(rpc pb.RulesetClient) *Client { return &Client{rpc: rpc} }

var _ engine.Engine = (*Client)(nil)

// Connect opens the calls channel (OpenChannel, then the socket it names) and checks it with a
// Describe, whose answer it returns. timeout becomes the deadline of every later call whose
// context has none (0: none). A plugin without OpenChannel was built against an SDK older than
// the calls channel: Connect says so. Connect is called once, before the Client is shared.
func (c *Client) Connect(ctx context.Context, timeout time.Duration) (*engine.Description, error) {
	c.timeout = timeout
	m, err := openSocket(ctx, c.rpc)
	if err != nil {
		if status.Code(err) == codes.Unimplemented {
			return nil, fmt.Errorf("the plugin does not open a calls channel (it was built against an older Cardhouse SDK; rebuild it): %w", err)
		}
		return nil, fmt.Errorf("opening the calls channel: %w", err)
	}
	c.mux = m
	d, err := c.Describe(ctx)
	if err != nil {
		m.close()
		return nil, fmt.Errorf("describing the ruleset: %w", err)
	}
	return d, nil
}

// Broken reports whether the calls channel has ended (the plugin died or closed it): every later
// call would fail.
func (c *Client) Broken() bool { return c.mux != nil && !c.mux.alive() }

// Close ends the calls channel; calls in flight on it fail as lost. The gRPC connection belongs
// to go-plugin and is not closed here.
func (c *Client) Close() {
	if c.mux != nil {
		c.mux.close()
	}
}

// invoke sends one call on the channel and returns the reply. A reply that carries a status comes
// back as the error the status means. A step's views are written into viewBuf when its capacity
// is enough (engine.ActRequest.ViewBuf), else into a buffer of their own.
func (c *Client) invoke(ctx context.Context, method string, call *pb.Call, viewBuf []byte) (*pb.Reply, error) {
	if c.mux == nil {
		return nil, &TransportError{Method: method, Lost: true, Err: errors.New("the calls channel is not open")}
	}
	r, err := c.mux.call(ctx, method, call, c.timeout)
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

// noAnswer is a reply without the response its call asks for: a plugin bug.
func noAnswer(op string) error {
	return badReply(op, errors.New("the reply carries no response for the call"))
}

// errorFromPB rebuilds a refusal or failure; nil when e is nil.
func errorFromPB(e *pb.Error) error {
	switch k := e.GetKind().(type) {
	case *pb.Error_Refusal:
		re := &sdk.RuleError{Code: k.Refusal.GetCode(), Reason: k.Refusal.GetReason(), Detail: k.Refusal.GetDetail(), Ruling: k.Refusal.GetRuling()}
		if f := k.Refusal.GetFault(); f != nil {
			re.Fault = &sdk.HouseFault{Rule: f.GetRule(), Version: int(f.GetVersion()), Hook: f.GetHook(), Line: int(f.GetLine()), Message: f.GetMessage()}
		}
		return re
	case *pb.Error_Failure:
		return &sdk.FailureError{Ruleset: k.Failure.GetRuleset(), Op: k.Failure.GetOp(), Err: errors.New(k.Failure.GetMessage())}
	case *pb.Error_NeedState:
		return engine.ErrNeedState
	}
	return nil
}

// errNoRequest is a host bug: a call without its request.
func errNoRequest(method string) error { return fmt.Errorf("plugin call %s: no request given", method) }

// badReply is a reply the host cannot read: a plugin bug, reported as a failure.
func badReply(op string, err error) error {
	return &sdk.FailureError{Op: op, Err: fmt.Errorf("reading the plugin's reply: %w", err)}
}

// Describe implements engine.Engine.
func (c *Client) Describe(ctx context.Context) (*engine.Description, error) {
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

func (c *Client) stepReply(op string, r *pb.Reply) (*engine.Step, error) {
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

// NewGame implements engine.Engine.
func (c *Client) NewGame(ctx context.Context, req *engine.NewGameRequest) (*engine.Step, error) {
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

// Act implements engine.Engine.
func (c *Client) Act(ctx context.Context, req *engine.ActRequest) (*engine.Step, error) {
	if req == nil {
		return nil, errNoRequest("Act")
	}
	a, err := ActionToPB(&req.Action)
	if err != nil {
		return nil, err
	}
	ref, err := GameRefToPB(&req.GameRef)
	if err != nil {
		return nil, err
	}
	r, err := c.invoke(ctx, "Act", &pb.Call{Request: &pb.Call_Act{Act: &pb.ActRequest{State: req.State, Action: a, Now: req.Now, NoViews: req.NoViews, NoSpectator: req.NoSpectator,
		Ref: ref, OmitState: req.OmitState, Phase: req.Phase, DryRun: req.DryRun, Patches: req.Patches, Trace: req.Trace, PatchesOnly: req.PatchesOnly}}}, req.ViewBuf)
	if err != nil {
		return nil, err
	}
	return c.stepReply("act", r)
}

// Inspect implements engine.Engine.
func (c *Client) Inspect(ctx context.Context, req *engine.InspectRequest) (*engine.Inspection, error) {
	if req == nil {
		return nil, errNoRequest("Inspect")
	}
	ref, err := GameRefToPB(&req.GameRef)
	if err != nil {
		return nil, err
	}
	r, err := c.invoke(ctx, "Inspect", &pb.Call{Request: &pb.Call_Inspect{Inspect: &pb.InspectRequest{State: req.State, Views: req.Views, Ref: ref}}}, nil)
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

// Bot implements engine.Engine.
func (c *Client) Bot(ctx context.Context, req *engine.BotCall) (*engine.BotAnswer, error) {
	if req == nil {
		return nil, errNoRequest("Bot")
	}
	ref, err := GameRefToPB(&req.GameRef)
	if err != nil {
		return nil, err
	}
	r, err := c.invoke(ctx, "Bot", &pb.Call{Request: &pb.Call_Bot{Bot: &pb.BotRequest{State: req.State, Seat: int32(req.Seat), Level: int32(req.Level), Seed: req.Seed, Ref: ref}}}, nil)
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
	ans := &engine.BotAnswer{}
	if resp.Action != nil {
		a, err := ActionFromPB(resp.Action)
		if err != nil {
			return nil, badReply("bot", err)
		}
		ans.Action = &a
	}
	return ans, nil
}

// DescribeHouseRule implements engine.HouseRuleDescriber: the plugin compiles the script in its
// sandbox. A plugin built before the call answers that it does not know it.
func (c *Client) DescribeHouseRule(ctx context.Context, source string) (*engine.HouseRuleInfo, error) {
	r, err := c.invoke(ctx, "DescribeHouseRule", &pb.Call{Request: &pb.Call_DescribeHouseRule{DescribeHouseRule: &pb.DescribeHouseRuleRequest{Source: source}}}, nil)
	if err != nil {
		return nil, err
	}
	resp := r.GetHouseRule()
	if resp == nil {
		return nil, noAnswer("describe_house_rule")
	}
	if err := errorFromPB(resp.Error); err != nil {
		return nil, err
	}
	var info engine.HouseRuleInfo
	if err := json.Unmarshal(resp.InfoJson, &info); err != nil {
		return nil, badReply("describe_house_rule", err)
	}
	return &info, nil
}
