package scenario

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"cardhouse/sdk"

	"gopkg.in/yaml.v3"
)

// ParseError is a scenario file that cannot be read: its message names the file, the step (when
// the fault is inside one), the field and the YAML line when known, as in
// `queen.yaml: step 3: play: unknown card code "QX" (line 12)`.
type ParseError struct {
	// File is the path as given to ParseFile (or the name given to Parse).
	File string
	// Step is the step number counting from 1, or 0 when the fault is outside the steps.
	Step int
	// Field is the path to the faulty field inside the file or step ("play", "deal: hands: seat 1").
	Field string
	// Line is the YAML line of the fault, 0 when unknown.
	Line int
	// Msg says what is wrong.
	Msg string
}

func (e *ParseError) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Step > 0 {
		fmt.Fprintf(&b, ": step %d", e.Step)
	}
	if e.Field != "" {
		b.WriteString(": " + e.Field)
	}
	b.WriteString(": " + e.Msg)
	if e.Line > 0 {
		fmt.Fprintf(&b, " (line %d)", e.Line)
	}
	return b.String()
}

// ParseFile reads and parses the scenario at path; house-rule paths are relative to its folder.
// A file that cannot be read or parsed is a *ParseError.
func ParseFile(path string) (*Scenario, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, &ParseError{File: path, Msg: readMsg(err)}
	}
	s, err := Parse(path, data)
	if err != nil {
		return nil, err
	}
	s.Dir = filepath.Dir(path)
	return s, nil
}

func readMsg(err error) string {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return "cannot read: " + pe.Err.Error()
	}
	return "cannot read: " + err.Error()
}

// Parse parses a scenario strictly: unknown keys, wrong types, unknown card codes, a step with no
// or two actions are *ParseError naming file (the name given), step and field.
func Parse(file string, data []byte) (*Scenario, error) {
	p := &parser{file: file}
	s, err := p.parse(data)
	if err != nil {
		return nil, err
	}
	return s, nil
}

type parser struct {
	file string
	step int
}

// fail builds a *ParseError at node n (which may be nil).
func (p *parser) fail(n *yaml.Node, field, format string, args ...any) error {
	e := &ParseError{File: p.file, Step: p.step, Field: field, Msg: fmt.Sprintf(format, args...)}
	if n != nil {
		e.Line = n.Line
	}
	return e
}

func resolve(n *yaml.Node) *yaml.Node {
	for n != nil && n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	return n
}

func kindName(n *yaml.Node) string {
	n = resolve(n)
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		if n.Tag == "!!null" {
			return "null"
		}
		return fmt.Sprintf("%q", n.Value)
	}
	return "nothing"
}

// entry is one key of a mapping with its value node.
type entry struct {
	key   string
	keyN  *yaml.Node
	value *yaml.Node
}

// mapping returns the entries of a mapping node, refusing duplicates and non-string keys.
func (p *parser) mapping(n *yaml.Node, field, want string) ([]entry, error) {
	n = resolve(n)
	if n.Kind != yaml.MappingNode {
		return nil, p.fail(n, field, "want %s, got %s", want, kindName(n))
	}
	seen := map[string]bool{}
	var out []entry
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := resolve(n.Content[i]), resolve(n.Content[i+1])
		if k.Kind != yaml.ScalarNode {
			return nil, p.fail(k, field, "keys must be words, got %s", kindName(k))
		}
		if k.Tag == "!!merge" {
			return nil, p.fail(k, field, "merge keys (<<) are not supported")
		}
		if seen[k.Value] {
			return nil, p.fail(k, join(field, k.Value), "given twice")
		}
		seen[k.Value] = true
		out = append(out, entry{key: k.Value, keyN: k, value: v})
	}
	return out, nil
}

func join(a, b string) string {
	if a == "" {
		return b
	}
	return a + ": " + b
}

func (p *parser) scalar(n *yaml.Node, field, want string) (*yaml.Node, error) {
	n = resolve(n)
	if n.Kind != yaml.ScalarNode || n.Tag == "!!null" {
		return nil, p.fail(n, field, "want %s, got %s", want, kindName(n))
	}
	return n, nil
}

