package server_test

import (
	"net/http"
	"testing"
)

// TestAccountLocale: the language a player chooses is kept by the account (PATCH /api/me
// locale, migration 00015) and given back by GET /api/me and on signing in from another browser;
// an unknown language is a 400 naming the field that changes nothing; "" forgets the choice.
func TestAccountLocale(t *testing.T) {
	t.Parallel()
	for _, dialect := range []string{"sqlite", "postgres"} {
		t.Run(dialect, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t, dialect, inProcess())
			ada := e.register("Ada")
			type me struct {
				User struct {
					Locale string `json:"locale"`
				} `json:"user"`
			}
			locale := func(u *user) string {
				var m me
				u.must("GET", "/api/me", nil, &m)
				return m.User.Locale
			}
			if got := locale(ada); got != "" {
				t.Fatalf("a new account's locale is %q, want none", got)
			}
			var m me
			ada.must("PATCH", "/api/me", map[string]any{"locale": "fr"}, &m)
			if m.User.Locale != "fr" || locale(ada) != "fr" {
				t.Fatalf("after choosing French: PATCH says %q, GET says %q", m.User.Locale, locale(ada))
			}
			var bad apiErr
			if st := ada.call("PATCH", "/api/me", map[string]any{"locale": "xx", "avatar": "moon"}, &bad); st != http.StatusBadRequest || len(bad.Error.Fields) != 1 || bad.Error.Fields[0].Field != "locale" {
				t.Fatalf("an unknown locale: status %d, %+v; want 400 naming locale", st, bad.Error)
			}
			if got := locale(ada); got != "fr" {
				t.Fatalf("a refused change changed the locale to %q", got)
			}
			// Another browser signing in to the account gets its language.
			other := e.browser("Ada on a phone")
			var a struct {
				User struct {
					Locale string `json:"locale"`
				} `json:"user"`
			}
			other.must("POST", "/api/login", map[string]string{"username": "ada", "password": "correct horse"}, &a)
			if a.User.Locale != "fr" {
				t.Fatalf("signing in elsewhere: locale %q, want fr", a.User.Locale)
			}
			ada.must("PATCH", "/api/me", map[string]any{"locale": ""}, nil)
			if got := locale(ada); got != "" {
				t.Fatalf("after forgetting the choice: %q", got)
			}
		})
	}
}
