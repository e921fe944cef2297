package room

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"time"

	"cardhouse/platform/cluster"
	"cardhouse/platform/store"
)

// Cluster-wide events (Config.Bus). What acts on a node's live rooms or on its own processes
// must act on every node of a cluster: each room runs on one node, and a relayed socket's client
// is in the room's node, not where the browser's socket is. So the manager that acts publishes
// the event once, on its own subject, to every node, and every other node's manager does the same
// on its own rooms:
//
//	cardhouse.all.disconnect       a ban's (or a password reset's, a deletion's) disconnect: DisconnectUser
//	cardhouse.all.look             a user's new avatar and colour: NoteLook
//	cardhouse.all.ruleset          a ruleset disabled or enabled for new rooms: SetRulesetDisabled
//	cardhouse.all.plugin_restart   an admin's restart of a ruleset's plugin process: RestartPlugin
//	cardhouse.all.remove           a deleted account taken out of the rooms other nodes run: RemoveUserElsewhere
//	cardhouse.all.moved            a node took a room (a new lease epoch): OnRoomMoved (ownership.go)
//
// The body is a JSON event. Delivery is at most once, as everything on the bus: what must hold
// is in the database first (a banned account's next request, reconnection or relayed attach is
// refused on every node; the disabled rulesets are read at start), the event makes it take
// effect at once, and a node that missed events reconciles with the database when its bus comes
// back (reconcile.go). Kicks, room closes and a host's or an admin's other room actions need no
// event: they run on the room's owner (a request for a room another node runs is forwarded
// there, platform/server), which closes the connections it holds, relayed ones included. A house
// rule's review status needs none either: rooms read it from the database at each deal.

// eventPrefix is the subjects' prefix; the kind is the last token.
const eventPrefix = "cardhouse.all."

const (
	eventDisconnect    = "disconnect"
	eventLook          = "look"
	eventRuleset       = "ruleset"
	eventPluginRestart = "plugin_restart"
	eventRemove        = "remove"
	eventMoved         = "moved"
)

// eventKinds are the kinds this node acts on. Another kind (a newer node's, or anything else
// published under eventPrefix) is counted as eventUnknown: the subjects come from the bus, and a
// metric label that takes whatever it carries would grow without bound.
var eventKinds = map[string]bool{eventDisconnect: true, eventLook: true, eventRuleset: true, eventPluginRestart: true, eventRemove: true, eventMoved: true}

// eventUnknown is the kind label of the events whose kind is not one of eventKinds.
const eventUnknown = "unknown"

// eventTimeout bounds what a node does for one event (every live room's actor is asked once).
const eventTimeout = 10 * time.Second

// event is the body of every kind; each kind uses its own fields.
type event struct {
	// From is the sending manager's instance, so that it ignores its own event (it already acted).
	From string `json:"from"`
	Node string `json:"node,omitempty"`
	User int64  `json:"user,omitempty"`
	// Code and Reason are a disconnect's "bye"; Reason is also a disabled ruleset's.
	Code   string `json:"code,omitempty"`
	Reason string `json:"reason,omitempty"`
	Avatar string `json:"avatar,omitempty"`
	Colour string `json:"colour,omitempty"`
	// Ruleset names the ruleset of a ruleset or plugin_restart event; Disabled is the new state.
	Ruleset  string `json:"ruleset,omitempty"`
	Disabled bool   `json:"disabled,omitempty"`
	// Moved is a moved event's room, its new owner and epoch.
	Moved *RoomMoved `json:"moved,omitempty"`
}

// startEvents subscribes the manager to the cluster-wide events.
func (m *Manager) startEvents() error {
	var b [8]byte
	_, _ = rand.Read(b[:])
	m.instance = hex.EncodeToString(b[:])
	sub, err := m.cfg.Bus.Subscribe(eventPrefix+"*", m.onEvent)
	if err != nil {
		return err
	}
	m.events = sub
	return nil
}

func (m *Manager) stopEvents() {
	if m.events != nil {
		_ = m.events.Stop()
	}
}

// publish sends an event of kind to every other node (nothing on a single node).
func (m *Manager) publish(kind string, e event) {
	if m.cfg.Bus == nil {
		return
	}
	e.From, e.Node = m.instance, m.cfg.Node
	data, _ := json.Marshal(e)
	if err := m.cfg.Bus.Publish(eventPrefix+kind, data); err != nil {
		m.cfg.Logger.Warn("telling the other nodes", "event", kind, "err", err)
		return
	}
	m.cfg.ClusterMetrics.Events.WithLabelValues(kind, "sent").Inc()
}

// onEvent does on this node what another node's event says.
func (m *Manager) onEvent(msg cluster.Msg) {
	kind := msg.Subject[len(eventPrefix):]
	var e event
	if err := json.Unmarshal(msg.Data, &e); err != nil {
		m.cfg.Logger.Warn("an event that is not one", "subject", msg.Subject, "err", err)
		return
	}
	if e.From == m.instance {
		return
	}
	label := kind
	if !eventKinds[kind] {
		label = eventUnknown
	}
	m.cfg.ClusterMetrics.Events.WithLabelValues(label, "received").Inc()
	ctx, cancel := context.WithTimeout(context.Background(), eventTimeout)
	defer cancel()
	switch kind {
	case eventDisconnect:
		m.disconnectHere(ctx, e.User, e.Code, e.Reason)
	case eventLook:
		m.noteLookHere(ctx, &store.User{ID: e.User, Avatar: e.Avatar, Colour: e.Colour})
	case eventRuleset:
		m.setRulesetDisabledHere(e.Ruleset, e.Disabled, e.Reason)
	case eventPluginRestart:
		go func() { // a launch takes a while: later events need not wait for it
			if _, err := m.restartPluginHere(e.Ruleset); err != nil && !errors.Is(err, ErrInProcess) {
				m.cfg.Logger.Error("restarting a plugin as another node asked", "ruleset", e.Ruleset, "from", e.Node, "err", err)
				return
			}
			m.cfg.Logger.Info("restarted a plugin as another node asked", "ruleset", e.Ruleset, "from", e.Node)
		}()
	case eventRemove:
		m.removeHere(ctx, e.User, e.Code, e.Reason)
	case eventMoved:
		if e.Moved != nil {
			m.roomMoved(*e.Moved)
		}
	default:
		m.cfg.Logger.Warn("an event of an unknown kind", "subject", msg.Subject)
	}
}

// RemoveUserElsewhere asks every other node of the cluster to take user uid out of the live rooms
// it runs (Room.AdminRemoveUser, with the bye's code and reason): an account being deleted whose
// rooms are run by other nodes. On a single node it does nothing.
func (m *Manager) RemoveUserElsewhere(uid int64, code, reason string) {
	m.publish(eventRemove, event{User: uid, Code: code, Reason: reason})
}

func (m *Manager) removeHere(ctx context.Context, uid int64, code, reason string) {
	for _, r := range m.Live() {
		if was, err := r.AdminRemoveUser(ctx, uid, code, reason); err != nil && !errors.Is(err, ErrClosed) {
			r.log.Warn("removing a user as another node asked", "user", uid, "err", err)
		} else if was {
			r.log.Info("removed a user as another node asked", "user", uid)
		}
	}
}
