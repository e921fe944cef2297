package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"time"

	"cardhouse/platform/cluster"
	"cardhouse/platform/room"

	"github.com/labstack/echo/v4"
)

// Forwarding HTTP requests between the nodes of a cluster. A request for a room another node runs
// (its handler answers room.ElsewhereError) is sent over the bus to that node, which runs it
// through its own handler, authentication and CSRF check included (the sessions are in the shared
// database), and answers with the response; this node writes it. The request's body is kept
// (the 64 KiB limit bounds it) so that it can be sent on after the handler read it.

// forwardTimeout bounds a forwarded request, the owner's work included.
const forwardTimeout = 10 * time.Second

// maxForwarded bounds a forwarded response: NATS carries at most 1 MiB per message by default.
const maxForwarded = 900 << 10

// forwardedRequest is a request as it crosses the bus.
type forwardedRequest struct {
	Method     string      `json:"method"`
	URI        string      `json:"uri"`
	Host       string      `json:"host"`
	RemoteAddr string      `json:"remote_addr"`
	Header     http.Header `json:"header"`
	Body       []byte      `json:"body,omitempty"`
}

// forwardedResponse is the owner's answer.
type forwardedResponse struct {
	Status int         `json:"status"`
	Header http.Header `json:"header"`
	Body   []byte      `json:"body,omitempty"`
}

// forwardedKey marks the context of a request that came over the bus: it is never forwarded again
// (the owner that lost the room meanwhile answers room_elsewhere itself).
type forwardedKey struct{}

// forward is the middleware that sends a request on to the room's owner when its handler found
// the room running on another node.
func (s *Server) forward(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		req := c.Request()
		if s.cfg.Bus == nil || req.Context().Value(forwardedKey{}) != nil {
			return next(c)
		}
		var body []byte
		if req.Body != nil && req.Body != http.NoBody {
			b, err := io.ReadAll(req.Body)
			if err != nil {
				return err // over the body limit: 413
			}
			body = b
			req.Body = io.NopCloser(bytes.NewReader(body))
		}
		err := next(c)
		el, ok := room.Elsewhere(err)
		if !ok || c.Response().Committed {
			return err
		}
		return s.forwardTo(c, el, body)
	}
}

func (s *Server) forwardTo(c echo.Context, el *room.ElsewhereError, body []byte) error {
	req := c.Request()
	ctx, cancel := context.WithTimeout(req.Context(), forwardTimeout)
	defer cancel()
	owner, err := s.ownerOf(ctx, el)
	if err != nil {
		return err
	}
	ctx, cancel = context.WithTimeout(ctx, owner.patience())
	defer cancel()
	data, _ := json.Marshal(forwardedRequest{Method: req.Method, URI: req.RequestURI, Host: req.Host,
		RemoteAddr: req.RemoteAddr, Header: req.Header, Body: body})
	answer, err := s.request(ctx, "http", nodeSubject(owner.node, "http"), data)
	if err != nil {
		s.cfg.Cluster.Forwarded.WithLabelValues("sent", "unanswered").Inc()
		return s.ownerGone(el, owner.node, err)
	}
	var resp forwardedResponse
	if err := json.Unmarshal(answer, &resp); err != nil || resp.Status == 0 {
		s.cfg.Cluster.Forwarded.WithLabelValues("sent", "unanswered").Inc()
		return apiError(http.StatusBadGateway, "bad_relay", "the server running room "+el.Code+" sent an answer that is not one")
	}
	s.cfg.Cluster.Forwarded.WithLabelValues("sent", statusClass(resp.Status)).Inc()
	h := c.Response().Header()
	for k, vs := range resp.Header {
		h[k] = vs
	}
	c.Response().WriteHeader(resp.Status)
	_, _ = c.Response().Write(resp.Body)
	return nil
}

// roomOwner is the node holding a room's lease, and until when (the database's clock, Unix ms).
type roomOwner struct {
	node      string
	expiresMs int64
}

