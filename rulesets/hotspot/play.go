package hotspot

import (
	"fmt"
	"slices"
	"strings"

	"cardhouse/sdk"
)

// Ranks with a power (the rule document's "Power cards", "Queen", "2s": docs/rulings/hotspot.md).
const (
	rankAce   = 1
	rankTwo   = 2
	rankJack  = 11
	rankQueen = 12
	rankKing  = 13
)

// Refusal codes of plays, beyond the SDK's own.
const (
	CodeNoMatch       = "no_match"        // the card matches neither suit nor rank
	CodePenalty       = "penalty_pending" // a pickup penalty is pending: only 2s (H-6)
	CodeNotAGroup     = "not_a_group"     // two cards of one rank are not a group (H-7)
	CodeNoExtraGo     = "no_extra_go"     // only a Queen lets more cards follow in one action
	CodeNeedSuit      = "need_suit"       // an Ace needs a suit named in the same action (H-5)
	CodeBadSuit       = "bad_suit"        // a suit that is not S, H, D or C, or a suit without an Ace
	CodeMustPlayDrawn = "must_play_drawn" // play_after_draw: only the drawn card may be played (H-4)
)

// Position is everything that decides whether a play is legal: the top card, the active suit, a
// pending pickup penalty, a Queen's extra go and a card just drawn under play_after_draw. A seat's
// view holds all of it ([PositionOf] reads it back), so a client or a bot can check a selection
// with [CheckPlay] without the state. Top is 0 when the pile is empty (anything may start then).
type Position struct {
	Top     sdk.Card `json:"top,omitempty"`
	Suit    sdk.Suit `json:"suit,omitempty"`
	Penalty int      `json:"penalty,omitempty"`
	ExtraGo bool     `json:"extra_go,omitempty"`
	// Drawn, when set, is the card the seat just drew under play_after_draw: a play must start
	// with it.
	Drawn sdk.Card `json:"drawn,omitempty"`
}

// Legal reports whether card c may start a play (or be the Queen's follow-up) in position p:
// under a penalty only a 2 (H-6); otherwise an Ace on anything (H-5), or a card of the active suit
// or of the top card's rank. It does not look at Drawn.
func (p Position) Legal(c sdk.Card) bool {
	switch {
	case !c.IsFrench() || c == sdk.Joker:
		return false
	case p.Penalty > 0:
		return c.Rank() == rankTwo
	case c.Rank() == rankAce || p.Top == 0:
		return true
	}
	return c.Suit() == p.Suit || c.Rank() == p.Top.Rank()
}

// PlayCheck is the verdict of [CheckPlay] on a selection of cards.
type PlayCheck struct {
	// Legal is true when the selection may be sent as it is (naming a suit when NeedSuit and not
	// Wins).
	Legal bool `json:"legal"`
	// Incomplete is true when the selection is not legal yet but a held card completes it: it
	// ends in two cards of one rank and the hand holds a third (H-7).
	Incomplete bool `json:"incomplete,omitempty"`
	// NeedSuit is true when the play ends in an Ace: the action names the active suit (H-5).
	NeedSuit bool `json:"need_suit,omitempty"`
	// Wins is true when the selection is the whole hand: the player goes out.
	Wins bool `json:"wins,omitempty"`
	// Code and Reason say why the selection is neither legal nor incomplete.
	Code   string `json:"code,omitempty"`
	Reason string `json:"reason,omitempty"`
	// Next lists the held cards (one per code) that may be added to the selection and leave it
	// legal or incomplete: the cards a client should let the player pick next.
	Next []sdk.Card `json:"next,omitempty"`
	// After is the position once the selection is played (when Legal); an Ace's suit is the one
	// it shows until a suit is named.
	After Position `json:"after"`
}

// CheckPlay checks a selection of cards, in the order they would be laid, against position p and
// the hand that holds them. It is pure and cheap, so a client can call it on every click: a
// selection is a sequence of plays, each a single card or a group of three or more of one rank
// whose first card is legal (H-7); only a Queen lets another play follow in the same action
// (H-9), and every play must be legal where it lands. An empty selection is incomplete, and its
// Next lists the cards that may start a play.
func CheckPlay(p Position, hand, cards []sdk.Card) PlayCheck {
	pc := checkOnly(p, hand, cards)
	if !pc.Legal && !pc.Incomplete && len(cards) > 0 {
		return pc
	}
	rest, _ := sdk.RemoveCards(hand, cards)
	seen := map[sdk.Card]bool{}
	ext := append(slices.Clone(cards), 0)
	for _, c := range rest {
		if seen[c] {
			continue
		}
		seen[c] = true
		ext[len(ext)-1] = c
		if e := checkOnly(p, hand, ext); e.Legal || e.Incomplete {
			pc.Next = append(pc.Next, c)
		}
	}
	slices.Sort(pc.Next)
	return pc
}

