package server

import (
	"context"
	"errors"
	"regexp"
	"strconv"
	"time"

	"cardhouse/platform/cluster"
)

// Routing between the nodes of a cluster (Config.Bus and Config.Node set): every node serves every
// room. A request or a WebSocket for a room another node runs goes to that node over the bus, on
// subjects of the owner's own:
//
//	cardhouse.node.NODE.http            a forwarded HTTP request (Request; forward.go)
//	cardhouse.node.NODE.attach          a relayed WebSocket asks to attach (Request; relay.go)
//	cardhouse.node.NODE.lobby           the rooms the node lists in the lobby (Request; lobby.go)
//	cardhouse.node.NODE.in.CONN         the relayed socket's frames, from the browser's node
//	cardhouse.node.NODE.conn.CONN       what the owner sends that socket, to the browser's node
//	cardhouse.node.NODE.beat            another node's heartbeat, one a second per pair (beat.go)
//
// The owner is found by the room's lease in the database (store.LeaseOf). What must reach every
// node rather than a room's owner (a ban's disconnect, a look change, an admin's plugin changes)
// travels as events on cardhouse.all.KIND (platform/room, events.go). Config.Cluster counts the
// requests sent and served, their latency, and the relayed sockets (cluster.Metrics).

// NodeName is what a node's name may hold: one token of a bus subject.
var NodeName = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

func validNode(n string) bool { return NodeName.MatchString(n) }

func nodeSubject(node string, parts ...string) string {
	s := "cardhouse.node." + node
	for _, p := range parts {
		s += "." + p
	}
	return s
}

// request sends a request of kind (http, attach, lobby) to another node over the bus and
// records its latency and result (Config.Cluster's BusRequests).
func (s *Server) request(ctx context.Context, kind, subject string, data []byte) ([]byte, error) {
	start := time.Now()
	answer, err := s.cfg.Bus.Request(ctx, subject, data)
	s.cfg.Cluster.BusRequests.WithLabelValues(kind, cluster.RequestResult(err)).Observe(time.Since(start).Seconds())
	return answer, err
}

// statusClass is the result label of a forwarded request: 2xx, 3xx, 4xx or 5xx.
func statusClass(status int) string { return strconv.Itoa(status/100) + "xx" }

// StartRouting subscribes this node to what other nodes send it (a node of a cluster: Config.Bus
// set). Call it once, before serving.
func (s *Server) StartRouting() error {
	if s.cfg.Bus == nil {
		return nil
	}
	if !validNode(s.cfg.Node) {
		return errors.New("server: a node of a cluster needs a name of letters, digits, - and _ (Config.Node)")
	}
	for subject, fn := range map[string]func(cluster.Msg){
		nodeSubject(s.cfg.Node, "http"):   s.serveForwarded,
		nodeSubject(s.cfg.Node, "attach"): s.serveAttach,
		nodeSubject(s.cfg.Node, "lobby"):  s.serveLobby,
		nodeSubject(s.cfg.Node, "beat"):   s.serveBeat,
	} {
		sub, err := s.cfg.Bus.Subscribe(subject, fn)
		if err != nil {
			return err
		}
		s.subs = append(s.subs, sub)
	}
	s.startBeating()
	s.cfg.Rooms.OnRoomMoved(s.roomMoved)
	return nil
}

// StopRouting ends this node's subscriptions: other nodes' requests find no responder here and
// answer "try again" until the rooms have moved.
func (s *Server) StopRouting() {
	s.stopBeating()
	for _, sub := range s.subs {
		_ = sub.Stop()
	}
	s.subs = nil
}
