package server

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"sync"
	"time"

	"cardhouse/platform/cluster"
	"cardhouse/platform/room"
	"cardhouse/platform/store"

	"github.com/labstack/echo/v4"
)

// Relaying a WebSocket between the nodes of a cluster. The browser's node (here called the edge)
// keeps the socket; the node running the room (the owner) attaches a room.Client for it, exactly as
// for a socket of its own, so it alone decides what the connection sees (its seat's view only).
// The owner sends the client's outbox to the edge frame by frame, and the edge feeds them into a
// local room.Client that the usual write loop writes: one path for local and relayed sockets. The
// edge sends the browser's frames to the owner, which handles them as it handles its own. Frames
// pass untouched, whatever the protocol version. The two nodes beat once per pair, not per socket
// (beat.go): when one goes silent, or forgets a socket, the other ends it: the edge closes the
// socket with "going away" (the client reconnects and lands on the room's next owner), the owner
// detaches the client (its player counts as dropped: grace, cover and pause apply).

// Frames on the relay's subjects: one byte of kind, then the payload.
const (
	frameData   = 'd' // a message of the protocol (either way)
	frameClose  = 'c' // owner → edge: the room dropped the client; JSON relayClose
	frameDetach = 'x' // edge → owner: the socket closed
)

// A pair of nodes beats every relayBeat each way (beat.go); relayDead without a beat ends the
// sockets relayed between them. Four beats missed, so that a broker's hiccup or a loaded node's
// pause does not close every socket.
const (
	relayBeat = time.Second
	relayDead = 4 * relayBeat
)

type attachRequest struct {
	Room     string `json:"room"`
	User     int64  `json:"user"`
	Conn     string `json:"conn"`
	Node     string `json:"node"` // the edge, where the conn subject is
	Protocol int    `json:"protocol"`
}

type attachAnswer struct {
	Status int        `json:"status,omitempty"` // 0: attached
	Error  *errorJSON `json:"error,omitempty"`
	// Epoch is the owner's lease epoch on the room (0 from a node before it): the edge ends the
	// socket when it hears that a node took the room under a later one (room.RoomMoved).
	Epoch int64 `json:"epoch,omitempty"`
}

type relayClose struct {
	Code   int    `json:"code"`
	Reason string `json:"reason"`
}

