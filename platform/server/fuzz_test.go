package server_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"testing"
	"unicode/utf8"

	"cardhouse/platform/room"
	"cardhouse/platform/server"
)

// strictlyValid is the oracle of both fuzz targets: data is exactly one JSON value in UTF-8 and
// fits v with no unknown field, by the standard library's own reading.
func strictlyValid(data []byte, v any) bool {
	if !utf8.Valid(data) || !json.Valid(data) {
		return false
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	return dec.Decode(v) == nil
}

// FuzzWebSocketMessage feeds the WebSocket message decoder: it never panics, accepts exactly what
// is one valid JSON value of the message's shape, and what it accepts reads back the same.
// Seeds: testdata/fuzz/FuzzWebSocketMessage and the cases below. CI runs it for a bounded time.
func FuzzWebSocketMessage(f *testing.F) {
	for _, s := range []string{
		`{"type":"ping","id":"p1"}`,
		`{"type":"act","id":"a1","action":{"type":"play","cards":["AS","KH"],"args":{"call":"true"}}}`,
		`{"type":"act","id":"a2","seat":1,"action":{"type":"flip","index":2}} `,
		`{"type":"chat","text":"h\u00e9llo"}`,
		`{"type":"ping"} junk`,
		`{"type":"ping"}{"type":"ping"}`,
		"{\"type\":\"chat\",\"text\":\"caf\xe9\"}",
		`{"type":"act","action":{"type":"play","cards":["ZZ"]}}`,
		`{"v":2,"type":"ping","extra":1}`,
		`[1,2,3]`, `"ping"`, `null`, ``,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var msg room.Incoming
		err := server.DecodeJSON(data, &msg)
		var ref room.Incoming
		want := strictlyValid(data, &ref)
		if (err == nil) != want {
			t.Fatalf("DecodeJSON(%q): err %v, but the strict standard reading says valid=%v", data, err, want)
		}
		if err != nil {
			if _, ok := err.(*server.JSONError); !ok {
				t.Fatalf("DecodeJSON(%q) returned %T, want *server.JSONError", data, err)
			}
			return
		}
		again, _ := json.Marshal(msg)
		var back room.Incoming
		if err := server.DecodeJSON(again, &back); err != nil {
			t.Fatalf("the re-encoded message %s does not decode: %v", again, err)
		}
		if b2, _ := json.Marshal(back); !bytes.Equal(again, b2) {
			t.Fatalf("round trip changed the message: %s -> %s", again, b2)
		}
	})
}

// FuzzHTTPBody sends fuzzed bodies to a real route (a member's act, on SQLite): a body that is
// not one valid JSON value of the request's shape is a 400 bad_json; nothing is ever a 5xx; the
// server stays up. Seeds: testdata/fuzz/FuzzHTTPBody and the cases below.
func FuzzHTTPBody(f *testing.F) {
	for _, s := range []string{
		`{"action":{"type":"draw"}}`,
		`{"action":{"type":"draw"}} this is not JSON`,
		`{"action":{"type":"play","cards":["AS"]},"seat":0}`,
		`{"action":{"type":"draw","index":3}}`,
		`{"action":{"type":"draw"}}]`,
		"{\"action\":{\"type\":\"dr\xffaw\"}}",
		`{"action":null}`, `{}`, `[]`, ` `,
	} {
		f.Add([]byte(s))
	}
	e := newEnv(f, "sqlite", inProcess())
	alice := e.register("Alice")
	info := alice.createRoom(map[string]any{"ruleset": matcherID, "mode": "computer", "bots": []int{1}})
	alice.must("POST", "/api/rooms/"+info.Code+"/deal", nil, nil)
	f.Fuzz(func(t *testing.T, data []byte) {
		req, _ := http.NewRequest("POST", e.http.URL+"/api/rooms/"+info.Code+"/act", bytes.NewReader(data))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set(server.CSRFHeader, alice.csrf)
		resp, err := alice.c.Do(req)
		if err != nil {
			t.Fatalf("body %q: %v", data, err)
		}
		var got apiErr
		_ = json.NewDecoder(resp.Body).Decode(&got)
		resp.Body.Close()
		st := resp.StatusCode
		if st >= 500 {
			t.Fatalf("body %q: status %d (%s %s)", data, st, got.Error.Code, got.Error.Reason)
		}
		var shape struct {
			Seat   *int            `json:"seat"`
			Action json.RawMessage `json:"action"`
		}
		valid := len(bytes.TrimSpace(data)) == 0 || strictlyValid(data, &shape)
		if !valid && (st != http.StatusBadRequest || got.Error.Code != "bad_json") {
			t.Fatalf("body %q is not one JSON value of the request's shape, but answered %d %q (%s)", data, st, got.Error.Code, got.Error.Reason)
		}
	})
}
