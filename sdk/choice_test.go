package sdk_test

import (
	"testing"

	"cardhouse/sdk"
)

// TestActionChoice: a choice is read from Args["choice"], else from the old Suit, else Color;
// WithChoice sets it without touching the Args it was given.
func TestActionChoice(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name string
		a    sdk.Action
		want string
	}{
		{"none", sdk.Action{Type: sdk.ActPlay}, ""},
		{"args", sdk.Action{Args: map[string]string{sdk.ArgChoice: "G"}}, "G"},
		{"old suit", sdk.Action{Suit: "H"}, "H"},
		{"old colour", sdk.Action{Color: "R"}, "R"},
		{"args first", sdk.Action{Suit: "H", Color: "R", Args: map[string]string{sdk.ArgChoice: "S"}}, "S"},
	} {
		if got := c.a.Choice(); got != c.want {
			t.Errorf("%s: Choice() = %q, want %q", c.name, got, c.want)
		}
	}
	args := map[string]string{"call": "true"}
	a := sdk.Action{Args: args}.WithChoice("Y")
	if a.Choice() != "Y" || a.Args["call"] != "true" {
		t.Errorf("WithChoice: %+v", a)
	}
	if _, ok := args[sdk.ArgChoice]; ok {
		t.Error("WithChoice wrote into the Args it was given")
	}
}
