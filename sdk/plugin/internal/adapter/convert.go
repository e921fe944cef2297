package adapter

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"

	"cardhouse/sdk"
	"cardhouse/sdk/engine"
	pb "cardhouse/sdk/plugin/internal/pb/rulesetv1"
)

// cardCodes writes cards as their codes. A card without a code (the zero Card, an unknown number)
// is refused with the position it was at, so a bad action never reaches the plugin.
func cardCodes(where string, cards []sdk.Card) ([]string, error) {
	if len(cards) == 0 {
		return nil, nil
	}
	out := make([]string, len(cards))
	for i, c := range cards {
		if !c.Valid() {
			return nil, &sdk.RuleError{Code: sdk.CodeUnknownCard, Reason: fmt.Sprintf("%s: card %d (number %d) is no card", where, i+1, uint16(c))}
		}
		out[i] = c.String()
	}
	return out, nil
}

// parseCodes reads card codes; a bad code is refused naming where and which.
func parseCodes(where string, codes []string) ([]sdk.Card, error) {
	if len(codes) == 0 {
		return nil, nil
	}
	out := make([]sdk.Card, len(codes))
	for i, code := range codes {
		c, err := sdk.ParseCard(code)
		if err != nil {
			return nil, &sdk.RuleError{Code: sdk.CodeUnknownCard, Reason: fmt.Sprintf("%s: card %d: %v", where, i+1, err)}
		}
		out[i] = c
	}
	return out, nil
}

func optInt(p *int) *int32 {
	if p == nil {
		return nil
	}
	v := int32(*p)
	return &v
}

func fromOptInt(p *int32) *int {
	if p == nil {
		return nil
	}
	v := int(*p)
	return &v
}

// ActionToPB converts an action for the wire.
func ActionToPB(a *sdk.Action) (*pb.Action, error) {
	cards, err := cardCodes("action "+a.Type, a.Cards)
	if err != nil {
		return nil, err
	}
	return &pb.Action{
		Seat: int32(a.Seat), Type: a.Type, Cards: cards, Suit: a.Suit, Color: a.Color, From: a.From,
		Target: optInt(a.Target), Index: optInt(a.Index), Deadline: a.Deadline, Args: a.Args,
	}, nil
}

// ActionFromPB reads an action from the wire.
func ActionFromPB(a *pb.Action) (sdk.Action, error) {
	if a == nil {
		return sdk.Action{}, &sdk.RuleError{Code: sdk.CodeBadAction, Reason: "no action given"}
	}
	cards, err := parseCodes("action "+a.Type, a.Cards)
	if err != nil {
		return sdk.Action{}, err
	}
	return sdk.Action{
		Seat: int(a.Seat), Type: a.Type, Cards: cards, Suit: a.Suit, Color: a.Color, From: a.From,
		Target: fromOptInt(a.Target), Index: fromOptInt(a.Index), Deadline: a.Deadline, Args: a.Args,
	}, nil
}

// GameRefToPB converts a game reference for the wire; the zero GameRef is none (nil).
func GameRefToPB(g *engine.GameRef) (*pb.GameRef, error) {
	if g.Game == "" && g.Seq == 0 && len(g.Tail) == 0 {
		return nil, nil
	}
	out := &pb.GameRef{Game: g.Game, Seq: int64(g.Seq)}
	if len(g.Tail) > 0 {
		out.Tail = make([]*pb.Logged, len(g.Tail))
		for i := range g.Tail {
			a, err := ActionToPB(&g.Tail[i].Action)
			if err != nil {
				return nil, err
			}
			out.Tail[i] = &pb.Logged{Action: a, Now: g.Tail[i].Now}
		}
	}
	return out, nil
}

// GameRefFromPB reads a game reference from the wire; none (nil) is the zero GameRef.
func GameRefFromPB(g *pb.GameRef) (engine.GameRef, error) {
	if g == nil {
		return engine.GameRef{}, nil
	}
	out := engine.GameRef{Game: g.Game, Seq: int(g.Seq)}
	if len(g.Tail) > 0 {
		out.Tail = make([]engine.Logged, len(g.Tail))
		for i, l := range g.Tail {
			a, err := ActionFromPB(l.GetAction())
			if err != nil {
				return engine.GameRef{}, err
			}
			out.Tail[i] = engine.Logged{Action: a, Now: l.GetNow()}
		}
	}
	return out, nil
}

