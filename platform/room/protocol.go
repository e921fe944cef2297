package room

import (
	"bytes"
	"encoding/json"
	"strconv"
	"time"

	"cardhouse/sdk"
	"cardhouse/sdk/engine"
)

// ProtocolVersion is the version of the WebSocket messages (docs/protocol.md), the "v" of every
// message but patch. It changes when a message changes in a way an older client cannot read;
// adding a field does not change it.
const ProtocolVersion = 1

// ProtocolPatches is the protocol version in which a connection, after a full view, receives
// patches of it (MsgPatch): the "v" of a patch message, and what a client asks for with ?v=2 on
// the WebSocket's URL. A connection that does not ask speaks ProtocolVersion and gets full views.
const ProtocolPatches = 2

// Message types sent by the client.
const (
	MsgAct   = "act"
	MsgCheck = "check"
	MsgDeal  = "deal"
	MsgChat  = "chat"
	MsgPing  = "ping"
	// MsgResync asks for the full views again (a v2 client that missed a patch).
	MsgResync = "resync"
	// MsgAskNext asks the host for the next round or game (asknext.go).
	MsgAskNext = "ask_next"
)

// Message types sent by the server.
const (
	MsgHello    = "hello"
	MsgRoom     = "room"
	MsgView     = "view"
	MsgPatch    = "patch"
	MsgAccepted = "accepted"
	MsgError    = "error"
	MsgChatLine = "chat"
	MsgPong     = "pong"
	MsgMembers  = "members"
	MsgBye      = "bye"
	MsgCheckRes = "check"
	// MsgHouseLog carries what the game's house rules printed in a step, to each rule's owner and
	// to admins only.
	MsgHouseLog = "house_log"
)

// Incoming is a client message. Type says which; ID is echoed in the answer so the client can
// match them. Seat picks the seat to act for when the connection holds several (pass-the-device).
type Incoming struct {
	V      int         `json:"v,omitempty"`
	Type   string      `json:"type"`
	ID     string      `json:"id,omitempty"`
	Seat   *int        `json:"seat,omitempty"`
	Action *sdk.Action `json:"action,omitempty"`
	Text   string      `json:"text,omitempty"`
}

// Outgoing is every server message; only the fields of its type are set.
type Outgoing struct {
	V    int    `json:"v"`
	Type string `json:"type"`
	ID   string `json:"id,omitempty"`
	// hello
	You *You `json:"you,omitempty"`
	// hello, room
	Room *Info `json:"room,omitempty"`
	// hello: the protocol version the connection speaks (ProtocolPatches when it asked for it).
	Protocol int `json:"protocol,omitempty"`
	// view: Seat is the seat the view is for (-1: the spectators' view).
	Seat *int            `json:"seat,omitempty"`
	Game int             `json:"game,omitempty"`
	Seq  *int            `json:"seq,omitempty"`
	View json.RawMessage `json:"view,omitempty"`
	// Now is the game clock (Unix milliseconds, the clock of the view's Deadline.At) when a view
	// message was sent, so a client can show how long a deadline has left whatever its own
	// clock says.
	Now int64 `json:"now,omitempty"`
	// error, check
	OK     *bool  `json:"ok,omitempty"`
	Code   string `json:"code,omitempty"`
	Reason string `json:"reason,omitempty"`
	// Ruling is the id of the ruling a refusal applies ("L-5", sdk.RuleError.Ruling), apart from
	// Reason, the words players read.
	Ruling string `json:"ruling,omitempty"`
	// chat, hello (recent lines)
	Chat  *ChatLine  `json:"chat,omitempty"`
	Chats []ChatLine `json:"chats,omitempty"`
	// members: the members that changed (joined, connected, left a seat...) and the ids of those
	// who left, since the last room or members message.
	Members []MemberInfo `json:"members,omitempty"`
	Gone    []int64      `json:"gone,omitempty"`
	// house_log: the lines, each naming its rule and hook.
	HouseLog []engine.HouseLine `json:"house_log,omitempty"`
	// bye of a kick: Until is when the player may join again (Unix milliseconds) after a
	// cooldown; Ban is true when the host banned them from the room.
	Until int64 `json:"until,omitempty"`
	Ban   bool  `json:"ban,omitempty"`
}

