package scenario

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"

	"cardhouse/sdk"
	"cardhouse/sdk/engine"
)

// Failure is a scenario that did not pass: Step is the step number counting from 1 (0 when the
// game could not start), What names what was checked, Want and Got the values compared (Got alone
// when there is nothing to want, as with a ruleset failure).
type Failure struct {
	Step int
	What string
	Want string
	Got  string
}

func (f *Failure) Error() string {
	var b strings.Builder
	if f.Step > 0 {
		fmt.Fprintf(&b, "step %d: ", f.Step)
	}
	b.WriteString(f.What)
	if f.Want != "" {
		b.WriteString(", want " + f.Want)
	}
	if f.Got != "" {
		b.WriteString(", got " + f.Got)
	}
	return b.String()
}

// maxFiringsPerWait bounds the deadlines one `wait` may fire: a ruleset that keeps setting a
// deadline already due would otherwise loop for ever. No real game comes near it.
const maxFiringsPerWait = 10000

// Run plays s against e and returns nil when every step passes, or the first *Failure.
// Refusals are recognised with errors.Is(err, sdk.ErrIllegal); any other error of the engine is a
// ruleset failure and fails the scenario.
func Run(ctx context.Context, e engine.Engine, s *Scenario) error {
	_, err := RunLogged(ctx, e, s)
	return err
}

// RunLogged is Run that also returns what the scenario's house rules printed (print, game.log),
// one line each, as "step K, RULE (HOOK): TEXT" (step 0 is the start), up to the step that failed.
func RunLogged(ctx context.Context, e engine.Engine, s *Scenario) ([]string, error) {
	r := &run{ctx: ctx, e: e, s: s}
	err := r.play()
	return r.log, err
}

type run struct {
	ctx    context.Context
	e      engine.Engine
	s      *Scenario
	state  []byte
	status sdk.Status
	clock  int64
	start  []sdk.Card
	// events are the names of the events the last accepted action (or wait) produced.
	events []string
	// step is the number of the step being played (0: the start); log is what the house rules
	// printed so far.
	step int
	log  []string
}

func (r *run) play() error {
	req := &engine.NewGameRequest{
		Seats: r.s.Seats, Options: r.s.Options, Seed: r.s.Seed, Deal: r.s.Deal,
		Forced: r.s.Random, Now: 0, NoViews: true,
	}
	for _, path := range r.s.HouseRules {
		full := path
		if !filepath.IsAbs(full) {
			full = filepath.Join(r.s.Dir, path)
		}
		src, err := os.ReadFile(full)
		if err != nil {
			return &Failure{What: fmt.Sprintf("house_rules: %s", path), Got: readMsg(err)}
		}
		base := filepath.Base(path)
		req.HouseRules = append(req.HouseRules, sdk.HouseRule{
			Name: strings.TrimSuffix(base, filepath.Ext(base)), Version: 1, Source: string(src),
		})
	}
	st, err := r.e.NewGame(r.ctx, req)
	if err != nil {
		if re, ok := sdk.AsRefusal(err); ok {
			return &Failure{What: "start", Want: "a game", Got: "refused: " + re.Reason}
		}
		return &Failure{What: "start", Got: err.Error()}
	}
	r.accept(st)
	in, err := r.inspect(0)
	if err != nil {
		return err
	}
	r.start = in.Cards
	for i := range r.s.Steps {
		step := &r.s.Steps[i]
		if err := r.ctx.Err(); err != nil {
			return &Failure{Step: step.Number, What: "run", Got: err.Error()}
		}
		r.step = step.Number
		if err := r.do(step); err != nil {
			return err
		}
		in, err := r.inspect(step.Number)
		if err != nil {
			return err
		}
		if diff := sdk.CardDiff(r.start, in.Cards); diff != "" {
			return &Failure{Step: step.Number, What: "cards after " + step.Describe(),
				Want: fmt.Sprintf("the same %d cards", len(r.start)), Got: diff}
		}
	}
	return nil
}

func (r *run) accept(st *engine.Step) {
	r.state, r.status = st.State, st.Status
	if st.House != nil {
		for _, l := range st.House.Log {
			r.log = append(r.log, fmt.Sprintf("step %d, %s (%s): %s", r.step, l.Rule, l.Hook, l.Text))
		}
	}
	r.events = r.events[:0]
	for _, ev := range st.Events {
		r.events = append(r.events, ev.Name)
	}
}

func (r *run) inspect(step int) (*engine.Inspection, error) {
	in, err := r.e.Inspect(r.ctx, &engine.InspectRequest{State: r.state})
	if err != nil {
		return nil, &Failure{Step: step, What: "inspect", Got: err.Error()}
	}
	return in, nil
}