// StatusToPB converts a status for the wire.
func StatusToPB(s *sdk.Status) *pb.Status {
	out := &pb.Status{Phase: s.Phase, Seats: int32(s.Seats), Turn: int32(s.Turn), Winner: int32(s.Winner), Round: int32(s.Round)}
	if len(s.Actors) > 0 {
		out.Actors = make([]int32, len(s.Actors))
		for i, a := range s.Actors {
			out.Actors[i] = int32(a)
		}
	}
	if len(s.Deadlines) > 0 {
		out.Deadlines = make([]*pb.Deadline, len(s.Deadlines))
		for i, d := range s.Deadlines {
			out.Deadlines[i] = &pb.Deadline{Id: d.ID, Seat: int32(d.Seat), At: d.At, Kind: d.Kind}
		}
	}
	return out
}

// StatusFromPB reads a status from the wire. Empty lists come back nil.
func StatusFromPB(s *pb.Status) sdk.Status {
	if s == nil {
		return sdk.Status{}
	}
	out := sdk.Status{Phase: s.Phase, Seats: int(s.Seats), Turn: int(s.Turn), Winner: int(s.Winner), Round: int(s.Round)}
	if len(s.Actors) > 0 {
		out.Actors = make([]int, len(s.Actors))
		for i, a := range s.Actors {
			out.Actors[i] = int(a)
		}
	}
	if len(s.Deadlines) > 0 {
		out.Deadlines = make([]sdk.Deadline, len(s.Deadlines))
		for i, d := range s.Deadlines {
			out.Deadlines[i] = sdk.Deadline{ID: d.Id, Seat: int(d.Seat), At: d.At, Kind: d.Kind}
		}
	}
	return out
}

// EventsToPB converts events for the wire. A card without a code is refused (as sdk.Card's JSON
// encoding refuses it); the zero Card (an empty slot) travels as 0.
func EventsToPB(events []sdk.Event) ([]*pb.Event, error) {
	if len(events) == 0 {
		return nil, nil
	}
	out := make([]*pb.Event, len(events))
	all := make([]pb.Event, len(events)) // one allocation for every event
	for i := range events {
		e := &events[i]
		pe := &all[i]
		pe.Name, pe.Seat, pe.Count, pe.Data, pe.Private = e.Name, int32(e.Seat), int32(e.Count), e.Data, e.Private
		if len(e.Cards) > 0 {
			pe.Cards = make([]uint32, len(e.Cards))
			for j, c := range e.Cards {
				if c != 0 && !c.Valid() {
					return nil, fmt.Errorf("event %d (%s): card %d has no code", i+1, e.Name, uint16(c))
				}
				pe.Cards[j] = uint32(c)
			}
		}
		out[i] = pe
	}
	return out, nil
}

// EventsFromPB reads what EventsToPB wrote; set tells an empty list (non-nil) from none (nil).
func EventsFromPB(events []*pb.Event, set bool) ([]sdk.Event, error) {
	if !set {
		return nil, nil
	}
	out := make([]sdk.Event, len(events))
	for i, pe := range events {
		e := &out[i]
		e.Name, e.Seat, e.Count, e.Private = pe.GetName(), int(pe.GetSeat()), int(pe.GetCount()), pe.GetPrivate()
		if len(pe.Data) > 0 {
			e.Data = pe.Data
		}
		if len(pe.Cards) > 0 {
			e.Cards = make([]sdk.Card, len(pe.Cards))
			for j, n := range pe.Cards {
				c := sdk.Card(n)
				if n > 0xffff || (c != 0 && !c.Valid()) {
					return nil, fmt.Errorf("decoding the step's events: event %d (%s): card number %d is no card", i+1, e.Name, n)
				}
				e.Cards[j] = c
			}
		}
	}
	return out, nil
}

// StepToPB converts a step for the wire.
func StepToPB(s *engine.Step) (*pb.StepResponse, error) {
	events, err := EventsToPB(s.Events)
	if err != nil {
		return nil, fmt.Errorf("encoding the step's events: %w", err)
	}
	var house []byte
	if s.House != nil {
		if house, err = json.Marshal(s.House); err != nil {
			return nil, fmt.Errorf("encoding the step's house-rule report: %w", err)
		}
	}
	return &pb.StepResponse{State: s.State, Status: StatusToPB(&s.Status), Views: s.Views, Spectator: s.Spectator,
		Events: events, EventsSet: s.Events != nil, Patches: s.Patches, SpectatorPatch: s.SpectatorPatch, HouseJson: house, Actions: s.Actions}, nil
}

