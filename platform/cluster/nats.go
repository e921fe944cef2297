package cluster

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/nats-io/nats.go"
)

// NATSBus is the Bus of a cluster node: a connection to the NATS broker (the real nats-server),
// which reconnects by itself when the broker restarts; messages published while it is away are
// buffered by the client up to its limit.
type NATSBus struct {
	nc *nats.Conn
}

// DialNATS connects to the broker at url (nats://host:port, several separated by commas) as the
// node named node.
func DialNATS(ctx context.Context, url, node string, log *slog.Logger) (*NATSBus, error) {
	if log == nil {
		log = slog.Default()
	}
	opts := []nats.Option{
		nats.Name("cardhouse " + node),
		nats.MaxReconnects(-1),
		nats.ReconnectWait(250 * time.Millisecond),
		nats.Timeout(5 * time.Second),
		nats.DisconnectErrHandler(func(_ *nats.Conn, err error) {
			log.Warn("lost the connection to the broker; reconnecting", "err", err)
		}),
		nats.ReconnectHandler(func(nc *nats.Conn) { log.Info("reconnected to the broker", "url", nc.ConnectedUrl()) }),
		nats.ErrorHandler(func(_ *nats.Conn, sub *nats.Subscription, err error) {
			subject := ""
			if sub != nil {
				subject = sub.Subject
			}
			log.Error("broker error", "subject", subject, "err", err)
		}),
	}
	type dialed struct {
		nc  *nats.Conn
		err error
	}
	ch := make(chan dialed, 1)
	go func() {
		nc, err := nats.Connect(url, opts...)
		ch <- dialed{nc, err}
	}()
	select {
	case d := <-ch:
		if d.err != nil {
			return nil, fmt.Errorf("connecting to the broker at %s: %w", url, d.err)
		}
		return &NATSBus{nc: d.nc}, nil
	case <-ctx.Done():
		go func() {
			if d := <-ch; d.nc != nil {
				d.nc.Close()
			}
		}()
		return nil, fmt.Errorf("connecting to the broker at %s: %w", url, ctx.Err())
	}
}

func (b *NATSBus) Publish(subject string, data []byte) error {
	if err := checkSubject(subject); err != nil {
		return err
	}
	return b.translate(b.nc.Publish(subject, data))
}

func (b *NATSBus) Subscribe(pattern string, fn func(Msg)) (Subscription, error) {
	if err := checkPattern(pattern); err != nil {
		return nil, err
	}
	sub, err := b.nc.Subscribe(pattern, func(m *nats.Msg) {
		msg := Msg{Subject: m.Subject, Data: m.Data}
		if m.Reply != "" {
			msg.respond = m.Respond
		}
		fn(msg)
	})
	if err != nil {
		return nil, b.translate(err)
	}
	// Generous limits: a subscription falls behind only while its handler is slow, and what it
	// then drops (a slow consumer, reported by the error handler) is a relay of what the
	// database holds.
	if err := sub.SetPendingLimits(1<<20, 256<<20); err != nil {
		_ = sub.Unsubscribe()
		return nil, err
	}
	// Once Subscribe returns, the broker has the subscription: what is published after it, from
	// any node, reaches it (one round trip; subscriptions are few: per node and per room).
	if err := b.nc.Flush(); err != nil {
		_ = sub.Unsubscribe()
		return nil, b.translate(err)
	}
	return natsSub{sub}, nil
}

func (b *NATSBus) Request(ctx context.Context, subject string, data []byte) ([]byte, error) {
	if err := checkSubject(subject); err != nil {
		return nil, err
	}
	m, err := b.nc.RequestWithContext(ctx, subject, data)
	if err != nil {
		return nil, b.translate(err)
	}
	return m.Data, nil
}

// Connected reports whether the connection to the broker is up (it is not while nats.go
// reconnects).
func (b *NATSBus) Connected() bool { return b.nc.IsConnected() }

// Reconnects counts the connection's reconnections to the broker (cluster.Reconnects).
func (b *NATSBus) Reconnects() uint64 { return b.nc.Stats().Reconnects }

func (b *NATSBus) Close() error {
	b.nc.Close()
	return nil
}

func (b *NATSBus) translate(err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, nats.ErrNoResponders):
		return ErrNoResponders
	case errors.Is(err, nats.ErrConnectionClosed):
		return ErrClosed
	}
	return err
}

type natsSub struct{ sub *nats.Subscription }

func (s natsSub) Stop() error { return s.sub.Unsubscribe() }
