package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
)

// sessionCookie is the server's session cookie (docs/api.md).
const sessionCookie = "cardhouse_session"

// api is the HTTP side of the bench: one client (connection pool) for every account.
type api struct {
	base   string
	client *http.Client
	// metricsURL is where the server's metrics are read ("": base + "/metrics").
	metricsURL string
}

func newAPI(base string, parallel int) *api {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.MaxIdleConnsPerHost = max(parallel, 2)
	return &api{base: strings.TrimRight(base, "/"), client: &http.Client{Transport: tr, Timeout: 60 * time.Second}}
}

// account is a signed-in user: its session cookie and CSRF token.
type account struct {
	name    string
	session string
	csrf    string
}

// apiError is a refused request, with the server's code.
type apiError struct {
	method, path string
	status       int
	code, reason string
}

func (e *apiError) Error() string {
	return fmt.Sprintf("%s %s: %d %s: %s", e.method, e.path, e.status, e.code, e.reason)
}

// do sends a JSON request (as acct when set) and decodes the answer into out.
func (a *api) do(ctx context.Context, acct *account, method, path string, body, out any) error {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, a.base+path, rd)
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Origin", a.base)
	if acct != nil {
		req.AddCookie(&http.Cookie{Name: sessionCookie, Value: acct.session})
		req.Header.Set("X-CSRF-Token", acct.csrf)
	}
	resp, err := a.client.Do(req)
	if err != nil {
		return fmt.Errorf("%s %s: %w", method, path, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return fmt.Errorf("%s %s: %w", method, path, err)
	}
	if resp.StatusCode >= 300 {
		var e struct {
			Error struct{ Code, Reason string } `json:"error"`
		}
		_ = json.Unmarshal(data, &e)
		if e.Error.Code == "" {
			e.Error.Reason = strings.TrimSpace(string(data))
		}
		return &apiError{method: method, path: path, status: resp.StatusCode, code: e.Error.Code, reason: e.Error.Reason}
	}
	if out != nil {
		if err := json.Unmarshal(data, out); err != nil {
			return fmt.Errorf("%s %s: reading the answer: %w", method, path, err)
		}
	}
	if acct != nil && acct.session == "" {
		for _, c := range resp.Cookies() {
			if c.Name == sessionCookie {
				acct.session = c.Value
			}
		}
	}
	return nil
}

// guest signs in a new guest named name.
func (a *api) guest(ctx context.Context, name string) (*account, error) {
	acct := &account{name: name}
	var out struct {
		CSRF string `json:"csrf_token"`
	}
	if err := a.do(ctx, acct, http.MethodPost, "/api/guest", map[string]string{"name": name}, &out); err != nil {
		return nil, err
	}
	if acct.session == "" || out.CSRF == "" {
		return nil, fmt.Errorf("POST /api/guest: no session cookie or csrf_token in the answer")
	}
	acct.csrf = out.CSRF
	return acct, nil
}

// createRoom opens an online room of ruleset with seats seats and the default options; it returns
// the room's code.
func (a *api) createRoom(ctx context.Context, host *account, ruleset string, seats int) (string, error) {
	var out struct {
		Room struct {
			Code string `json:"code"`
		} `json:"room"`
	}
	body := map[string]any{"ruleset": ruleset, "mode": "online", "seats": seats}
	if err := a.do(ctx, host, http.MethodPost, "/api/rooms", body, &out); err != nil {
		return "", err
	}
	return out.Room.Code, nil
}

// member is the part of a join's answer the bench checks.
type member struct {
	Role string `json:"role"`
	Seat int    `json:"seat"`
}

// join makes acct a member of room code (a spectator when spectate).
func (a *api) join(ctx context.Context, acct *account, code string, spectate bool) (member, error) {
	var out struct {
		Member member `json:"member"`
	}
	err := a.do(ctx, acct, http.MethodPost, "/api/rooms/"+code+"/join", map[string]bool{"spectate": spectate}, &out)
	return out.Member, err
}

// leave takes acct out of room code.
func (a *api) leave(ctx context.Context, acct *account, code string) error {
	return a.do(ctx, acct, http.MethodPost, "/api/rooms/"+code+"/leave", nil, nil)
}
