package sdk

import (
	"fmt"
	"slices"
	"strings"
)

// Card is one playing card. Its code (String) is the card code of the scenario format: French
// cards "QH", "10S", "JK"; Last Card cards "R7", "GS", "BR", "Y+2", "W", "W+4". Two copies of a card
// (two decks) are equal Cards: a card's identity is its code. The zero Card is no card.
type Card uint16

// Suit is a French suit: 'S', 'H', 'D' or 'C'.
type Suit byte

// The four French suits, in the order of the card codes.
const (
	Spades   Suit = 'S'
	Hearts   Suit = 'H'
	Diamonds Suit = 'D'
	Clubs    Suit = 'C'
)

// Suits lists the French suits in code order.
var Suits = []Suit{Spades, Hearts, Diamonds, Clubs}

// Color is a Last Card colour: 'R' red, 'Y' yellow, 'G' green, 'B' blue.
type Color byte

// The four Last Card colours.
const (
	Red    Color = 'R'
	Yellow Color = 'Y'
	Green  Color = 'G'
	Blue   Color = 'B'
)

// Colors lists the Last Card colours in code order.
var Colors = []Color{Red, Yellow, Green, Blue}

// Last Card values beyond the digits 0-9.
const (
	ValueSkip    = 10
	ValueReverse = 11
	ValueDrawTwo = 12
)

// Card number ranges. French cards are 1..52 (suit-major, Ace first), the Joker 53; Last Card cards
// are 64..115 (colour-major, values 0..12) and the two Jokers 116, 117. The gap keeps the families
// apart so a code never means two cards.
const (
	frenchBase      = 1
	Joker      Card = 53
	lcBase          = 64
	// Wild is Last Card's Joker ("W").
	Wild Card = lcBase + 52
	// WildDrawFour is Last Card's Joker Draw Four ("W+4").
	WildDrawFour Card = lcBase + 53
)

