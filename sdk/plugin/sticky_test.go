package plugin_test

import (
	"errors"
	"math/rand/v2"
	"sync"
	"syscall"
	"testing"
	"time"

	"cardhouse/sdk/engine"
	"cardhouse/sdk/plugin"
	"cardhouse/sdk/rulesettest"
)

// TestStickyPluginKilledAtRandomMoments plays games through the real plugin process with its
// sticky cache, the host keeping only the state it stored last and the actions since, while the
// process is SIGKILLed at random moments: between calls (the run's restarts) and, from another
// goroutine, whenever it happens to be (mid-call too). A call that dies with the process is tried
// again, as a room does; every step, bot choice, check and inspection must still be byte for byte
// the in-process engine's from the whole state.
func TestStickyPluginKilledAtRandomMoments(t *testing.T) {
	t.Parallel()
	p := newProcess(t, plugin.Config{})
	kill := func(t testing.TB) {
		if pid := p.Stats().PID; pid != 0 && !p.Exited() {
			if err := syscall.Kill(pid, syscall.SIGKILL); err != nil && !errors.Is(err, syscall.ESRCH) {
				t.Error(err)
			}
		}
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		rng := rand.New(rand.NewPCG(7, 7))
		for {
			select {
			case <-stop:
				return
			case <-time.After(time.Duration(5+rng.IntN(30)) * time.Millisecond):
				kill(t)
			}
		}
	}()
	rulesettest.CheckSticky(t, p, testEngine(), rulesettest.StickyConfig{
		Game:    engine.NewGameRequest{Seats: 3, Seed: 11},
		Games:   60,
		Fresh:   testEngine,
		Restart: func(t testing.TB, e engine.Engine) engine.Engine { kill(t); return e },
		Retry:   func(err error) bool { return errors.Is(err, plugin.ErrCrashed) },
		Seed:    3,
	})
	close(stop)
	wg.Wait()
	if s := p.Stats(); s.Crashes == 0 || s.NeedState == 0 {
		t.Errorf("stats %+v: want crashes and calls answered ErrNeedState", s)
	} else {
		t.Logf("%d launches, %d crashes, %d calls, %d answered ErrNeedState", s.Launches, s.Crashes, s.Calls, s.NeedState)
	}
}
