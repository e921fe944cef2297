package room

import (
	"cardhouse/platform/store"
	"context"
	"time"
)

// Handle runs one message a client sent and answers that client only (the views of an accepted
// action go to everyone). It returns an error only when the room cannot take the message.
func (r *Room) Handle(ctx context.Context, u *store.User, c *Client, msg Incoming) error {
	start := time.Now()
	return r.do(ctx, func() error {
		reply := func(err error, ok []byte) {
			if err == nil {
				if ok != nil {
					c.push(ok)
				}
				return
			}
			out := Outgoing{Type: MsgError, ID: msg.ID, Code: "error", Reason: err.Error()}
			if e, isErr := AsError(err); isErr {
				out.Code, out.Reason, out.Ruling = e.Code, e.Reason, e.Ruling
			}
			c.push(encode(out))
		}
		switch msg.Type {
		case MsgAct:
			if msg.Action == nil {
				reply(errf(KindInvalid, "bad_message", "an act message needs an action"), nil)
				return nil
			}
			err := r.act(u.ID, msg.Seat, *msg.Action, start)
			seq := 0
			if r.game != nil {
				seq = r.game.Seq
			}
			reply(err, acceptedMessage(c.Protocol, msg.ID, &seq))
		case MsgCheck:
			if msg.Action == nil {
				reply(errf(KindInvalid, "bad_message", "a check message needs an action"), nil)
				return nil
			}
			err := r.check(u.ID, msg.Seat, *msg.Action)
			ok := err == nil
			out := Outgoing{Type: MsgCheckRes, ID: msg.ID, OK: &ok}
			if e, isErr := AsError(err); isErr {
				out.Code, out.Reason, out.Ruling = e.Code, e.Reason, e.Ruling
			} else if err != nil {
				out.Code, out.Reason = "error", err.Error()
			}
			c.push(encode(out))
		case MsgDeal:
			reply(r.deal(u), acceptedMessage(c.Protocol, msg.ID, nil))
		case MsgChat:
			_, err := r.say(u, msg.Text)
			reply(err, nil)
		case MsgPing:
			c.push(PongMessage(msg.ID))
		case MsgAskNext:
			reply(r.askNext(u.ID), acceptedMessage(c.Protocol, msg.ID, nil))
		case MsgResync:
			// A client that missed a patch: its full views, from which the next patches go on.
			r.sendViews(c)
		default:
			reply(errf(KindInvalid, "unknown_type", "unknown message type %q (want act, check, deal, ask_next, chat, ping or resync)", msg.Type), nil)
		}
		return nil
	})
}