func newConnID() string {
	var b [12]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

func frame(kind byte, payload []byte) []byte {
	return append([]byte{kind}, payload...)
}

// relay serves a WebSocket for a room another node runs (the edge's side).
func (s *Server) relay(c echo.Context, u *store.User, protocol int, el *room.ElsewhereError) error {
	actx, acancel := context.WithTimeout(c.Request().Context(), forwardTimeout)
	defer acancel()
	owner, err := s.ownerOf(actx, el)
	if err != nil {
		return err
	}
	// A frozen owner is waited for no longer than until its lease has run out: then the next try
	// takes the room here (or finds its new owner).
	actx, acancel = context.WithTimeout(actx, owner.patience())
	defer acancel()
	connID := newConnID()
	// The owner's frames may come before the socket is accepted: they wait in the writer until
	// it has the socket.
	w := newWSWriter(s.cfg.QueueSize)
	client := room.NewSinkClient(u.ID, w)
	client.Protocol = protocol
	// Subscribed before the attach, so that the hello and first views the owner sends at once
	// arrive.
	sub, err := s.cfg.Bus.Subscribe(nodeSubject(s.cfg.Node, "conn", connID), func(m cluster.Msg) {
		if len(m.Data) == 0 {
			return
		}
		switch m.Data[0] {
		case frameData:
			client.Send(m.Data[1:]) // the client copies what it queues
		case frameClose:
			var rc relayClose
			if json.Unmarshal(m.Data[1:], &rc) != nil || rc.Code == 0 {
				rc = relayClose{room.CloseGoingAway, "the room moved; reconnect"}
			}
			client.Close(rc.Code, rc.Reason)
		}
	})
	if err != nil {
		return err
	}
	defer func() { _ = sub.Stop() }()
	answer, err := s.request(actx, "attach", nodeSubject(owner.node, "attach"),
		mustJSON(attachRequest{Room: el.Code, User: u.ID, Conn: connID, Node: s.cfg.Node, Protocol: protocol}))
	if err != nil {
		return s.ownerGone(el, owner.node, err)
	}
	var ans attachAnswer
	if err := json.Unmarshal(answer, &ans); err != nil {
		return apiError(http.StatusBadGateway, "bad_relay", "the server running room "+el.Code+" sent an answer that is not one")
	}
	if ans.Status != 0 {
		if ans.Error == nil {
			ans.Error = &errorJSON{Code: "bad_relay", Reason: "refused by the server running the room"}
		}
		return apiError(ans.Status, ans.Error.Code, ans.Error.Reason)
	}
	in := nodeSubject(owner.node, "in", connID)
	defer func() { _ = s.cfg.Bus.Publish(in, []byte{frameDetach}) }()
	defer s.addEdgeRelay(owner.node, connID, el.Code, ans.Epoch, goingAway(client))()

	conn, release := s.accept(c, el.Code, w)
	if conn == nil {
		return nil
	}
	defer release()
	relayed := s.cfg.Cluster.Relayed.WithLabelValues("edge")
	relayed.Inc()
	defer relayed.Dec()

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	writerDone := make(chan struct{})
	go func() {
		defer close(writerDone)
		s.writeLoop(ctx, conn, w, client)
	}()
	var buf []byte
	for {
		typ, data, err := conn.Read(context.Background())
		if err != nil {
			break
		}
		ok, stop := s.checkFrame(conn, client, typ, data)
		if stop {
			break
		}
		if ok {
			buf = append(append(buf[:0], frameData), data...)
			if err := s.cfg.Bus.Publish(in, buf); err != nil {
				client.Close(room.CloseGoingAway, "lost the way to the server running the room; reconnect")
			}
		}
	}
	cancel()
	<-writerDone
	return nil
}

// serveAttach attaches a socket relayed from another node to a room of this node (the owner's
// side).
func (s *Server) serveAttach(m cluster.Msg) {
	var ar attachRequest
	if err := json.Unmarshal(m.Data, &ar); err != nil || !validNode(ar.Node) || !validNode(ar.Conn) || ar.User == 0 {
		_ = m.Respond(mustJSON(attachAnswer{Status: http.StatusBadRequest, Error: &errorJSON{Code: "bad_relay", Reason: "not an attach request"}}))
		return
	}
	go s.attachRelayed(m, ar)
}

func (s *Server) attachRelayed(m cluster.Msg, ar attachRequest) {
	refuse := func(err error) {
		status, body := s.classify(err)
		_ = m.Respond(mustJSON(attachAnswer{Status: status, Error: &body}))
	}
	actx, acancel := context.WithTimeout(context.Background(), forwardTimeout)
	defer acancel()
	u, err := s.cfg.Store.UserByID(actx, ar.User)
	if err != nil {
		refuse(err)
		return
	}
	if u.Banned {
		refuse(apiError(http.StatusForbidden, "banned", "this account is banned"))
		return
	}
	r, err := s.cfg.Rooms.Get(actx, ar.Room)
	if err != nil {
		refuse(err)
		return
	}
	chat, err := s.recentChatOf(actx, r.Code())
	if err != nil {
		refuse(err)
		return
	}
	client := room.NewClient(u.ID, s.cfg.QueueSize)
	client.Protocol = ar.Protocol
	ctx, cancel := context.WithCancel(context.Background())
	detached := make(chan struct{})
	var once sync.Once
	detach := func() { once.Do(func() { close(detached) }) }
	sub, err := s.cfg.Bus.Subscribe(nodeSubject(s.cfg.Node, "in", ar.Conn), func(msg cluster.Msg) {
		if len(msg.Data) == 0 {
			return
		}
		switch msg.Data[0] {
		case frameData:
			if s.handleFrame(ctx, r, u, client, ar.Protocol, msg.Data[1:]) {
				client.Close(room.CloseGoingAway, "the room closed")
			}
		case frameDetach:
			detach()
		}
	})
	if err != nil {
		cancel()
		refuse(err)
		return
	}
	if err := r.Attach(actx, u, client, chat); err != nil {
		cancel()
		_ = sub.Stop()
		refuse(err)
		return
	}
	unregister := s.addRelay(ar.Node, ar.Conn, false, detach)
	_ = m.Respond(mustJSON(attachAnswer{Epoch: r.LeaseEpoch()}))
	relayed := s.cfg.Cluster.Relayed.WithLabelValues("owner")
	relayed.Inc()
	go func() {
		defer relayed.Dec()
		defer cancel()
		defer func() { _ = sub.Stop() }()
		defer unregister()
		defer r.Detach(client)
		s.pumpRelayed(nodeSubject(ar.Node, "conn", ar.Conn), client, detached)
	}()
}

// pumpRelayed sends the relayed client's outbox to the edge until the room drops the client or
// the edge detaches it (or goes silent, or forgot it: beat.go).
func (s *Server) pumpRelayed(out string, client *room.Client, detached <-chan struct{}) {
	var buf []byte
	send := func(m room.Message) {
		buf = append(append(buf[:0], frameData), m.Bytes()...)
		m.Done()
		_ = s.cfg.Bus.Publish(out, buf)
	}
	for {
		select {
		case m := <-client.Out():
			send(m)
		case <-client.Gone():
			for {
				select {
				case m := <-client.Out():
					send(m)
					continue
				default:
				}
				break
			}
			code, reason := client.Reason()
			_ = s.cfg.Bus.Publish(out, frame(frameClose, mustJSON(relayClose{code, reason})))
			return
		case <-detached:
			return
		}
	}
}
