package room

import (
	"cardhouse/sdk"
	"context"
	"errors"
	"time"
)

func (r *Room) run() {
	defer close(r.done)
	defer r.m.forget(r)
	for {
		select {
		case f := <-r.inbox:
			f()
			r.flushClients()
		case <-r.quit:
			// Finish what is already queued (in-flight actions), then say goodbye.
			for {
				select {
				case f := <-r.inbox:
					f()
					continue
				default:
				}
				break
			}
			r.stopTimers()
			for c := range r.clients {
				c.push(encode(Outgoing{Type: MsgBye, Code: "going_away", Reason: "the server is shutting down"}))
				c.drop(CloseGoingAway, "server shutting down")
			}
			return
		}
	}
}

// flushClients has every connection's sink write what the actor queued for it: one write per
// connection for all that one thing (an action, a join) sent it.
func (r *Room) flushClients() {
	for c := range r.clients {
		c.flush()
	}
}

func (r *Room) stop() {
	r.stopOnce.Do(func() { close(r.quit) })
	<-r.done
}

// post queues f for the actor without waiting for it (timers, detaches).
func (r *Room) post(f func()) {
	go func() {
		select {
		case r.inbox <- f:
		case <-r.quit:
		case <-r.done:
		}
	}()
}

// do runs f on the actor and returns its error. It waits for room in the bounded inbox no longer
// than ctx allows.
func (r *Room) do(ctx context.Context, f func() error) error {
	res := make(chan error, 1)
	select {
	case r.inbox <- func() { res <- f() }:
	case <-ctx.Done():
		return errf(KindUnavailable, "busy", "the room is busy; try again")
	case <-r.quit:
		return ErrClosed
	}
	select {
	case err := <-res:
		return err
	case <-r.done:
		select {
		case err := <-res: // f ran, and the room stopped after it (f closed it)
			return err
		default:
			return ErrClosed
		}
	}
}

// call runs one engine call with a deadline and records it. A failure that is not a refusal is
// tried once more: a crashed plugin process is relaunched by its supervisor on the next call, and
// the room still holds the stored state, so the game goes on.
func (r *Room) call(op string, f func(ctx context.Context) error) error {
	if r.engine == nil {
		return errf(KindUnavailable, "no_ruleset", "ruleset %q is not available on this server", r.room.Ruleset)
	}
	var err error
	for attempt := range 2 {
		ctx, cancel := context.WithTimeout(context.Background(), r.cfg.CallTimeout)
		start := time.Now()
		err = f(ctx)
		cancel()
		result := "ok"
		switch {
		case err == nil:
		case errors.Is(err, sdk.ErrIllegal):
			result = "refused"
		default:
			result = "failed"
		}
		r.cfg.Metrics.EngineCalls.WithLabelValues(r.room.Ruleset, op, result).Observe(time.Since(start).Seconds())
		if err == nil || errors.Is(err, sdk.ErrIllegal) {
			return err
		}
		r.cfg.Metrics.Errors.WithLabelValues("engine").Inc()
		r.log.Warn("engine call failed", "op", op, "attempt", attempt+1, "err", err)
	}
	return err
}

func engineErr(err error) error {
	if err == nil {
		return nil
	}
	if re, ok := sdk.AsRefusal(err); ok {
		return &Error{Kind: KindConflict, Code: re.Code, Reason: re.Reason, Ruling: re.Ruling, Fault: re.Fault}
	}
	if e, ok := AsError(err); ok {
		return e
	}
	return errf(KindUnavailable, "engine_failure", "the game engine failed; the game is unchanged, try again (%v)", err)
}

func (r *Room) stopAndForget() {
	r.stopOnce.Do(func() { close(r.quit) })
}
