package server

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"
	"unicode/utf8"

	"cardhouse/platform/room"
	"cardhouse/platform/store"

	"github.com/coder/websocket"
	"github.com/labstack/echo/v4"
)

// websocket upgrades a member's request to the room's live connection (docs/protocol.md). The
// Origin must be this host or an allowed pattern; non-members are refused before the upgrade.
func (s *Server) websocket(c echo.Context) error {
	u := userOf(c)
	protocol, err := protocolAsked(c.QueryParam("v"))
	if err != nil {
		return err
	}
	r, err := s.theRoom(c)
	if el, ok := room.Elsewhere(err); ok && s.cfg.Bus != nil {
		return s.relay(c, u, protocol, el) // another node runs the room (relay.go)
	}
	if err != nil {
		return err
	}
	info, err := r.Info(c.Request().Context())
	if err != nil {
		return err
	}
	member := false
	for _, m := range info.Members {
		member = member || m.UserID == u.ID
	}
	if !member {
		return apiError(http.StatusForbidden, "not_member", "you are not a member of room "+info.Code+"; join it first")
	}
	chat, err := s.recentChat(c, r.Code())
	if err != nil {
		return err
	}
	w := newWSWriter(s.cfg.QueueSize)
	conn, release := s.accept(c, info.Code, w)
	if conn == nil {
		return nil
	}
	defer release()

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	client := room.NewSinkClient(u.ID, w)
	client.Protocol = protocol
	actx, acancel := context.WithTimeout(ctx, 10*time.Second)
	err = r.Attach(actx, u, client, chat)
	acancel()
	if err != nil {
		_, body := s.classify(err)
		_ = conn.Close(websocket.StatusPolicyViolation, truncate(body.Reason, 120))
		return nil
	}
	defer r.Detach(client)

	writerDone := make(chan struct{})
	go func() {
		defer close(writerDone)
		s.writeLoop(ctx, conn, w, client)
	}()

	for {
		// No context for the read (one would cost a context.AfterFunc per message): the write loop
		// closes the connection whenever this client must go, which ends the read.
		typ, data, err := conn.Read(context.Background())
		if err != nil {
			break
		}
		ok, stop := s.checkFrame(conn, client, typ, data)
		if stop {
			break
		}
		if ok && s.handleFrame(ctx, r, u, client, protocol, data) {
			break
		}
	}
	cancel()
	<-writerDone
	return nil
}

// checkFrame answers a frame that is no message of the protocol: binary or over the size limit
// (an error message, and the frame is skipped: ok false), or not UTF-8 (the connection is failed
// with 1007: stop).
func (s *Server) checkFrame(conn *websocket.Conn, client *room.Client, typ websocket.MessageType, data []byte) (ok, stop bool) {
	if typ != websocket.MessageText {
		client.Send(room.ErrorMessage("", "bad_message", "send JSON text messages, not binary"))
		return false, false
	}
	if len(data) > s.cfg.MaxMessage {
		client.Send(room.ErrorMessage("", "too_large", fmt.Sprintf("message of %d bytes is over the limit of %d", len(data), s.cfg.MaxMessage)))
		return false, false
	}
	if !utf8.Valid(data) {
		// RFC 6455 section 8.1: a text frame that is not UTF-8 fails the connection with 1007.
		_ = conn.Close(websocket.StatusInvalidFramePayloadData, "text message is not valid UTF-8")
		return false, true
	}
	return true, false
}