func (r *run) do(step *Step) error {
	switch step.Kind {
	case StepWait:
		return r.wait(step)
	case StepExpect:
		return r.expect(step)
	case StepBot:
		ans, err := r.e.Bot(r.ctx, &engine.BotCall{State: r.state, Seat: step.Seat, Level: step.Bot, Seed: r.botSeed(step.Number)})
		if err != nil {
			return &Failure{Step: step.Number, What: step.Describe(), Want: "an action", Got: err.Error()}
		}
		if ans.Action == nil {
			return &Failure{Step: step.Number, What: step.Describe(), Want: "an action", Got: "nothing"}
		}
		a := *ans.Action
		a.Seat = step.Seat
		return r.act(step, a, fmt.Sprintf("%s (%s)", step.Describe(), DescribeAction(a)))
	}
	return r.act(step, step.Action, step.Describe())
}

// botSeed gives each bot step its own deterministic seed.
func (r *run) botSeed(step int) uint64 {
	return r.s.Seed ^ (uint64(step) * 0x9e3779b97f4a7c15)
}

func (r *run) act(step *Step, a sdk.Action, what string) error {
	var before *engine.Inspection
	if step.Reject != nil {
		in, err := r.inspect(step.Number)
		if err != nil {
			return err
		}
		before = in
	}
	st, err := r.e.Act(r.ctx, &engine.ActRequest{State: r.state, Action: a, Now: r.clock, NoViews: true})
	switch {
	case err == nil && step.Reject == nil:
		r.accept(st)
		return nil
	case err == nil:
		return &Failure{Step: step.Number, What: what, Want: "refused", Got: "accepted"}
	case !errors.Is(err, sdk.ErrIllegal):
		return &Failure{Step: step.Number, What: what, Got: err.Error()}
	case step.Reject == nil:
		return &Failure{Step: step.Number, What: what, Want: "accepted", Got: "refused: " + err.Error()}
	}
	// A refusal, as wanted: the reason, then the game as it was (the old bytes are kept; the
	// ruleset must read them the same as before).
	reason := err.Error()
	if re, ok := sdk.AsRefusal(err); ok {
		reason = re.Reason
	}
	if strings.TrimSpace(reason) == "" {
		return &Failure{Step: step.Number, What: what + ": refusal reason", Want: "a reason", Got: "an empty one"}
	}
	if step.Reject.Text != "" && !strings.Contains(strings.ToLower(reason), strings.ToLower(step.Reject.Text)) {
		return &Failure{Step: step.Number, What: what + ": refusal reason", Want: fmt.Sprintf("one containing %q", step.Reject.Text), Got: fmt.Sprintf("%q", reason)}
	}
	after, err := r.inspect(step.Number)
	if err != nil {
		return err
	}
	if !reflect.DeepEqual(plain(before.Observation), plain(after.Observation)) || !reflect.DeepEqual(before.Status, after.Status) {
		return &Failure{Step: step.Number, What: what + ": game after the refusal", Want: "as before", Got: "changed"}
	}
	return nil
}

func (r *run) wait(step *Step) error {
	target := r.clock + step.WaitMS
	var events []string
	for n := 0; ; n++ {
		due := dueDeadlines(r.status.Deadlines, target)
		if len(due) == 0 {
			break
		}
		if n >= maxFiringsPerWait {
			return &Failure{Step: step.Number, What: step.Describe(), Want: "deadlines that stop falling due",
				Got: fmt.Sprintf("%d firings, still due: %s", n, due[0].ID)}
		}
		d := due[0]
		if d.At > r.clock {
			r.clock = d.At
		}
		a := sdk.Action{Seat: sdk.Clock, Type: sdk.ActDeadline, Deadline: d.ID}
		st, err := r.e.Act(r.ctx, &engine.ActRequest{State: r.state, Action: a, Now: r.clock, NoViews: true})
		if err != nil {
			return &Failure{Step: step.Number, What: fmt.Sprintf("%s: deadline %s at %dms", step.Describe(), d.ID, d.At),
				Want: "accepted", Got: err.Error()}
		}
		r.accept(st)
		events = append(events, r.events...)
	}
	r.clock = target
	r.events = events
	return nil
}

// dueDeadlines returns the deadlines due at or before t, earliest first (ties in listed order).
func dueDeadlines(ds []sdk.Deadline, t int64) []sdk.Deadline {
	var due []sdk.Deadline
	for _, d := range ds {
		if d.At <= t {
			due = append(due, d)
		}
	}
	sort.SliceStable(due, func(i, j int) bool { return due[i].At < due[j].At })
	return due
}

func (r *run) expect(step *Step) error {
	in, err := r.inspect(step.Number)
	if err != nil {
		return err
	}
	obs := plain(in.Observation)
	obsMap, _ := obs.(map[string]any)
	for _, x := range step.Expect {
		if x.Key == "events" {
			want := plain(x.Value).([]any)
			if !subsequence(want, r.events) {
				return &Failure{Step: step.Number, What: "events", Want: format(want) + " in this order", Got: format(stringsToAny(r.events))}
			}
			continue
		}
		got, ok, why := lookup(obsMap, x.Key)
		if !ok {
			return &Failure{Step: step.Number, What: x.Key, Want: format(plain(x.Value)), Got: why}
		}
		want := plain(x.Value)
		if !match(modeOf(x.Key), want, got) {
			return &Failure{Step: step.Number, What: x.Key, Want: format(want), Got: format(got)}
		}
	}
	return nil
}