var rankCodes = [...]string{"", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"}
var lcValueCodes = [...]string{"0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "S", "R", "+2"}

func suitIndex(s Suit) int { return strings.IndexByte("SHDC", byte(s)) }

func colorIndex(c Color) int { return strings.IndexByte("RYGB", byte(c)) }

// French returns the French card of rank 1 (Ace) to 13 (King) and the given suit.
func French(rank int, s Suit) Card {
	i := suitIndex(s)
	if rank < 1 || rank > 13 || i < 0 {
		panic(fmt.Sprintf("sdk.French: no card of rank %d and suit %q", rank, s))
	}
	return Card(frenchBase + i*13 + rank - 1)
}

// LC returns the Last Card card of the colour and value (0-9, ValueSkip, ValueReverse, ValueDrawTwo).
func LC(c Color, value int) Card {
	i := colorIndex(c)
	if value < 0 || value > ValueDrawTwo || i < 0 {
		panic(fmt.Sprintf("sdk.LC: no card of colour %q and value %d", c, value))
	}
	return Card(lcBase + i*13 + value)
}

// IsFrench reports whether c is a French card or the French Joker.
func (c Card) IsFrench() bool { return c >= frenchBase && c <= Joker }

// IsColorCard reports whether c is a card of the coloured family (the UNO-like cards: four
// colours of 0-9, Skip, Reverse and Draw Two, and their two Jokers "W" and "W+4"), Jokers
// included. Last Card plays them; any variant of that family may.
func (c Card) IsColorCard() bool { return c >= lcBase && c <= WildDrawFour }

// Rank is a French card's rank, 1 (Ace) to 13 (King); 0 for a Joker or a non-French card.
func (c Card) Rank() int {
	if c < frenchBase || c >= Joker {
		return 0
	}
	return int(c-frenchBase)%13 + 1
}

// Suit is a French card's suit; 0 for a Joker or a non-French card.
func (c Card) Suit() Suit {
	if c < frenchBase || c >= Joker {
		return 0
	}
	return Suits[int(c-frenchBase)/13]
}

// Color is a Last Card card's colour; 0 for its Jokers and for non-Last Card cards.
func (c Card) Color() Color {
	if c < lcBase || c >= Wild {
		return 0
	}
	return Colors[int(c-lcBase)/13]
}

// Value is a Last Card card's value (0-9, ValueSkip, ValueReverse, ValueDrawTwo); -1 for its Jokers
// and for non-Last Card cards.
func (c Card) Value() int {
	if c < lcBase || c >= Wild {
		return -1
	}
	return int(c-lcBase) % 13
}

// Valid reports whether c is a card of a known family.
func (c Card) Valid() bool { return c.IsFrench() || c.IsColorCard() }

// RankCode is the rank part of the code: "A", "10", "K" for French cards, "JK" for the Joker;
// "7", "S", "+2" for Last Card cards, "W" and "W+4" for its Jokers. Views key card roles by it.
func (c Card) RankCode() string {
	switch {
	case c == Joker:
		return "JK"
	case c == Wild:
		return "W"
	case c == WildDrawFour:
		return "W+4"
	case c.IsFrench():
		return rankCodes[c.Rank()]
	case c.IsColorCard():
		return lcValueCodes[c.Value()]
	}
	return "?"
}

// String is the card's code.
func (c Card) String() string {
	if c <= WildDrawFour && codeOf[c] != "" {
		return codeOf[c]
	}
	return c.code()
}

func (c Card) code() string {
	switch {
	case c == Joker || c == Wild || c == WildDrawFour:
		return c.RankCode()
	case c.IsFrench():
		return rankCodes[c.Rank()] + string(rune(c.Suit()))
	case c.IsColorCard():
		return string(rune(c.Color())) + lcValueCodes[c.Value()]
	case c == 0:
		return "-"
	}
	return fmt.Sprintf("?%d", uint16(c))
}

// Every valid card's code and its JSON form, computed once: encoding a state or a view writes many
// cards, so this path must not allocate.
var (
	codeOf     [WildDrawFour + 1]string
	textOf     [WildDrawFour + 1][]byte
	cardByCode = map[string]Card{}
)

func init() {
	for c := Card(0); c <= WildDrawFour; c++ {
		if c.Valid() {
			codeOf[c] = c.code()
			textOf[c] = []byte(codeOf[c])
			cardByCode[codeOf[c]] = c
		}
	}
}

// ParseCard reads a card code, French or Last Card, in any letter case.
func ParseCard(code string) (Card, error) {
	if c, ok := cardByCode[code]; ok {
		return c, nil
	}
	s := strings.ToUpper(strings.TrimSpace(code))
	switch s {
	case "JK":
		return Joker, nil
	case "W":
		return Wild, nil
	case "W+4":
		return WildDrawFour, nil
	}
	if len(s) >= 2 {
		if ci := colorIndex(Color(s[0])); ci >= 0 {
			if v := slices.Index(lcValueCodes[:], s[1:]); v >= 0 {
				return LC(Color(s[0]), v), nil
			}
		}
		if si := suitIndex(Suit(s[len(s)-1])); si >= 0 {
			if r := slices.Index(rankCodes[:], s[:len(s)-1]); r >= 1 {
				return French(r, Suit(s[len(s)-1])), nil
			}
		}
	}
	return 0, fmt.Errorf("unknown card code %q (French cards are rank then suit, as QH, 10S, AS, JK; Last Card cards are colour then value, as R7, GS, Y+2, W, W+4)", code)
}

// MustParseCards parses space- or comma-separated card codes and panics on a bad one. For tests
// and tables of constants.
func MustParseCards(codes string) []Card {
	cards, err := ParseCards(strings.FieldsFunc(codes, func(r rune) bool { return r == ' ' || r == ',' }))
	if err != nil {
		panic(err)
	}
	return cards
}

// ParseCards parses a list of card codes.
func ParseCards(codes []string) ([]Card, error) {
	out := make([]Card, 0, len(codes))
	for _, code := range codes {
		c, err := ParseCard(code)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

// MarshalText writes the card code, so cards are codes in JSON. The zero Card (an empty slot of a
// positional row) is written as "" and read back as the zero Card.
func (c Card) MarshalText() ([]byte, error) {
	if c == 0 {
		return nil, nil
	}
	if c <= WildDrawFour && textOf[c] != nil {
		return textOf[c], nil
	}
	return nil, fmt.Errorf("card %d has no code", uint16(c))
}

// UnmarshalText reads a card code.
func (c *Card) UnmarshalText(b []byte) error {
	v, err := ParseCard(string(b))
	if err != nil {
		return err
	}
	*c = v
	return nil
}

// UnmarshalJSON reads a card code string; "" and null read as the zero Card.
func (c *Card) UnmarshalJSON(b []byte) error {
	if string(b) == "null" || string(b) == `""` {
		*c = 0
		return nil
	}
	if len(b) >= 2 && b[0] == '"' && b[len(b)-1] == '"' {
		if v, ok := cardByCode[string(b[1:len(b)-1])]; ok {
			*c = v
			return nil
		}
		return c.UnmarshalText(b[1 : len(b)-1])
	}
	return fmt.Errorf("card: want a card code string, got %s", b)
}

// CardStrings returns the codes of cards, in order.
func CardStrings(cards []Card) []string {
	out := make([]string, len(cards))
	for i, c := range cards {
		out[i] = c.String()
	}
	return out
}

// FrenchDeck returns decks copies of the 52 French cards followed by jokersPerDeck Jokers per deck,
// in a fixed order (shuffle it with an RNG).
func FrenchDeck(decks, jokersPerDeck int) []Card {
	out := make([]Card, 0, decks*(52+jokersPerDeck))
	for range decks {
		for c := Card(frenchBase); c < Joker; c++ {
			out = append(out, c)
		}
		for range jokersPerDeck {
			out = append(out, Joker)
		}
	}
	return out
}

// cardCounts counts cards by number in a fixed array: every known card is below cardSpace.
const cardSpace = int(WildDrawFour) + 1

func cardCounts(cards []Card) (counts [cardSpace]int32, ok bool) {
	for _, c := range cards {
		if int(c) >= cardSpace {
			return counts, false
		}
		counts[c]++
	}
	return counts, true
}

// CountCards counts each card of cards.
func CountCards(cards []Card) map[Card]int {
	m := make(map[Card]int, len(cards))
	for _, c := range cards {
		m[c]++
	}
	return m
}

// SameCards reports whether a and b hold the same cards as multisets.
func SameCards(a, b []Card) bool {
	if len(a) != len(b) {
		return false
	}
	if ca, ok := cardCounts(a); ok {
		if cb, ok := cardCounts(b); ok {
			return ca == cb
		}
	}
	m := CountCards(a)
	for _, c := range b {
		m[c]--
		if m[c] < 0 {
			return false
		}
	}
	return true
}

// CardDiff describes how multiset got differs from want ("lost 7H; invented 2 x QS"), or "" when
// they hold the same cards.
func CardDiff(want, got []Card) string {
	if SameCards(want, got) {
		return ""
	}
	m := CountCards(want)
	for _, c := range got {
		m[c]--
	}
	var lost, extra []string
	keys := make([]Card, 0, len(m))
	for c := range m {
		keys = append(keys, c)
	}
	slices.Sort(keys)
	for _, c := range keys {
		switch n := m[c]; {
		case n > 0:
			lost = append(lost, countedCode(c, n))
		case n < 0:
			extra = append(extra, countedCode(c, -n))
		}
	}
	var parts []string
	if len(lost) > 0 {
		parts = append(parts, "lost "+strings.Join(lost, ", "))
	}
	if len(extra) > 0 {
		parts = append(parts, "invented "+strings.Join(extra, ", "))
	}
	return strings.Join(parts, "; ")
}

func countedCode(c Card, n int) string {
	if n == 1 {
		return c.String()
	}
	return fmt.Sprintf("%d x %s", n, c)
}

// RemoveCards returns hand without one copy of each card in cards (a new slice), or false when
// hand does not hold them all.
func RemoveCards(hand, cards []Card) ([]Card, bool) {
	out := slices.Clone(hand)
	for _, c := range cards {
		i := slices.Index(out, c)
		if i < 0 {
			return hand, false
		}
		out = slices.Delete(out, i, i+1)
	}
	return out, true
}
