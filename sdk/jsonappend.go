package sdk

import (
	"encoding/json"
	"strconv"
)

// JSON writers for a ruleset that encodes its own state (StateAppender). Each appends to b exactly
// what encoding/json's Marshal writes for the same value, so a hand-written encoder built from them
// can be checked byte for byte against json.Marshal.

// AppendJSONString appends s as a JSON string, escaped as json.Marshal escapes it (HTML
// characters included).
func AppendJSONString(b []byte, s string) []byte { return appendJSONString(b, s) }

// AppendCardsJSON appends cards as a JSON array of card codes; a nil slice is null, as
// json.Marshal writes it, and the zero Card is "".
func AppendCardsJSON(b []byte, cards []Card) []byte {
	if cards == nil {
		return append(b, "null"...)
	}
	return appendCards(b, cards)
}

// AppendIntsJSON appends ns as a JSON array of numbers (nil is null).
func AppendIntsJSON(b []byte, ns []int) []byte {
	if ns == nil {
		return append(b, "null"...)
	}
	return appendInts(b, ns)
}

// AppendBoolsJSON appends bs as a JSON array of booleans (nil is null).
func AppendBoolsJSON(b []byte, bs []bool) []byte {
	if bs == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, v := range bs {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendBool(b, v)
	}
	return append(b, ']')
}

// AppendJSON appends the generator's JSON, as json.Marshal writes an RNG.
func (r RNG) AppendJSON(b []byte) []byte {
	if len(r.Forced) > 0 { // forced outcomes: scenarios only, never on a hot path
		j, err := json.Marshal(r)
		if err != nil { // a map of string lists always encodes
			panic(err)
		}
		return append(b, j...)
	}
	b = append(b, `{"seed":`...)
	b = strconv.AppendUint(b, r.Seed, 10)
	b = append(b, `,"n":`...)
	b = strconv.AppendUint(b, r.N, 10)
	return append(b, '}')
}