func (p *parser) integer(n *yaml.Node, field, want string) (int, error) {
	s, err := p.scalar(n, field, want)
	if err != nil {
		return 0, err
	}
	var v int
	if s.Tag != "!!int" || s.Decode(&v) != nil {
		return 0, p.fail(s, field, "want %s, got %s", want, kindName(s))
	}
	return v, nil
}

func (p *parser) seat(n *yaml.Node, field string) (int, error) {
	v, err := p.integer(n, field, "a seat number (0, 1, ...)")
	if err != nil {
		return 0, err
	}
	if v < 0 {
		return 0, p.fail(n, field, "want a seat number (0, 1, ...), got %d", v)
	}
	return v, nil
}

// seatRef reads a seat as an action's Target.
func (p *parser) seatRef(n *yaml.Node, field string) (*int, error) {
	v, err := p.seat(n, field)
	if err != nil {
		return nil, err
	}
	return &v, nil
}

// position reads a position from 0 as an action's Index.
func (p *parser) position(n *yaml.Node, field string) (*int, error) {
	v, err := p.integer(n, field, "a position (0, 1, 2)")
	if err != nil {
		return nil, err
	}
	if v < 0 {
		return nil, p.fail(n, field, "want a position (0, 1, 2), got %d", v)
	}
	return &v, nil
}

func (p *parser) boolean(n *yaml.Node, field string) (bool, error) {
	s, err := p.scalar(n, field, "true or false")
	if err != nil {
		return false, err
	}
	var v bool
	if s.Tag != "!!bool" || s.Decode(&v) != nil {
		return false, p.fail(s, field, "want true or false, got %s", kindName(s))
	}
	return v, nil
}

// isTrue reads a flag action (`draw: true`): only true makes sense.
func (p *parser) isTrue(n *yaml.Node, field string) error {
	v, err := p.boolean(n, field)
	if err != nil {
		return err
	}
	if !v {
		return p.fail(n, field, "want true (leave the step out to not %s)", field)
	}
	return nil
}

func (p *parser) str(n *yaml.Node, field, want string) (string, error) {
	s, err := p.scalar(n, field, want)
	if err != nil {
		return "", err
	}
	return s.Value, nil
}

func (p *parser) card(n *yaml.Node, field string) (sdk.Card, error) {
	s, err := p.scalar(n, field, "a card code")
	if err != nil {
		return 0, err
	}
	c, perr := sdk.ParseCard(s.Value)
	if perr != nil {
		return 0, p.fail(s, field, "unknown card code %q", s.Value)
	}
	return c, nil
}