// You tells a connection who it is in the room.
type You struct {
	UserID   int64  `json:"user_id"`
	Name     string `json:"name"`
	MemberID int64  `json:"member_id"`
	Role     string `json:"role"`
	Seats    []int  `json:"seats"`
	Host     bool   `json:"host"`
}

// ChatLine is one chat message as clients receive it. Text is plain text, never markup.
type ChatLine struct {
	ID     int64     `json:"id"`
	UserID int64     `json:"user_id"`
	Name   string    `json:"name"`
	Text   string    `json:"text"`
	At     time.Time `json:"at"`
}

// Info is a room as its members (and the lobby) see it.
type Info struct {
	Code     string `json:"code"`
	Ruleset  string `json:"ruleset"`
	Mode     string `json:"mode"`
	HostID   int64  `json:"host_id"`
	Approval bool   `json:"approval"`
	Locked   bool   `json:"locked"`
	Capacity int    `json:"capacity"`
	// TurnSeconds is the turn clock (0: none).
	TurnSeconds int            `json:"turn_seconds,omitempty"`
	Options     map[string]any `json:"options"`
	Status      string         `json:"status"`
	Paused      bool           `json:"paused"`
	Game        *GameInfo      `json:"game,omitempty"`
	Members     []MemberInfo   `json:"members"`
	// HouseRules are the house rules enabled for the next games, in the order their hooks run.
	HouseRules []HouseRuleInfo `json:"house_rules,omitempty"`
	// Private rooms are never listed; Quick rooms deal by themselves at StartsAt (bots taking
	// the empty seats) or as soon as they are full (quick.go).
	Private  bool       `json:"private,omitempty"`
	Quick    bool       `json:"quick,omitempty"`
	StartsAt *time.Time `json:"starts_at,omitempty"`
}

// GameInfo is the current game's public status.
type GameInfo struct {
	Number int    `json:"number"`
	Status string `json:"status"`
	Phase  string `json:"phase"`
	Turn   int    `json:"turn"`
	Winner int    `json:"winner"`
	Seats  int    `json:"seats"`
	Seq    int    `json:"seq"`
	// HouseRules name the house rules this game started with and keeps, as "name vN".
	HouseRules []string `json:"house_rules,omitempty"`
	// LastMove is when the game last moved: its newest accepted action, or its start.
	LastMove time.Time `json:"last_move"`
}

// MemberInfo is one member as everyone in the room sees it.
type MemberInfo struct {
	ID        int64  `json:"id"`
	UserID    int64  `json:"user_id,omitempty"`
	Name      string `json:"name"`
	Role      string `json:"role"`
	Seat      int    `json:"seat"`
	BotLevel  int    `json:"bot_level,omitempty"`
	WantsSeat bool   `json:"wants_seat,omitempty"`
	// WantsNext marks a player who asked the host for the next round or game (asknext.go).
	WantsNext bool `json:"wants_next,omitempty"`
	Covered   bool `json:"covered,omitempty"`
	Connected bool `json:"connected"`
	// Avatar and Colour are the member's look (store.User.Avatar, Colour) as last seen when the
	// user joined or connected; empty when unknown (a bot, or nobody connected since a restart).
	Avatar string `json:"avatar,omitempty"`
	Colour string `json:"colour,omitempty"`
	// ClaimsSeat is the seat a pending member asks the host for, to take it back by name (a
	// guest from another device in a locked room or one with approval).
	ClaimsSeat *int `json:"claims_seat,omitempty"`
}

func encode(m Outgoing) []byte {
	m.V = ProtocolVersion
	b, err := json.Marshal(m)
	if err != nil {
		panic("room: encoding a message: " + err.Error())
	}
	return b
}

