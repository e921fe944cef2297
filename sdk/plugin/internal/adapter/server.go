package adapter

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"sync"

	"cardhouse/sdk"
	"cardhouse/sdk/engine"
	pb "cardhouse/sdk/plugin/internal/pb/rulesetv1"

	"google.golang.org/grpc/status"
)

// Server serves an engine.Engine as the Ruleset service of protocol 1: its one gRPC method,
// OpenChannel, opens the calls channel, on which each call goes to the handler below for its
// kind (calls.go). Refusals and failures travel in the response's Error field; a context error
// becomes the reply's status; a panic anywhere in a call (the engine, the conversions) is
// recovered and returned as a failure, so one bad call never takes the plugin process down.
type Server struct {
	pb.UnimplementedRulesetServer
	engine engine.Engine
	id     string
}

// NewServer returns a server for e. The ruleset id, used to label failures, is read once from
// e.Describe.
func NewServer(e engine.Engine) *Server {
	s := &Server{engine: e}
	if d, err := e.Describe(context.Background()); err == nil && d != nil {
		s.id = d.ID
	}
	return s
}

// errorToPB sorts an engine error: a failure (checked first: a failure may wrap a refusal), a
// refusal, a context error (returned as a status error, which dispatch turns into the reply's
// status), anything else as a failure of op.
func (s *Server) errorToPB(op string, err error) (*pb.Error, error) {
	if errors.Is(err, engine.ErrNeedState) {
		return &pb.Error{Kind: &pb.Error_NeedState{NeedState: &pb.NeedState{}}}, nil
	}
	var fe *sdk.FailureError
	if errors.As(err, &fe) {
		return &pb.Error{Kind: &pb.Error_Failure{Failure: &pb.Failure{Ruleset: fe.Ruleset, Op: fe.Op, Message: fmt.Sprint(fe.Err)}}}, nil
	}
	if re, ok := sdk.AsRefusal(err); ok {
		ref := &pb.Refusal{Code: re.Code, Reason: re.Reason, Detail: re.Detail, Ruling: re.Ruling}
		if f := re.Fault; f != nil {
			ref.Fault = &pb.HouseFault{Rule: f.Rule, Version: int32(f.Version), Hook: f.Hook, Line: int32(f.Line), Message: f.Message}
		}
		return &pb.Error{Kind: &pb.Error_Refusal{Refusal: ref}}, nil
	}
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		return nil, status.FromContextError(err).Err()
	}
	return s.failure(op, err), nil
}

func (s *Server) failure(op string, err error) *pb.Error {
	return &pb.Error{Kind: &pb.Error_Failure{Failure: &pb.Failure{Ruleset: s.id, Op: op, Message: err.Error()}}}
}

// guard recovers a panic of the call into a failure set by set.
func (s *Server) guard(op string, set func(*pb.Error), err *error) {
	if p := recover(); p != nil {
		set(s.failure(op, fmt.Errorf("panic in the plugin server: %v\n%s", p, debug.Stack())))
		*err = nil
	}
}

// describe answers engine.Engine.Describe.
func (s *Server) describe(ctx context.Context) (resp *pb.DescribeResponse, err error) {
	resp = &pb.DescribeResponse{}
	defer s.guard("describe", func(e *pb.Error) { resp = &pb.DescribeResponse{Error: e} }, &err)
	d, err := s.engine.Describe(ctx)
	if err != nil {
		resp.Error, err = s.errorToPB("describe", err)
		return resp, err
	}
	b, err := marshalOpt("description", d, false)
	if err != nil {
		return &pb.DescribeResponse{Error: s.failure("describe", err)}, nil
	}
	resp.DescriptionJson = b
	return resp, nil
}

// step answers a call that makes a step.
func (s *Server) step(op string, st *engine.Step, callErr error) (*pb.StepResponse, error) {
	if callErr != nil {
		e, err := s.errorToPB(op, callErr)
		return &pb.StepResponse{Error: e}, err
	}
	if st == nil {
		return &pb.StepResponse{Error: s.failure(op, errors.New("the engine returned no step and no error"))}, nil
	}
	resp, err := StepToPB(st)
	if err != nil {
		return &pb.StepResponse{Error: s.failure(op, err)}, nil
	}
	return resp, nil
}

// newGame answers engine.Engine.NewGame.
func (s *Server) newGame(ctx context.Context, req *pb.NewGameRequest) (resp *pb.StepResponse, err error) {
	defer s.guard("start", func(e *pb.Error) { resp = &pb.StepResponse{Error: e} }, &err)
	r, err := NewGameFromPB(req)
	if err != nil {
		return s.step("start", nil, err)
	}
	st, err := s.engine.NewGame(ctx, r)
	return s.step("start", st, err)
}

