package cluster

import (
	"context"
	"sync"
)

// LocalBus is the Bus of a single node: every subscription is in this process. It has NATS's
// semantics (subjects, wildcards, order per subscription, requests with an inbox) so that code
// written against Bus behaves the same on one node as in a cluster.
type LocalBus struct {
	mu     sync.Mutex
	subs   map[*localSub]struct{}
	closed bool
}

// NewLocalBus returns an empty in-process bus.
func NewLocalBus() *LocalBus { return &LocalBus{subs: map[*localSub]struct{}{}} }

// localSub delivers its messages in order from its own goroutine, so a slow handler never holds
// up a publisher or another subscription. Its queue is unbounded: on one node the bus carries
// only the room's control messages, never the views.
type localSub struct {
	bus     *LocalBus
	pattern string
	fn      func(Msg)

	mu      sync.Mutex
	queue   []Msg
	wake    chan struct{}
	stopped bool
	done    chan struct{}
}

func (b *LocalBus) Publish(subject string, data []byte) error {
	if err := checkSubject(subject); err != nil {
		return err
	}
	_, err := b.deliver(Msg{Subject: subject, Data: data})
	return err
}

// deliver hands m to every matching subscription, each with its own copy of the bytes (the
// publisher may reuse its buffer, as with a network connection); it reports how many got it.
func (b *LocalBus) deliver(m Msg) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return 0, ErrClosed
	}
	n := 0
	for s := range b.subs {
		if matches(s.pattern, m.Subject) {
			c := m
			c.Data = append([]byte(nil), m.Data...)
			s.push(c)
			n++
		}
	}
	return n, nil
}

func (b *LocalBus) Subscribe(pattern string, fn func(Msg)) (Subscription, error) {
	if err := checkPattern(pattern); err != nil {
		return nil, err
	}
	s := &localSub{bus: b, pattern: pattern, fn: fn, wake: make(chan struct{}, 1), done: make(chan struct{})}
	b.mu.Lock()
	if b.closed {
		b.mu.Unlock()
		return nil, ErrClosed
	}
	b.subs[s] = struct{}{}
	b.mu.Unlock()
	go s.run()
	return s, nil
}

func (b *LocalBus) Request(ctx context.Context, subject string, data []byte) ([]byte, error) {
	if err := checkSubject(subject); err != nil {
		return nil, err
	}
	answer := make(chan []byte, 1)
	var once sync.Once
	respond := func(d []byte) error {
		once.Do(func() { answer <- append([]byte(nil), d...) })
		return nil
	}
	n, err := b.deliver(Msg{Subject: subject, Data: data, respond: respond})
	if err != nil {
		return nil, err
	}
	if n == 0 {
		return nil, ErrNoResponders
	}
	select {
	case d := <-answer:
		return d, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// Connected reports whether the bus is open (it has no broker to lose).
func (b *LocalBus) Connected() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return !b.closed
}

// Close stops every subscription; messages queued and not yet handled are dropped.
func (b *LocalBus) Close() error {
	b.mu.Lock()
	subs := b.subs
	b.subs, b.closed = map[*localSub]struct{}{}, true
	b.mu.Unlock()
	for s := range subs {
		s.stop()
	}
	return nil
}

func (s *localSub) push(m Msg) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stopped {
		return
	}
	s.queue = append(s.queue, m)
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

func (s *localSub) run() {
	defer close(s.done)
	var batch []Msg
	for range s.wake {
		s.mu.Lock()
		batch, s.queue = s.queue, batch[:0]
		stopped := s.stopped
		s.mu.Unlock()
		if stopped {
			return
		}
		for _, m := range batch {
			s.mu.Lock()
			stopped := s.stopped
			s.mu.Unlock()
			if stopped {
				return
			}
			s.fn(m)
		}
		clear(batch)
	}
}

func (s *localSub) stop() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.stopped {
		s.stopped, s.queue = true, nil
		close(s.wake)
	}
}

// Stop ends the subscription. A handler that is running finishes; no later message is handled.
func (s *localSub) Stop() error {
	s.bus.mu.Lock()
	delete(s.bus.subs, s)
	s.bus.mu.Unlock()
	s.stop()
	return nil
}