// StepFromPB reads a step from the wire.
func StepFromPB(r *pb.StepResponse) (*engine.Step, error) {
	events, err := EventsFromPB(r.Events, r.EventsSet || len(r.Events) > 0)
	if err != nil {
		return nil, err
	}
	st := &engine.Step{State: r.State, Events: events, Status: StatusFromPB(r.Status), Views: nilIfEmpty(r.Views), Spectator: nilIfEmptyBytes(r.Spectator),
		Patches: nilIfEmpty(r.Patches), SpectatorPatch: nilIfEmptyBytes(r.SpectatorPatch), Actions: nilIfEmpty(r.Actions)}
	if len(r.HouseJson) > 0 {
		st.House = &engine.HouseReport{}
		if err := json.Unmarshal(r.HouseJson, st.House); err != nil {
			return nil, fmt.Errorf("decoding the step's house-rule report: %w", err)
		}
	}
	return st, nil
}

func nilIfEmpty(v [][]byte) [][]byte {
	if len(v) == 0 {
		return nil
	}
	return v
}

func nilIfEmptyBytes(b []byte) []byte {
	if len(b) == 0 {
		return nil
	}
	return b
}

// marshalOpt encodes v as JSON unless it is the zero of its kind (nil map, nil pointer, nil slice).
func marshalOpt(what string, v any, empty bool) ([]byte, error) {
	if empty {
		return nil, nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("encoding %s: %w", what, err)
	}
	return b, nil
}

// NewGameToPB converts a new-game request for the wire. Values that cannot be encoded are refused
// with the code of what they are (options, deal).
func NewGameToPB(r *engine.NewGameRequest) (*pb.NewGameRequest, error) {
	opts, err := marshalOpt("options", r.Options, r.Options == nil)
	if err != nil {
		return nil, &sdk.RuleError{Code: sdk.CodeBadOption, Reason: err.Error()}
	}
	rules, err := marshalOpt("house rules", r.HouseRules, r.HouseRules == nil)
	if err != nil {
		return nil, &sdk.RuleError{Code: sdk.CodeHouseRule, Reason: err.Error()}
	}
	deal, err := marshalOpt("deal", r.Deal, r.Deal == nil)
	if err != nil {
		return nil, &sdk.RuleError{Code: sdk.CodeBadDeal, Reason: err.Error()}
	}
	forced, err := marshalOpt("forced draws", r.Forced, r.Forced == nil)
	if err != nil {
		return nil, &sdk.RuleError{Code: sdk.CodeBadAction, Reason: err.Error()}
	}
	return &pb.NewGameRequest{
		Seats: int32(r.Seats), OptionsJson: opts, Seed: r.Seed, HouseRulesJson: rules, DealJson: deal,
		ForcedJson: forced, Opener: optInt(r.Opener), Now: r.Now, NoViews: r.NoViews, Game: r.Game, Trace: r.Trace,
	}, nil
}

// NewGameFromPB reads a new-game request from the wire; a field that does not decode is refused
// naming the field.
func NewGameFromPB(r *pb.NewGameRequest) (*engine.NewGameRequest, error) {
	out := &engine.NewGameRequest{Seats: int(r.Seats), Seed: r.Seed, Opener: fromOptInt(r.Opener), Now: r.Now, NoViews: r.NoViews, Game: r.Game, Trace: r.Trace}
	fields := []struct {
		name string
		code string
		b    []byte
		dst  any
	}{
		{"options", sdk.CodeBadOption, r.OptionsJson, &out.Options},
		{"house rules", sdk.CodeHouseRule, r.HouseRulesJson, &out.HouseRules},
		{"deal", sdk.CodeBadDeal, r.DealJson, &out.Deal},
		{"forced draws", sdk.CodeBadAction, r.ForcedJson, &out.Forced},
	}
	for _, f := range fields {
		if len(f.b) == 0 {
			continue
		}
		if err := json.Unmarshal(f.b, f.dst); err != nil {
			return nil, &sdk.RuleError{Code: f.code, Reason: fmt.Sprintf("decoding the new game's %s: %v", f.name, err)}
		}
	}
	return out, nil
}

// DescriptionFromJSON decodes a description and gives option defaults back their Go types (JSON
// reads every number as float64; an int option's default is an int).
func DescriptionFromJSON(b []byte) (*engine.Description, error) {
	var d engine.Description
	if err := json.Unmarshal(b, &d); err != nil {
		return nil, fmt.Errorf("decoding the plugin's description: %w", err)
	}
	for i, o := range d.Options {
		if f, ok := o.Default.(float64); ok && o.Type == sdk.OptionInt && f == math.Trunc(f) {
			d.Options[i].Default = int(f)
		}
	}
	return &d, nil
}