// viewMessage is encode(Outgoing{Type: MsgView, Seat: &seat, Game: game, Seq: &seq, View: view,
// Now: now}) written directly: the view is already JSON from the ruleset's encoder, and
// json.Marshal would scan (compact and escape) every view again for every connection.
func viewMessage(seat, game, seq int, now int64, view []byte) []byte {
	return appendViewMessage(make([]byte, 0, len(view)+96), seat, game, seq, now, view)
}

// appendViewMessage appends the view message to b.
func appendViewMessage(b []byte, seat, game, seq int, now int64, view []byte) []byte {
	b = append(b, `{"v":`...)
	b = strconv.AppendInt(b, ProtocolVersion, 10)
	b = append(b, `,"type":"view","seat":`...)
	b = strconv.AppendInt(b, int64(seat), 10)
	if game != 0 {
		b = append(b, `,"game":`...)
		b = strconv.AppendInt(b, int64(game), 10)
	}
	b = append(b, `,"seq":`...)
	b = strconv.AppendInt(b, int64(seq), 10)
	if len(view) > 0 {
		b = append(b, `,"view":`...)
		b = append(b, view...)
	}
	if now != 0 {
		b = append(b, `,"now":`...)
		b = strconv.AppendInt(b, now, 10)
	}
	return append(b, '}')
}

func errorMsg(id, code, reason string) []byte {
	return encode(Outgoing{Type: MsgError, ID: id, Code: code, Reason: reason})
}

// appendPatchMessage appends a patch message: the patch turns the view of seat the connection
// holds, of action count base, into the view at seq. It is written directly, as
// appendViewMessage is, and carries only what the connection does not already know
// (docs/protocol.md, "The patch message"): no "v" (the connection's version, told in hello), no
// "game" (a patch never crosses games), "seat" only when withSeat (the connection holds views of
// several seats), "base" only when it is not seq-1, and "now" only when it is not 0 (the caller
// passes it when the patch changes the deadlines, the only members read against the clock).
func appendPatchMessage(b []byte, seat, base, seq int, now int64, withSeat bool, patch []byte) []byte {
	b = append(b, `{"type":"patch"`...)
	if withSeat {
		b = append(b, `,"seat":`...)
		b = strconv.AppendInt(b, int64(seat), 10)
	}
	b = append(b, `,"seq":`...)
	b = strconv.AppendInt(b, int64(seq), 10)
	if base != seq-1 {
		b = append(b, `,"base":`...)
		b = strconv.AppendInt(b, int64(base), 10)
	}
	b = append(b, `,"patch":`...)
	b = append(b, patch...)
	if now != 0 {
		b = append(b, `,"now":`...)
		b = strconv.AppendInt(b, now, 10)
	}
	return append(b, '}')
}

// patchClock returns now when patch changes the view's deadlines (a deadline's "at" is read
// against the clock, Outgoing.Now), else 0: the patch message then goes without "now".
func patchClock(patch []byte, now int64) int64 {
	if bytes.Contains(patch, []byte(`"deadlines":`)) {
		return now
	}
	return 0
}

// acceptedMessage is the accepted answer to an act or deal (seq: the action count after an act,
// nil for a deal). A connection that speaks ProtocolPatches gets it without "v", as its patches.
func acceptedMessage(protocol int, id string, seq *int) []byte {
	if protocol != ProtocolPatches {
		return encode(Outgoing{Type: MsgAccepted, ID: id, Seq: seq})
	}
	// Written directly, as json.Marshal of {type, id omitempty, seq omitempty} writes it (the
	// test checks it byte for byte): one per act, not worth a reflective encoding.
	b := make([]byte, 0, 48+len(id))
	b = append(b, `{"type":"accepted"`...)
	if id != "" {
		b = append(b, `,"id":`...)
		b = sdk.AppendJSONString(b, id)
	}
	if seq != nil {
		b = append(b, `,"seq":`...)
		b = strconv.AppendInt(b, int64(*seq), 10)
	}
	return append(b, '}')
}
