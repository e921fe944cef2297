package server_test

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"cardhouse/platform/server"
	"cardhouse/platform/store/storetest"
)

// TestSignInLimit checks the sign-in limit per client address: 10 attempts a minute by default,
// the number configured otherwise, and none at all when LoginAttempts is negative (`serve
// --signin-rate 0`, which load benchmarks use to sign a thousand players in from one address).
func TestSignInLimit(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name     string
		attempts int
		tries    int
		allowed  int
	}{
		{"default", 0, 12, 10},
		{"configured", 3, 5, 3},
		{"no limit", -1, 40, 40},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			st := storetest.Open(t, "sqlite")
			srv := server.New(server.Config{Store: st, LoginAttempts: tc.attempts,
				Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
			hs := httptest.NewServer(srv.Handler())
			defer hs.Close()
			ok, limited := 0, 0
			for range tc.tries {
				resp, err := http.Post(hs.URL+"/api/guest", "application/json", strings.NewReader(`{"name":"Ann"}`))
				if err != nil {
					t.Fatal(err)
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				switch resp.StatusCode {
				case http.StatusOK:
					ok++
				case http.StatusTooManyRequests:
					limited++
				default:
					t.Fatalf("POST /api/guest: %d", resp.StatusCode)
				}
			}
			if ok != tc.allowed || limited != tc.tries-tc.allowed {
				t.Errorf("%d attempts: %d signed in, %d limited; want %d and %d", tc.tries, ok, limited, tc.allowed, tc.tries-tc.allowed)
			}
		})
	}
}