func (p *parser) cards(n *yaml.Node, field string) ([]sdk.Card, error) {
	n = resolve(n)
	if n.Kind != yaml.SequenceNode {
		return nil, p.fail(n, field, "want a list of card codes, as [QH, 10S], got %s", kindName(n))
	}
	out := make([]sdk.Card, 0, len(n.Content))
	for _, item := range n.Content {
		c, err := p.card(item, field)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

// rows reads a list of card lists, one per seat.
func (p *parser) rows(n *yaml.Node, field string) ([][]sdk.Card, error) {
	n = resolve(n)
	if n.Kind != yaml.SequenceNode {
		return nil, p.fail(n, field, "want one list of card codes per seat, as [[QH, 3C], [5C]], got %s", kindName(n))
	}
	out := make([][]sdk.Card, 0, len(n.Content))
	for i, item := range n.Content {
		row, err := p.cards(item, fmt.Sprintf("%s: seat %d", field, i))
		if err != nil {
			return nil, err
		}
		out = append(out, row)
	}
	return out, nil
}

// value decodes any YAML value into plain Go values (nil, bool, int, float64, string, []any,
// map[string]any).
func (p *parser) value(n *yaml.Node, field string) (any, error) {
	n = resolve(n)
	switch n.Kind {
	case yaml.ScalarNode:
		var v any
		if err := n.Decode(&v); err != nil {
			return nil, p.fail(n, field, "%v", err)
		}
		return v, nil
	case yaml.SequenceNode:
		out := make([]any, 0, len(n.Content))
		for i, item := range n.Content {
			v, err := p.value(item, fmt.Sprintf("%s[%d]", field, i))
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, nil
	case yaml.MappingNode:
		es, err := p.mapping(n, field, "a mapping")
		if err != nil {
			return nil, err
		}
		out := make(map[string]any, len(es))
		for _, e := range es {
			v, err := p.value(e.value, join(field, e.key))
			if err != nil {
				return nil, err
			}
			out[e.key] = v
		}
		return out, nil
	}
	return nil, p.fail(n, field, "want a value, got nothing")
}

var topKeys = []string{"name", "ruleset", "seats", "options", "house_rules", "seed", "deal", "random", "steps"}

func (p *parser) parse(data []byte) (*Scenario, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, p.fail(nil, "", "empty file: want a mapping with %s", strings.Join(topKeys, ", "))
		}
		return nil, p.fail(nil, "", "not valid YAML: %v", err)
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); err == nil {
		return nil, p.fail(&extra, "", "holds more than one YAML document (one scenario per file)")
	} else if !errors.Is(err, io.EOF) {
		return nil, p.fail(nil, "", "not valid YAML: %v", err)
	}
	root := &doc
	if root.Kind == yaml.DocumentNode && len(root.Content) == 1 {
		root = root.Content[0]
	}
	es, err := p.mapping(root, "", "a mapping with "+strings.Join(topKeys, ", "))
	if err != nil {
		return nil, err
	}
	s := &Scenario{File: p.file}
	seen := map[string]bool{}
	for _, e := range es {
		seen[e.key] = true
		switch e.key {
		case "name":
			if s.Name, err = p.str(e.value, "name", "a name"); err != nil {
				return nil, err
			}
		case "ruleset":
			if s.Ruleset, err = p.str(e.value, "ruleset", "a ruleset id (the id its Info names)"); err != nil {
				return nil, err
			}
		case "seats":
			if s.Seats, err = p.integer(e.value, "seats", "a number of seats"); err != nil {
				return nil, err
			}
			if s.Seats < 1 {
				return nil, p.fail(e.value, "seats", "want a number of seats, got %d", s.Seats)
			}
		case "options":
			if err = p.options(s, e.value); err != nil {
				return nil, err
			}
		case "house_rules":
			if err = p.houseRules(s, e.value); err != nil {
				return nil, err
			}
		case "seed":
			sc, err := p.scalar(e.value, "seed", "a whole number")
			if err != nil {
				return nil, err
			}
			if sc.Tag != "!!int" || sc.Decode(&s.Seed) != nil {
				return nil, p.fail(sc, "seed", "want a whole number from 0 to %d, got %s", uint64(math.MaxUint64), kindName(sc))
			}
		case "deal":
			if s.Deal, err = p.deal(e.value); err != nil {
				return nil, err
			}
		case "random":
			if s.Random, err = p.random(e.value); err != nil {
				return nil, err
			}
		case "steps":
			if err = p.steps(s, e.value); err != nil {
				return nil, err
			}
		default:
			return nil, p.fail(e.keyN, e.key, "unknown key (a scenario has %s)", strings.Join(topKeys, ", "))
		}
	}
	for _, k := range []string{"ruleset", "seats", "steps"} {
		if !seen[k] {
			return nil, p.fail(root, k, "missing")
		}
	}
	if s.Name == "" {
		s.Name = strings.TrimSuffix(filepath.Base(p.file), filepath.Ext(p.file))
	}
	return s, nil
}

func (p *parser) options(s *Scenario, n *yaml.Node) error {
	if resolve(n).Tag == "!!null" {
		return nil
	}
	es, err := p.mapping(n, "options", "a mapping of option names to values, as {hand_size: 7}")
	if err != nil {
		return err
	}
	s.Options = make(map[string]any, len(es))
	for _, e := range es {
		v, err := p.value(e.value, "options: "+e.key)
		if err != nil {
			return err
		}
		s.Options[e.key] = v
	}
	return nil
}

func (p *parser) houseRules(s *Scenario, n *yaml.Node) error {
	n = resolve(n)
	if n.Kind != yaml.SequenceNode {
		return p.fail(n, "house_rules", "want a list of script paths, as [seven-skips.lua], got %s", kindName(n))
	}
	for i, item := range n.Content {
		path, err := p.str(item, fmt.Sprintf("house_rules[%d]", i), "a script path")
		if err != nil {
			return err
		}
		s.HouseRules = append(s.HouseRules, path)
	}
	return nil
}

var dealKeys = []string{"pile", "hands", "face_up", "face_down", "deck", "first", "rest"}

func (p *parser) deal(n *yaml.Node) (*sdk.Deal, error) {
	es, err := p.mapping(n, "deal", "a mapping with "+strings.Join(dealKeys, ", "))
	if err != nil {
		return nil, err
	}
	d := &sdk.Deal{}
	for _, e := range es {
		field := "deal: " + e.key
		switch e.key {
		case "pile":
			d.Pile, err = p.cards(e.value, field)
		case "deck":
			d.Deck, err = p.cards(e.value, field)
		case "hands":
			d.Hands, err = p.rows(e.value, field)
		case "face_up":
			d.FaceUp, err = p.rows(e.value, field)
		case "face_down":
			d.FaceDown, err = p.rows(e.value, field)
		case "first":
			var f int
			if f, err = p.seat(e.value, field); err == nil {
				d.First = &f
			}
		case "rest":
			if d.Rest, err = p.str(e.value, field, "deck or out"); err == nil && d.Rest != "deck" && d.Rest != "out" {
				err = p.fail(e.value, field, "want deck or out, got %q", d.Rest)
			}
		default:
			err = p.fail(e.keyN, field, "unknown key (a deal has %s)", strings.Join(dealKeys, ", "))
		}
		if err != nil {
			return nil, err
		}
	}
	return d, nil
}

func (p *parser) random(n *yaml.Node) (map[string][]string, error) {
	if resolve(n).Tag == "!!null" {
		return nil, nil
	}
	es, err := p.mapping(n, "random", "a mapping of draw labels to forced results, as {joker_effect: [gift, skip]}")
	if err != nil {
		return nil, err
	}
	out := make(map[string][]string, len(es))
	for _, e := range es {
		field := "random: " + e.key
		v := resolve(e.value)
		if v.Kind == yaml.ScalarNode && v.Tag != "!!null" {
			out[e.key] = []string{v.Value}
			continue
		}
		if v.Kind != yaml.SequenceNode {
			return nil, p.fail(v, field, "want a list of results, as [gift, skip], got %s", kindName(v))
		}
		vals := make([]string, 0, len(v.Content))
		for _, item := range v.Content {
			s, err := p.str(item, field, "a result (a name or a number)")
			if err != nil {
				return nil, err
			}
			vals = append(vals, s)
		}
		out[e.key] = vals
	}
	return out, nil
}

func (p *parser) steps(s *Scenario, n *yaml.Node) error {
	n = resolve(n)
	if n.Kind != yaml.SequenceNode {
		return p.fail(n, "steps", "want a list of steps, got %s", kindName(n))
	}
	for i, item := range n.Content {
		p.step = i + 1
		st, err := p.parseStep(item)
		if err != nil {
			return err
		}
		st.Number = i + 1
		s.Steps = append(s.Steps, st)
	}
	p.step = 0
	return nil
}

// actionKeys are the keys that make a step what it is; exactly one per step.
var actionKeys = []string{"play", "draw", "pass", "call", "catch", "pickup", "flip", "gift", "deal",
	"pass_cards", "bid", "discard", "knock", "layoff", "bot", "act", "wait", "expect"}

// modifierKeys go with an action: who acts, play's arguments, whether it must be refused.
var modifierKeys = []string{"seat", "suit", "color", "from", "reject"}

func isOneOf(k string, list []string) bool {
	for _, v := range list {
		if v == k {
			return true
		}
	}
	return false
}

func (p *parser) parseStep(n *yaml.Node) (Step, error) {
	var st Step
	es, err := p.mapping(n, "", "a mapping with one action ("+strings.Join(actionKeys, ", ")+")")
	if err != nil {
		return st, err
	}
	var act *entry
	mods := map[string]entry{}
	for i := range es {
		e := es[i]
		switch {
		case isOneOf(e.key, actionKeys):
			if act != nil {
				return st, p.fail(e.keyN, e.key, "a step has one action, this one also has %s", act.key)
			}
			act = &e
		case isOneOf(e.key, modifierKeys):
			mods[e.key] = e
		default:
			return st, p.fail(e.keyN, e.key, "unknown key (a step has one of %s, with %s)", strings.Join(actionKeys, ", "), strings.Join(modifierKeys, ", "))
		}
	}
	if act == nil {
		return st, p.fail(n, "", "no action: a step needs one of %s", strings.Join(actionKeys, ", "))
	}
	// Keys that make no sense with the action are errors, not silently ignored.
	allowed := map[string]bool{"seat": true, "reject": true}
	switch act.key {
	case "play", "act":
		allowed["suit"], allowed["color"], allowed["from"] = true, true, true
	case "wait", "expect":
		allowed = map[string]bool{}
	}
	for _, k := range modifierKeys {
		if e, ok := mods[k]; ok && !allowed[k] {
			if act.key == "wait" || act.key == "expect" {
				return st, p.fail(e.keyN, k, "not allowed with %s (a %s step stands alone)", act.key, act.key)
			}
			return st, p.fail(e.keyN, k, "not allowed with %s (only with play and act)", act.key)
		}
	}
	field := act.key
	switch act.key {
	case "wait":
		st.Kind = StepWait
		sc, err := p.scalar(act.value, field, "a number of seconds")
		if err != nil {
			return st, err
		}
		var sec float64
		if (sc.Tag != "!!int" && sc.Tag != "!!float") || sc.Decode(&sec) != nil || math.IsNaN(sec) || math.IsInf(sec, 0) {
			return st, p.fail(sc, field, "want a number of seconds, got %s", kindName(sc))
		}
		if sec < 0 {
			return st, p.fail(sc, field, "want a number of seconds from 0 on, got %g", sec)
		}
		st.WaitMS = int64(math.Round(sec * 1000))
		return st, nil
	case "expect":
		st.Kind = StepExpect
		st.Expect, err = p.expect(act.value)
		return st, err
	}

	st.Kind = StepAct
	st.Seat = sdk.Host
	if e, ok := mods["seat"]; ok {
		if st.Seat, err = p.seat(e.value, "seat"); err != nil {
			return st, err
		}
	} else if act.key != "deal" {
		return st, p.fail(n, "seat", "missing: %s needs the acting seat", act.key)
	}
	a := sdk.Action{Seat: st.Seat, Type: act.key}
	switch act.key {
	case "play":
		if a.Cards, err = p.cards(act.value, field); err == nil && len(a.Cards) == 0 {
			err = p.fail(act.value, field, "want at least one card")
		}
	case "pass", "call", "pickup":
		err = p.isTrue(act.value, field)
	case "draw":
		a.From, err = p.drawFrom(act.value, field)
	case "pass_cards":
		if a.Cards, err = p.cards(act.value, field); err == nil && len(a.Cards) == 0 {
			err = p.fail(act.value, field, "want the cards to pass, as [QS, AH, 2C]")
		}
	case "bid":
		a.Args, err = p.bid(act.value, field)
	case "discard", "knock":
		var c sdk.Card
		if c, err = p.card(act.value, field); err == nil {
			a.Cards = []sdk.Card{c}
		}
	case "layoff":
		err = p.layoff(act.value, &a)
	case "deal":
		// The host deals, whatever seat the step names.
		err = p.isTrue(act.value, field)
		st.Seat, a.Seat = sdk.Host, sdk.Host
	case "catch":
		a.Target, err = p.seatRef(act.value, field)
	case "flip":
		a.Index, err = p.position(act.value, field)
	case "gift":
		err = p.gift(act.value, &a)
	case "act":
		err = p.act(act.value, &a)
	case "bot":
		st.Kind = StepBot
		st.Bot, err = p.integer(act.value, field, "a bot level (1, 2, ...)")
	}
	if err != nil {
		return st, err
	}
	for _, k := range []string{"suit", "color", "from"} {
		e, ok := mods[k]
		if !ok {
			continue
		}
		v, err := p.str(e.value, k, "a word")
		if err != nil {
			return st, err
		}
		switch k {
		case "suit":
			a.Suit = v
		case "color":
			a.Color = v
		case "from":
			a.From = v
		}
	}
	if e, ok := mods["reject"]; ok {
		if st.Reject, err = p.reject(e.value); err != nil {
			return st, err
		}
	}
	st.Action = a
	return st, nil
}

// drawFrom reads draw's value: true (draw as the ruleset draws), or the pile to draw from,
// stock or discard (Gin Rummy).
func (p *parser) drawFrom(n *yaml.Node, field string) (string, error) {
	sc, err := p.scalar(n, field, "true, stock or discard")
	if err != nil {
		return "", err
	}
	if sc.Tag == "!!str" && (sc.Value == sdk.FromStock || sc.Value == sdk.FromDiscard) {
		return sc.Value, nil
	}
	if sc.Tag != "!!bool" {
		return "", p.fail(sc, field, "want true, stock or discard, got %s", kindName(sc))
	}
	return "", p.isTrue(n, field)
}

// bid reads a bid: a number of tricks from 0 to 13, nil or blind_nil (Spades). The bid goes to the
// ruleset as the action's choice, the way a client sends it.
func (p *parser) bid(n *yaml.Node, field string) (map[string]string, error) {
	sc, err := p.scalar(n, field, "a number of tricks from 0 to 13, nil or blind_nil")
	if err != nil {
		return nil, err
	}
	switch {
	case sc.Tag == "!!int":
		var k int
		if sc.Decode(&k) != nil || k < 0 || k > 13 {
			return nil, p.fail(sc, field, "want a number of tricks from 0 to 13, got %s", sc.Value)
		}
		return map[string]string{"choice": strconv.Itoa(k)}, nil
	case sc.Tag == "!!str" && (sc.Value == "nil" || sc.Value == "blind_nil"):
		return map[string]string{"choice": sc.Value}, nil
	}
	return nil, p.fail(sc, field, "want a number of tricks from 0 to 13, nil or blind_nil, got %q", sc.Value)
}

// layoff reads `layoff: {cards: [CARDS], meld: INDEX}`: the cards laid off onto the other
// player's meld number INDEX (as melds.N lists them).
func (p *parser) layoff(n *yaml.Node, a *sdk.Action) error {
	es, err := p.mapping(n, "layoff", "a mapping {cards: [CARDS], meld: INDEX}")
	if err != nil {
		return err
	}
	var haveMeld bool
	for _, e := range es {
		switch e.key {
		case "cards":
			if a.Cards, err = p.cards(e.value, "layoff: cards"); err == nil && len(a.Cards) == 0 {
				err = p.fail(e.value, "layoff: cards", "want at least one card")
			}
		case "meld":
			a.Index, err = p.position(e.value, "layoff: meld")
			haveMeld = true
		default:
			err = p.fail(e.keyN, "layoff: "+e.key, "unknown key (a layoff has cards and meld)")
		}
		if err != nil {
			return err
		}
	}
	if len(a.Cards) == 0 {
		return p.fail(n, "layoff: cards", "missing")
	}
	if !haveMeld {
		return p.fail(n, "layoff: meld", "missing")
	}
	return nil
}

func (p *parser) gift(n *yaml.Node, a *sdk.Action) error {
	es, err := p.mapping(n, "gift", "a mapping {card: CARD, to: SEAT}")
	if err != nil {
		return err
	}
	var haveCard, haveTo bool
	for _, e := range es {
		switch e.key {
		case "card":
			c, err := p.card(e.value, "gift: card")
			if err != nil {
				return err
			}
			a.Cards, haveCard = []sdk.Card{c}, true
		case "to":
			t, err := p.seatRef(e.value, "gift: to")
			if err != nil {
				return err
			}
			a.Target, haveTo = t, true
		default:
			return p.fail(e.keyN, "gift: "+e.key, "unknown key (a gift has card and to)")
		}
	}
	if !haveCard {
		return p.fail(n, "gift: card", "missing")
	}
	if !haveTo {
		return p.fail(n, "gift: to", "missing")
	}
	return nil
}

var actKeys = []string{"type", "cards", "target", "index", "args"}

// act reads the generic step `act: {type, cards, target, index, args}`: any action type a ruleset
// or house rule defines, with the fields of sdk.Action (suit, color and from go beside it, as with
// play). Only type is required.
func (p *parser) act(n *yaml.Node, a *sdk.Action) error {
	es, err := p.mapping(n, "act", "a mapping with "+strings.Join(actKeys, ", ")+", as {type: swap, target: 1}")
	if err != nil {
		return err
	}
	a.Type = ""
	for _, e := range es {
		field := "act: " + e.key
		switch e.key {
		case "type":
			if a.Type, err = p.str(e.value, field, "an action type, as swap"); err == nil && strings.TrimSpace(a.Type) == "" {
				err = p.fail(e.value, field, "want an action type, as swap, got an empty one")
			}
		case "cards":
			a.Cards, err = p.cards(e.value, field)
		case "target":
			a.Target, err = p.seatRef(e.value, field)
		case "index":
			a.Index, err = p.position(e.value, field)
		case "args":
			a.Args, err = p.args(e.value, field)
		default:
			err = p.fail(e.keyN, field, "unknown key (an act has %s; seat, suit, color, from and reject go beside it)", strings.Join(actKeys, ", "))
		}
		if err != nil {
			return err
		}
	}
	if a.Type == "" {
		return p.fail(n, "act: type", "missing: an act names its action type, as {type: swap}")
	}
	return nil
}

// args reads an act's `args`: a mapping of words to single values (a number or true is kept as
// written, "1" or "true", as sdk.Action.Args holds text).
func (p *parser) args(n *yaml.Node, field string) (map[string]string, error) {
	es, err := p.mapping(n, field, "a mapping of argument names to values, as {choice: H}")
	if err != nil {
		return nil, err
	}
	out := make(map[string]string, len(es))
	for _, e := range es {
		if e.key == "" {
			return nil, p.fail(e.keyN, field, "want argument names, got an empty one")
		}
		v, err := p.str(e.value, join(field, e.key), "a single value, as H or 2")
		if err != nil {
			return nil, err
		}
		out[e.key] = v
	}
	return out, nil
}

func (p *parser) reject(n *yaml.Node) (*Reject, error) {
	sc, err := p.scalar(n, "reject", "true or a text the reason must contain")
	if err != nil {
		return nil, err
	}
	switch sc.Tag {
	case "!!bool":
		var b bool
		if err := sc.Decode(&b); err != nil {
			return nil, p.fail(sc, "reject", "want true or a text the reason must contain, got %s", kindName(sc))
		}
		if !b {
			return nil, nil
		}
		return &Reject{}, nil
	case "!!str":
		return &Reject{Text: sc.Value}, nil
	}
	return nil, p.fail(sc, "reject", "want true or a text the reason must contain, got %s", kindName(sc))
}

func (p *parser) expect(n *yaml.Node) ([]Expectation, error) {
	es, err := p.mapping(n, "expect", "a mapping of observation keys to values, as {turn: 1}")
	if err != nil {
		return nil, err
	}
	out := make([]Expectation, 0, len(es))
	for _, e := range es {
		field := "expect: " + e.key
		if rest, ok := strings.CutPrefix(e.key, "hand."); ok {
			if i, err := strconv.Atoi(rest); err != nil || i < 0 {
				return nil, p.fail(e.keyN, field, "want hand.N with N a seat number, as hand.0")
			}
		}
		v, err := p.value(e.value, field)
		if err != nil {
			return nil, err
		}
		if e.key == "events" {
			if err := p.checkNames(e.value, field); err != nil {
				return nil, err
			}
		}
		out = append(out, Expectation{Key: e.key, Value: v})
	}
	return out, nil
}

func (p *parser) checkNames(n *yaml.Node, field string) error {
	n = resolve(n)
	if n.Kind != yaml.SequenceNode {
		return p.fail(n, field, "want a list of event names, as [played, turn], got %s", kindName(n))
	}
	for _, item := range n.Content {
		if _, err := p.str(item, field, "an event name"); err != nil {
			return err
		}
	}
	return nil
}