// ValueToPB converts one observation value, keeping its Go type where the scenario format uses
// it and falling back to JSON for anything else.
func ValueToPB(v any) (*pb.Value, error) {
	switch x := v.(type) {
	case nil:
		return &pb.Value{Kind: &pb.Value_Null{Null: true}}, nil
	case int:
		return &pb.Value{Kind: &pb.Value_Int{Int: int64(x)}}, nil
	case bool:
		return &pb.Value{Kind: &pb.Value_Bool{Bool: x}}, nil
	case string:
		return &pb.Value{Kind: &pb.Value_Str{Str: x}}, nil
	case []string:
		return &pb.Value{Kind: &pb.Value_Strs{Strs: &pb.Strings{Items: x}}}, nil
	case []int:
		items := make([]int64, len(x))
		for i, n := range x {
			items[i] = int64(n)
		}
		return &pb.Value{Kind: &pb.Value_Ints{Ints: &pb.Ints{Items: items}}}, nil
	case [][]string:
		items := make([]*pb.Strings, len(x))
		for i, s := range x {
			items[i] = &pb.Strings{Items: s}
		}
		return &pb.Value{Kind: &pb.Value_StrLists{StrLists: &pb.StringLists{Items: items}}}, nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return &pb.Value{Kind: &pb.Value_Json{Json: b}}, nil
}

// ValueFromPB reads one observation value. Lists come back non-nil (possibly empty).
func ValueFromPB(v *pb.Value) (any, error) {
	switch k := v.GetKind().(type) {
	case nil, *pb.Value_Null:
		return nil, nil
	case *pb.Value_Int:
		return int(k.Int), nil
	case *pb.Value_Bool:
		return k.Bool, nil
	case *pb.Value_Str:
		return k.Str, nil
	case *pb.Value_Strs:
		return append([]string{}, k.Strs.GetItems()...), nil
	case *pb.Value_Ints:
		out := make([]int, len(k.Ints.GetItems()))
		for i, n := range k.Ints.GetItems() {
			out[i] = int(n)
		}
		return out, nil
	case *pb.Value_StrLists:
		out := make([][]string, len(k.StrLists.GetItems()))
		for i, s := range k.StrLists.GetItems() {
			out[i] = append([]string{}, s.GetItems()...)
		}
		return out, nil
	case *pb.Value_Json:
		d := json.NewDecoder(bytes.NewReader(k.Json))
		d.UseNumber()
		var x any
		if err := d.Decode(&x); err != nil {
			return nil, err
		}
		return wholeNumbers(x), nil
	}
	return nil, fmt.Errorf("unknown value kind %T", v.GetKind())
}

// InspectionToPB converts an inspection for the wire.
func InspectionToPB(in *engine.Inspection) (*pb.InspectResponse, error) {
	out := &pb.InspectResponse{Status: StatusToPB(&in.Status), Views: in.Views, Spectator: in.Spectator}
	if in.Observation != nil {
		out.Observation = make(map[string]*pb.Value, len(in.Observation))
		for k, v := range in.Observation {
			pv, err := ValueToPB(v)
			if err != nil {
				return nil, fmt.Errorf("encoding observation %q: %w", k, err)
			}
			out.Observation[k] = pv
		}
	}
	cards, err := cardCodes("the game's cards", in.Cards)
	if err != nil {
		return nil, err
	}
	out.Cards = cards
	return out, nil
}

// InspectionFromPB reads an inspection from the wire.
func InspectionFromPB(r *pb.InspectResponse) (*engine.Inspection, error) {
	out := &engine.Inspection{Status: StatusFromPB(r.Status), Views: nilIfEmpty(r.Views), Spectator: nilIfEmptyBytes(r.Spectator)}
	if r.Observation != nil {
		out.Observation = make(sdk.Observation, len(r.Observation))
		for k, v := range r.Observation {
			x, err := ValueFromPB(v)
			if err != nil {
				return nil, fmt.Errorf("decoding observation %q: %w", k, err)
			}
			out.Observation[k] = x
		}
	}
	cards, err := parseCodes("the game's cards", r.Cards)
	if err != nil {
		return nil, err
	}
	out.Cards = cards
	return out, nil
}

// wholeNumbers turns the numbers of a decoded JSON value into int when whole (as observations
// write counts) and float64 otherwise, in nested lists and maps too.
func wholeNumbers(v any) any {
	switch x := v.(type) {
	case json.Number:
		if i, err := x.Int64(); err == nil {
			return int(i)
		}
		f, _ := x.Float64()
		return f
	case []any:
		for i := range x {
			x[i] = wholeNumbers(x[i])
		}
	case map[string]any:
		for k := range x {
			x[k] = wholeNumbers(x[k])
		}
	}
	return v
}