// act answers engine.Engine.Act. With done, the views are written into a recycled buffer, and *done
// is set to give it back: the caller calls it once the reply holding the views is written.
func (s *Server) act(ctx context.Context, req *pb.ActRequest, done *func()) (resp *pb.StepResponse, err error) {
	defer s.guard("act", func(e *pb.Error) { resp = &pb.StepResponse{Error: e} }, &err)
	a, err := ActionFromPB(req.Action)
	if err != nil {
		return s.step("act", nil, err)
	}
	ref, err := GameRefFromPB(req.Ref)
	if err != nil {
		return s.step("act", nil, err)
	}
	ar := &engine.ActRequest{GameRef: ref, State: req.State, Action: a, Now: req.Now, NoViews: req.NoViews, NoSpectator: req.NoSpectator,
		OmitState: req.OmitState, Phase: req.Phase, DryRun: req.DryRun, Patches: req.Patches, Trace: req.Trace, PatchesOnly: req.PatchesOnly}
	var bp *[]byte
	if done != nil && !req.NoViews {
		bp = viewBufs.Get().(*[]byte)
		ar.ViewBuf = *bp
	}
	st, err := s.engine.Act(ctx, ar)
	if bp != nil {
		*done = func() { recycleViewBuf(bp, st) }
	}
	return s.step("act", st, err)
}

// viewBufs recycles the buffers the plugin's steps write their views into: the views of one step
// (4 seats and a spectator: about 10 KiB) live only until the reply is written.
var viewBufs = sync.Pool{New: func() any { b := make([]byte, 0, 16<<10); return &b }}

// recycleViewBuf gives bp back once st's views are written, grown to hold views as large as
// st's when they did not fit (the engine then wrote them elsewhere).
func recycleViewBuf(bp *[]byte, st *engine.Step) {
	if st != nil {
		n := len(st.Spectator)
		for _, v := range st.Views {
			n += len(v)
		}
		if n > cap(*bp) {
			if n > 1<<20 {
				return // an outsized step: let the collector have it
			}
			*bp = make([]byte, 0, n+n/8)
		}
	}
	*bp = (*bp)[:0]
	viewBufs.Put(bp)
}

// inspect answers engine.Engine.Inspect.
func (s *Server) inspect(ctx context.Context, req *pb.InspectRequest) (resp *pb.InspectResponse, err error) {
	defer s.guard("inspect", func(e *pb.Error) { resp = &pb.InspectResponse{Error: e} }, &err)
	ref, err := GameRefFromPB(req.Ref)
	if err != nil {
		e, err := s.errorToPB("inspect", err)
		return &pb.InspectResponse{Error: e}, err
	}
	in, err := s.engine.Inspect(ctx, &engine.InspectRequest{GameRef: ref, State: req.State, Views: req.Views})
	if err != nil {
		e, err := s.errorToPB("inspect", err)
		return &pb.InspectResponse{Error: e}, err
	}
	if in == nil {
		return &pb.InspectResponse{Error: s.failure("inspect", errors.New("the engine returned no inspection and no error"))}, nil
	}
	resp, err = InspectionToPB(in)
	if err != nil {
		return &pb.InspectResponse{Error: s.failure("inspect", err)}, nil
	}
	return resp, nil
}

// bot answers engine.Engine.Bot.
func (s *Server) bot(ctx context.Context, req *pb.BotRequest) (resp *pb.BotResponse, err error) {
	defer s.guard("bot", func(e *pb.Error) { resp = &pb.BotResponse{Error: e} }, &err)
	ref, err := GameRefFromPB(req.Ref)
	if err != nil {
		e, err := s.errorToPB("bot", err)
		return &pb.BotResponse{Error: e}, err
	}
	ans, err := s.engine.Bot(ctx, &engine.BotCall{GameRef: ref, State: req.State, Seat: int(req.Seat), Level: int(req.Level), Seed: req.Seed})
	if err != nil {
		e, err := s.errorToPB("bot", err)
		return &pb.BotResponse{Error: e}, err
	}
	resp = &pb.BotResponse{}
	if ans != nil && ans.Action != nil {
		a, err := ActionToPB(ans.Action)
		if err != nil {
			return &pb.BotResponse{Error: s.failure("bot", fmt.Errorf("the bot chose an action that cannot be sent: %w", err))}, nil
		}
		resp.Action = a
	}
	return resp, nil
}

// describeHouseRule answers engine.HouseRuleDescriber.DescribeHouseRule; an engine without it is
// refused as one without house rules.
func (s *Server) describeHouseRule(ctx context.Context, req *pb.DescribeHouseRuleRequest) (resp *pb.DescribeHouseRuleResponse, err error) {
	defer s.guard("describe_house_rule", func(e *pb.Error) { resp = &pb.DescribeHouseRuleResponse{Error: e} }, &err)
	d, ok := s.engine.(engine.HouseRuleDescriber)
	if !ok {
		e, err := s.errorToPB("describe_house_rule", sdk.Refuse(sdk.CodeHouseRule, "this plugin's engine cannot describe house rules"))
		return &pb.DescribeHouseRuleResponse{Error: e}, err
	}
	info, err := d.DescribeHouseRule(ctx, req.GetSource())
	if err != nil {
		e, err := s.errorToPB("describe_house_rule", err)
		return &pb.DescribeHouseRuleResponse{Error: e}, err
	}
	b, err := marshalOpt("house rule", info, false)
	if err != nil {
		return &pb.DescribeHouseRuleResponse{Error: s.failure("describe_house_rule", err)}, nil
	}
	return &pb.DescribeHouseRuleResponse{InfoJson: b}, nil
}