func checkOnly(p Position, hand, cards []sdk.Card) PlayCheck {
	if len(cards) == 0 {
		return PlayCheck{Incomplete: true, Code: sdk.CodeBadAction, Reason: "choose the cards to play", After: p}
	}
	pl, err := planPlay(p, hand, cards)
	if err != nil {
		return PlayCheck{Incomplete: pl.incomplete, Code: err.Code, Reason: err.Reason, After: p}
	}
	return PlayCheck{Legal: true, NeedSuit: pl.needSuit, Wins: len(cards) == len(hand), After: pl.after}
}

// plan is a checked play: its segments (single cards or groups) in order and the position after.
type plan struct {
	segs       [][]sdk.Card
	after      Position
	needSuit   bool
	incomplete bool
}

// last is the last segment: the one whose power acts.
func (pl plan) last() []sdk.Card { return pl.segs[len(pl.segs)-1] }

// planPlay splits cards into plays and checks each where it lands. On a refusal, plan.incomplete
// says whether one more held card would have made it legal.
func planPlay(p Position, hand, cards []sdk.Card) (plan, *sdk.RuleError) {
	var pl plan
	if len(cards) == 0 {
		return pl, refusal(sdk.CodeBadAction, "a play needs at least one card")
	}
	for _, c := range cards {
		if !c.IsFrench() || c == sdk.Joker {
			return pl, refusal(sdk.CodeUnknownCard, "%s is not a card of this game", c)
		}
	}
	rest, ok := sdk.RemoveCards(hand, cards)
	if !ok {
		return pl, refusal(sdk.CodeNotHeld, "you do not hold %s", missing(hand, cards))
	}
	if p.Drawn != 0 && cards[0] != p.Drawn {
		return pl, refusal(CodeMustPlayDrawn, "after drawing you may play only the card you drew (%s), or pass", p.Drawn)
	}
	cur := p
	for i := 0; i < len(cards); {
		c := cards[i]
		if i > 0 && !cur.ExtraGo {
			return pl, refusal(CodeNoExtraGo, "only a Queen lets another card follow in the same play: nothing may follow %s", cards[i-1])
		}
		if !cur.Legal(c) {
			return pl, noMatch(cur, c)
		}
		j := i + 1
		if c.Rank() != rankQueen { // Queens go one by one: each grants the next extra go (H-9)
			for j < len(cards) && cards[j].Rank() == c.Rank() {
				j++
			}
		}
		if j-i == 2 {
			pl.incomplete = j == len(cards) && slices.ContainsFunc(rest, func(r sdk.Card) bool { return r.Rank() == c.Rank() })
			return pl, ruled("H-7", CodeNotAGroup, "%s and %s are two cards of one rank: a group needs three or more", cards[i], cards[i+1])
		}
		seg := cards[i:j]
		cur.Top = seg[len(seg)-1]
		cur.Suit = cur.Top.Suit()
		cur.ExtraGo = c.Rank() == rankQueen
		cur.Drawn = 0
		if c.Rank() == rankTwo {
			cur.Penalty += 2 * len(seg) // every 2 of a group counts
		}
		pl.segs = append(pl.segs, seg)
		i = j
	}
	pl.after = cur
	pl.needSuit = cur.Top.Rank() == rankAce
	return pl, nil
}

func noMatch(p Position, c sdk.Card) *sdk.RuleError {
	if p.Penalty > 0 {
		return ruled("H-6", CodePenalty, "a pickup penalty of %d is pending: play a 2 or draw the %d cards", p.Penalty, p.Penalty)
	}
	return refusal(CodeNoMatch, "%s matches neither the active suit %s nor the rank of %s", c, suitName(p.Suit), p.Top)
}

func refusal(code, format string, args ...any) *sdk.RuleError {
	return &sdk.RuleError{Code: code, Reason: fmt.Sprintf(format, args...)}
}

// ruled is refusal for a refusal a ruling states: its id ("H-7") goes in RuleError.Ruling, out
// of the reason players read.
func ruled(ruling, code, format string, args ...any) *sdk.RuleError {
	re := refusal(code, format, args...)
	re.Ruling = ruling
	return re
}

// missing names the cards of want that hand does not hold.
func missing(hand, want []sdk.Card) string {
	left := sdk.CountCards(hand)
	var out []string
	for _, c := range want {
		if left[c] == 0 {
			out = append(out, c.String())
			continue
		}
		left[c]--
	}
	return strings.Join(out, ", ")
}

func suitName(s sdk.Suit) string {
	switch s {
	case sdk.Spades:
		return "Spades"
	case sdk.Hearts:
		return "Hearts"
	case sdk.Diamonds:
		return "Diamonds"
	case sdk.Clubs:
		return "Clubs"
	}
	return "(none)"
}

// ParseSuit reads a suit as an action names it: "S", "H", "D" or "C" in any case.
func ParseSuit(s string) (sdk.Suit, bool) {
	if len(s) != 1 {
		return 0, false
	}
	u := sdk.Suit(strings.ToUpper(s)[0])
	return u, slices.Contains(sdk.Suits, u)
}

func isPower(c sdk.Card) bool {
	switch c.Rank() {
	case rankAce, rankTwo, rankJack, rankQueen, rankKing:
		return true
	}
	return false
}