// handleFrame decodes one message of the connection and has the room handle it, answering a
// refusal with an error message; it reports true when the room has closed. The node running the
// room calls it, for its own sockets and for those relayed from other nodes.
func (s *Server) handleFrame(ctx context.Context, r *room.Room, u *store.User, client *room.Client, protocol int, data []byte) (closed bool) {
	var msg room.Incoming
	if err := decodeUTF8(data, &msg); err != nil {
		client.Send(room.ErrorMessage("", "bad_json", "malformed message: "+err.Error()))
		return false
	}
	if msg.V != 0 && msg.V != room.ProtocolVersion && msg.V != protocol {
		client.Send(room.ErrorMessage(msg.ID, "bad_version", fmt.Sprintf("protocol version %d is not spoken on this connection (it speaks %d)", msg.V, protocol)))
		return false
	}
	if msg.Type == room.MsgPing {
		client.Send(room.PongMessage(msg.ID)) // the heartbeat: answered here, never behind the room
		return false
	}
	hctx, hcancel := context.WithTimeout(ctx, 5*time.Second)
	err := r.Handle(hctx, u, client, msg)
	hcancel()
	if errors.Is(err, room.ErrClosed) {
		return true
	}
	if err != nil {
		_, body := s.classify(err)
		client.Send(room.ErrorMessage(msg.ID, body.Code, body.Reason))
	}
	return false
}

// protocolAsked reads the protocol version a client asks for on the WebSocket's URL (?v=2):
// room.ProtocolVersion when it asks for none.
func protocolAsked(v string) (int, error) {
	switch v {
	case "", strconv.Itoa(room.ProtocolVersion):
		return room.ProtocolVersion, nil
	case strconv.Itoa(room.ProtocolPatches):
		return room.ProtocolPatches, nil
	}
	return 0, apiError(http.StatusBadRequest, "bad_version", fmt.Sprintf("protocol version %q is not spoken here (ask for v=%d or v=%d)", truncate(v, 20), room.ProtocolVersion, room.ProtocolPatches))
}

// accept upgrades the request to a WebSocket kept in s.conns (closed at shutdown) until release
// is called, its writes going through w; nil when the upgrade was refused (Accept has written the
// refusal: a bad Origin, not a WebSocket request). Messages up to 64×MaxMessage are read and answered with an error when
// over MaxMessage; beyond that the library closes the connection (1009).
func (s *Server) accept(c echo.Context, code string, w *wsWriter) (conn *websocket.Conn, release func()) {
	cw := &hijackingWriter{ResponseWriter: c.Response(), conn: w}
	conn, err := websocket.Accept(cw, c.Request(), &websocket.AcceptOptions{OriginPatterns: s.cfg.OriginPatterns})
	if err != nil {
		s.log.Info("websocket refused", "room", code, "err", err)
		return nil, nil
	}
	conn.SetReadLimit(int64(s.cfg.MaxMessage) * 64)
	s.mu.Lock()
	s.conns[conn] = struct{}{}
	s.mu.Unlock()
	return conn, func() {
		s.mu.Lock()
		delete(s.conns, conn)
		s.mu.Unlock()
	}
}

// writeTimeout is how long one write to a socket that does not take the bytes at once may take
// before the connection is closed.
const writeTimeout = 10 * time.Second

// writeLoop writes what the socket did not take at once (wswrite.go) until the room drops the
// client or the connection ends, then closes the connection with the room's reason. It sleeps
// while the room's own writes go through.
func (s *Server) writeLoop(ctx context.Context, conn *websocket.Conn, w *wsWriter, client *room.Client) {
	// bye writes what the room queued before dropping the client (a "bye"), then closes the
	// connection with the room's reason.
	bye := func() {
		if !w.drain() {
			_ = conn.CloseNow()
			return
		}
		code, reason := client.Reason()
		_ = conn.Close(websocket.StatusCode(code), truncate(reason, 120))
	}
	for {
		select {
		case <-w.wake:
			if !w.drain() {
				_ = conn.CloseNow()
				return
			}
		case <-client.Gone():
			bye()
			return
		case <-ctx.Done():
			// The handler ended: the socket's read failed (the peer is gone: nothing to say), or
			// the room's actor stopped under a frame (a node stopping, a room moving to another
			// node), and the client must reconnect to find where the room runs now. A reason the
			// room gave on its way out wins.
			select {
			case <-client.Gone():
				bye()
			default:
				_ = conn.Close(websocket.StatusGoingAway, "the room stopped here; reconnect")
			}
			return
		}
	}
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n]
}
