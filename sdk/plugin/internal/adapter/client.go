package adapter

import (
	"context"
	"errors"
	"fmt"

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

// Client is the host's side of protocol 1: an sdk.Engine that forwards each call to a plugin.
// Errors come back typed: a refusal as *sdk.RuleError, a failure as *sdk.FailureError, a deadline
// or cancellation as (a wrap of) context.DeadlineExceeded / context.Canceled, anything else as
// *TransportError. gRPC codes stay inside this file.
type Client struct {
	rpc pb.RulesetClient
}

// NewClient returns an engine that calls rpc.
func NewClient(rpc pb.RulesetClient) *Client { return &Client{rpc: rpc} }

var _ sdk.Engine = (*Client)(nil)

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
	resp, err := c.rpc.Describe(ctx, &pb.DescribeRequest{})
	if err != nil {
		return nil, callError("Describe", err)
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

func (c *Client) stepReply(op string, resp *pb.StepResponse) (*sdk.Step, error) {
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
	r, err := NewGameToPB(req)
	if err != nil {
		return nil, err
	}
	resp, err := c.rpc.NewGame(ctx, r)
	if err != nil {
		return nil, callError("NewGame", err)
	}
	return c.stepReply("start", resp)
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
	resp, err := c.rpc.Act(ctx, &pb.ActRequest{State: req.State, Action: a, Now: req.Now, NoViews: req.NoViews})
	if err != nil {
		return nil, callError("Act", err)
	}
	return c.stepReply("act", resp)
}

// Inspect implements sdk.Engine.
func (c *Client) Inspect(ctx context.Context, req *sdk.InspectRequest) (*sdk.Inspection, error) {
	if req == nil {
		return nil, errNoRequest("Inspect")
	}
	resp, err := c.rpc.Inspect(ctx, &pb.InspectRequest{State: req.State, Views: req.Views})
	if err != nil {
		return nil, callError("Inspect", err)
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
	resp, err := c.rpc.Bot(ctx, &pb.BotRequest{State: req.State, Seat: int32(req.Seat), Level: int32(req.Level), Seed: req.Seed})
	if err != nil {
		return nil, callError("Bot", err)
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