// ownerGrace is how long past its lease's expiry an owner's answer is still awaited: a live
// owner renews its lease well before then, and a frozen or dead one is given up on, so that the
// client's next try lands where the room goes (this node takes it, or finds its new owner)
// rather than wait out forwardTimeout.
const ownerGrace = time.Second

// patience is how long a request to the owner may wait for its answer: until its lease has run
// out, plus ownerGrace, within forwardTimeout.
func (o roomOwner) patience() time.Duration {
	return min(forwardTimeout, max(0, time.Until(time.UnixMilli(o.expiresMs)))+ownerGrace)
}

// ownerOf names the node that holds the room's lease.
func (s *Server) ownerOf(ctx context.Context, el *room.ElsewhereError) (roomOwner, error) {
	l, err := s.cfg.Store.LeaseOf(ctx, el.RoomID)
	if err != nil {
		return roomOwner{}, err
	}
	if l.Node == s.cfg.Node || !validNode(l.Node) {
		return roomOwner{}, el // taken and lost meanwhile: the next request tries again
	}
	return roomOwner{node: l.Node, expiresMs: l.ExpiresMs}, nil
}

// ownerGone is the answer when the owner did not answer: it died or stopped (its lease runs out
// and another node takes the room), or it is too slow.
func (s *Server) ownerGone(el *room.ElsewhereError, owner string, err error) error {
	s.log.Warn("the owner of a room did not answer", "room", el.Code, "node", owner, "err", err)
	return apiError(http.StatusServiceUnavailable, "room_moving", "room "+el.Code+" is moving to another server; try again in a few seconds")
}

// serveForwarded runs a request forwarded by another node through this node's handler.
func (s *Server) serveForwarded(m cluster.Msg) {
	var fr forwardedRequest
	if err := json.Unmarshal(m.Data, &fr); err != nil || fr.Method == "" || !strings.HasPrefix(fr.URI, "/") {
		_ = m.Respond(mustJSON(forwardedResponse{Status: http.StatusBadRequest, Body: []byte(`{"error":{"code":"bad_relay","reason":"not a forwarded request"}}`)}))
		return
	}
	go func() {
		ctx, cancel := context.WithTimeout(context.WithValue(context.Background(), forwardedKey{}, true), forwardTimeout)
		defer cancel()
		req, err := http.NewRequestWithContext(ctx, fr.Method, fr.URI, bytes.NewReader(fr.Body))
		if err != nil {
			_ = m.Respond(mustJSON(forwardedResponse{Status: http.StatusBadRequest}))
			return
		}
		req.RequestURI, req.Host, req.RemoteAddr, req.Header = fr.URI, fr.Host, fr.RemoteAddr, fr.Header
		if req.Header == nil {
			req.Header = http.Header{}
		}
		req.ContentLength = int64(len(fr.Body))
		rec := &recorder{header: http.Header{}}
		s.e.ServeHTTP(rec, req)
		resp := forwardedResponse{Status: rec.status, Header: rec.header, Body: rec.body.Bytes()}
		if resp.Status == 0 {
			resp.Status = http.StatusOK
		}
		if len(resp.Body) > maxForwarded {
			resp = forwardedResponse{Status: http.StatusBadGateway, Header: http.Header{"Content-Type": {"application/json"}},
				Body: []byte(`{"error":{"code":"too_large_to_relay","reason":"the answer is too large to pass between servers"}}`)}
		}
		s.cfg.Cluster.Forwarded.WithLabelValues("served", statusClass(resp.Status)).Inc()
		_ = m.Respond(mustJSON(resp))
	}()
}

// recorder is the ResponseWriter of a forwarded request: the answer in memory.
type recorder struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (r *recorder) Header() http.Header { return r.header }

func (r *recorder) WriteHeader(status int) {
	if r.status == 0 {
		r.status = status
	}
}

func (r *recorder) Write(b []byte) (int, error) {
	if r.status == 0 {
		r.status = http.StatusOK
	}
	if r.body.Len()+len(b) > maxForwarded+1 {
		return 0, errors.New("the answer is too large to relay")
	}
	return r.body.Write(b)
}

func mustJSON(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}
