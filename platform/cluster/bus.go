package cluster

import (
	"context"
	"errors"
	"fmt"
	"strings"
)

// Bus carries messages between the nodes of a cluster. Subjects are dot-separated tokens, as in
// NATS: a subscription's subject may hold "*" (any one token) and, as its last token, ">" (one
// or more tokens). Delivery is at most once and in order per publisher and subject; whatever
// must survive a node's death is in the database, never only on the bus.
type Bus interface {
	// Publish sends data to every subscription of subject.
	Publish(subject string, data []byte) error
	// Subscribe calls fn with every message published to a subject the pattern matches, one
	// message at a time per subscription, until the subscription is stopped: every message
	// published (by any node) after Subscribe returns. fn must not keep msg.Data after it returns
	// unless it copies it.
	Subscribe(pattern string, fn func(Msg)) (Subscription, error)
	// Request publishes data to subject with a reply subject and waits for the first answer
	// (Msg.Respond) until ctx ends. With no subscriber the answer is ErrNoResponders.
	Request(ctx context.Context, subject string, data []byte) ([]byte, error)
	// Close stops every subscription and the connection.
	Close() error
}

// Subscription is one Subscribe's; Stop ends it (later messages are not delivered).
type Subscription interface {
	Stop() error
}

// Msg is one message: its subject, its bytes, and, for a Request, a way to answer it.
type Msg struct {
	Subject string
	Data    []byte
	respond func([]byte) error
}

// Respond answers a Request; a message that is not one returns ErrNoReply.
func (m Msg) Respond(data []byte) error {
	if m.respond == nil {
		return ErrNoReply
	}
	return m.respond(data)
}

// ErrNoResponders is the answer to a Request that no subscription heard.
var ErrNoResponders = errors.New("no node answers on that subject")

// ErrNoReply is returned by Respond on a message that was not a Request.
var ErrNoReply = errors.New("the message asks for no answer")

// ErrClosed is returned by a closed Bus.
var ErrClosed = errors.New("the bus is closed")

// checkSubject refuses a subject to publish to that NATS would refuse: empty tokens, white space,
// wildcards.
func checkSubject(s string) error {
	if err := checkTokens(s); err != nil {
		return err
	}
	if strings.ContainsAny(s, "*>") {
		return fmt.Errorf("subject %q: wildcards are for subscriptions", s)
	}
	return nil
}

// checkPattern refuses a subscription's subject that is malformed: empty tokens, white space, a
// wildcard inside a token, ">" before the last token.
func checkPattern(p string) error {
	if err := checkTokens(p); err != nil {
		return err
	}
	toks := strings.Split(p, ".")
	for i, t := range toks {
		if strings.ContainsAny(t, "*>") && len(t) > 1 {
			return fmt.Errorf("subject %q: a wildcard is a whole token", p)
		}
		if t == ">" && i != len(toks)-1 {
			return fmt.Errorf("subject %q: > must be the last token", p)
		}
	}
	return nil
}

func checkTokens(s string) error {
	if s == "" {
		return errors.New("an empty subject")
	}
	if strings.ContainsAny(s, " \t\r\n") {
		return fmt.Errorf("subject %q holds white space", s)
	}
	for _, t := range strings.Split(s, ".") {
		if t == "" {
			return fmt.Errorf("subject %q has an empty token", s)
		}
	}
	return nil
}

// matches reports whether subject falls under pattern (both well formed).
func matches(pattern, subject string) bool {
	for {
		p, prest, pmore := strings.Cut(pattern, ".")
		s, srest, smore := strings.Cut(subject, ".")
		switch {
		case p == ">":
			return true
		case p != "*" && p != s:
			return false
		case !pmore || !smore:
			return pmore == smore
		}
		pattern, subject = prest, srest
	}
}
