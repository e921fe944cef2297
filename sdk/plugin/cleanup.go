package plugin

import (
	"sync"
	"time"

	goplugin "github.com/hashicorp/go-plugin"
)

// live is every Process not yet closed, for CleanupClients.
var live = struct {
	sync.Mutex
	set map[*Process]struct{}
}{set: map[*Process]struct{}{}}

func register(p *Process) {
	live.Lock()
	live.set[p] = struct{}{}
	live.Unlock()
}

func unregister(p *Process) {
	live.Lock()
	delete(live.set, p)
	live.Unlock()
}

var cleanupOnce sync.Once

// CleanupClients stops every plugin process of this host: call it once when the host exits
// (defer it in main, after the server has drained). It closes every Process (each stops
// gracefully, then is killed after its KillTimeout), then stops any other go-plugin client marked
// Managed, and returns after at most about timeout even if a process will not die. Later calls do
// nothing.
func CleanupClients(timeout time.Duration) {
	cleanupOnce.Do(func() {
		live.Lock()
		procs := make([]*Process, 0, len(live.set))
		for p := range live.set {
			procs = append(procs, p)
		}
		live.Unlock()
		done := make(chan struct{})
		go func() {
			var wg sync.WaitGroup
			for _, p := range procs {
				wg.Add(1)
				go func() { defer wg.Done(); _ = p.Close() }()
			}
			wg.Wait()
			goplugin.CleanupClients()
			close(done)
		}()
		select {
		case <-done:
		case <-time.After(timeout):
		}
	})
}
