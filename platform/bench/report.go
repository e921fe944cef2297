package bench

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"text/tabwriter"
	"time"
)

// Result is what a run measured. Counts are of the measured window unless said otherwise.
type Result struct {
	Rooms      int      `json:"rooms"`
	Spectators int      `json:"spectators_per_room"`
	Sockets    int      `json:"sockets"`
	Variants   []string `json:"variants"`
	Database   string   `json:"database"`
	// Protocol is the protocol version the sockets spoke.
	Protocol int `json:"protocol"`
	// Server is the targeted URL, or URLs ("" when the bench started its own).
	Server string `json:"server,omitempty"`
	// Nodes is the number of servers the sockets were spread over; Cluster is set when they run
	// as nodes of a cluster (a started node with --cluster, or several targeted).
	Nodes   int           `json:"nodes"`
	Cluster bool          `json:"cluster"`
	Think   time.Duration `json:"-"`
	Warmup  time.Duration `json:"-"`
	// Window is the measured window as it ran.
	Window time.Duration `json:"-"`

	// Actions are the players' actions accepted in the window; ActionsPerSecond is per second of
	// the window.
	Actions          int64   `json:"actions"`
	ActionsPerSecond float64 `json:"actions_per_second"`
	// Applied counts every action the server applied and stored in the window: the players', the
	// clock's (deadlines) and the host's deals between rounds (the advance of seq).
	Applied int64 `json:"applied"`
	// Latency is from writing an act to reading the view it produced, over every accepted act.
	Latency       Latency `json:"latency_ms"`
	GamesFinished int64   `json:"games_finished"`
	// IdleRooms counts the rooms in which no player's action was accepted in the window.
	IdleRooms int   `json:"idle_rooms"`
	Deals     int64 `json:"deals"`
	// Refusals are acts the rules refused (another seat acted first), by code.
	Refusals map[string]int64 `json:"refusals"`
	// Errors are everything else that went wrong from the first deal on (protocol, store or engine
	// errors, lost connections), by kind; FirstErrors shows a few of them.
	Errors      map[string]int64 `json:"errors"`
	FirstErrors []string         `json:"first_errors,omitempty"`

	// Commits counts the server's transactions in the window, storing Committed actions in all
	// (its group commit counters; Commits is -1 when the server did not give them).
	Commits   int64 `json:"commits"`
	Committed int64 `json:"committed_actions"`
	// Stages are the latencies of an action's stages inside the server in the window, from its
	// histograms (cardhouse_act_seconds, the plugin's act calls, the commit wait).
	Stages []Stage `json:"server_stages,omitempty"`

	// ServerCPU is the CPU seconds (user+system) of the server and its plugin processes in the
	// window; -1 when unknown (a targeted server without ServerPID).
	ServerCPU float64 `json:"server_cpu_seconds"`
	// ActionsPerServerCPU is Actions / ServerCPU.
	ActionsPerServerCPU float64 `json:"actions_per_server_cpu_second"`
	// ServerPeakRSS is the peak of the summed resident sets of the server and its plugins, sampled
	// every 250 ms from the server's start to the window's end (bytes; -1 unknown).
	ServerPeakRSS int64 `json:"server_peak_rss_bytes"`
	// ServerProcs are the server's processes with each one's own peak (VmHWM).
	ServerProcs []Proc `json:"server_processes,omitempty"`
	// ClientCPU is the CPU seconds of this process (the load client) in the window.
	ClientCPU float64 `json:"client_cpu_seconds"`
	// Received is the bytes of the messages the sockets read in the window (measured and drained);
	// BytesPerAction is Received per applied action per socket of its room: what one action costs
	// each connection on the wire, every message counted (views or patches, answers, room updates).
	Received       int64   `json:"received_bytes"`
	BytesPerAction float64 `json:"bytes_per_action_per_socket"`
	// ClientCPUPerAction is ClientCPU per applied action, in microseconds: reading, patching and
	// deciding on the views of one action, every socket together.
	ClientCPUPerAction float64 `json:"client_cpu_us_per_action"`
	// ServerLogLines counts the lines a started server logged (at warn and above).
	ServerLogLines int      `json:"server_log_lines"`
	ServerLogTail  []string `json:"server_log_tail,omitempty"`

	// CrossNodeSockets counts the sockets set up on a node that does not run their room (relayed
	// to its owner over the bus); CrossNodeSocketShare is their share of Sockets.
	CrossNodeSockets     int     `json:"cross_node_sockets"`
	CrossNodeSocketShare float64 `json:"cross_node_socket_share"`
	// RelayedActions are the accepted actions (of Actions) sent on a socket relayed to the room's
	// owner, RelayedActionShare their share; UnknownOwnerActions those sent in a room whose owner
	// the bench could no longer tell (it moved after a node went), in neither count.
	RelayedActions      int64   `json:"relayed_actions"`
	RelayedActionShare  float64 `json:"relayed_action_share"`
	UnknownOwnerActions int64   `json:"unknown_owner_actions"`
	// Messages are the messages the sockets read in the window, RelayedMessages those read on a
	// relayed socket (each crossed the bus from the owner).
	Messages        int64 `json:"messages"`
	RelayedMessages int64 `json:"relayed_messages"`
	// Reconnects counts the sockets opened again after the server went away (1001) or the socket
	// dropped, over the whole run; MaxReconnectGap is the longest time from a drop to the new
	// socket. Unanswered counts the window's acts whose answer was lost with their socket: not
	// accepted, not an error (the full view after the reconnection shows whether they applied).
	Reconnects      int64         `json:"reconnects"`
	MaxReconnectGap time.Duration `json:"-"`
	MaxReconnectMs  float64       `json:"max_reconnect_ms"`
	Unanswered      int64         `json:"unanswered_across_reconnects"`
	// SilentAfterReconnect counts the seated players whose socket came back and who had no act
	// accepted after it: should be 0 (each plays on from the full view).
	SilentAfterReconnect int `json:"silent_after_reconnect"`
	// StoppedNode is the node the bench stopped mid-window (Config.StopNodeAfter), if any.
	StoppedNode string `json:"stopped_node,omitempty"`
	// NodeCPU is each node's CPU seconds in the window (server and plugins; a stopped node's up to
	// its stop), in the order of the nodes.
	NodeCPU []float64 `json:"node_cpu_seconds,omitempty"`
	// ServerCPUPerAction is ServerCPU per accepted action, in microseconds.
	ServerCPUPerAction float64 `json:"server_cpu_us_per_action"`
	// BrokerCPU is the broker's CPU seconds in the window (Config.BrokerPID; -1 unknown), and
	// CPUPerActionWithBroker the nodes' and the broker's per accepted action, in microseconds.
	BrokerCPU              float64 `json:"broker_cpu_seconds"`
	CPUPerActionWithBroker float64 `json:"cpu_us_per_action_with_broker,omitempty"`
	// MetricsNodes counts the nodes whose /metrics were read before and after the window: the
	// commit and stage figures, and ClusterMetrics, are their sum. ClusterMetrics are the nodes'
	// cluster, routing, lease and bus series (any cardhouse_ series named for them: cluster,
	// relay, forward, bus, lease...), summed over labels and nodes: a counter's change in the
	// window, a gauge's level at its end (cardhouse_cluster_relayed_sockets counts each relayed
	// socket twice, on its edge and on its owner).
	MetricsNodes int `json:"metrics_nodes"`
	// FrozenNode says the node of StoppedNode was frozen (Config.FreezeNode), not stopped.
	FrozenNode     bool               `json:"frozen_node,omitempty"`
	ClusterMetrics map[string]float64 `json:"cluster_metrics,omitempty"`

	// InProcess, when set, is the same games played on the engines in-process (RunInProcess).
	InProcess *InProcessResult `json:"in_process,omitempty"`
	// Overhead is the server's CPU per action over the in-process engines' (0 when unknown).
	Overhead float64 `json:"overhead,omitempty"`

	ThinkMs       float64 `json:"think_ms"`
	WarmupSeconds float64 `json:"warmup_seconds"`
	WindowSeconds float64 `json:"window_seconds"`
}

// Proc is one process of the server: its CPU seconds in the window and its own peak (VmHWM).
type Proc struct {
	PID int `json:"pid"`
	// Node is the node (1, 2...) the process belongs to.
	Node    int     `json:"node"`
	Command string  `json:"command"`
	CPU     float64 `json:"cpu_seconds"`
	HWM     int64   `json:"vm_hwm_bytes"`
}

// Latency summarises the latency samples in milliseconds.
type Latency struct {
	Samples int     `json:"samples"`
	Mean    float64 `json:"mean"`
	P50     float64 `json:"p50"`
	P95     float64 `json:"p95"`
	P99     float64 `json:"p99"`
	Max     float64 `json:"max"`
}

// latencyOf summarises samples in microseconds (nearest-rank percentiles). It sorts samples.
func latencyOf(samples []int32) Latency {
	l := Latency{Samples: len(samples)}
	if len(samples) == 0 {
		return l
	}
	slices.Sort(samples)
	var sum int64
	for _, s := range samples {
		sum += int64(s)
	}
	rank := func(p float64) float64 {
		i := int(p*float64(len(samples))+0.999999) - 1
		return float64(samples[min(max(i, 0), len(samples)-1)]) / 1000
	}
	l.Mean = float64(sum) / float64(len(samples)) / 1000
	l.P50, l.P95, l.P99 = rank(0.50), rank(0.95), rank(0.99)
	l.Max = float64(samples[len(samples)-1]) / 1000
	return l
}

// tally sums the players' counts into r. Call it once every connection is closed.
func (res *Result) tally(rooms []*benchRoom, r *run) {
	res.Refusals, res.Errors = map[string]int64{}, map[string]int64{}
	var samples []int32
	for _, rm := range rooms {
		var roomActions int64
		for _, p := range slices.Concat(rm.players, rm.specs) {
			p.mu.Lock()
			roomActions += p.st.accepted
			res.Actions += p.st.accepted
			samples = append(samples, p.st.samples...)
			res.Applied += p.st.applied
			res.Received += p.st.received
			res.GamesFinished += p.st.games
			res.Deals += p.st.deals
			res.RelayedActions += p.st.relayed
			res.UnknownOwnerActions += p.st.unknownOwner
			res.Messages += p.st.counted
			res.RelayedMessages += p.st.relayedMsgs
			res.Reconnects += p.st.reconnects
			res.MaxReconnectGap = max(res.MaxReconnectGap, p.st.maxGap)
			res.Unanswered += p.st.unanswered
			if p.st.silent {
				res.SilentAfterReconnect++
			}
			for k, v := range p.st.refusals {
				res.Refusals[k] += v
			}
			for k, v := range p.st.errors {
				res.Errors[k] += v
			}
			p.mu.Unlock()
		}
		if roomActions == 0 {
			res.IdleRooms++
		}
	}
	r.mu.Lock()
	res.FirstErrors = slices.Clone(r.firstErrors)
	r.mu.Unlock()
	res.Latency = latencyOf(samples)
	res.finish()
}

// finish computes the rates and the JSON forms of the durations.
func (res *Result) finish() {
	if s := res.Window.Seconds(); s > 0 {
		res.ActionsPerSecond = float64(res.Actions) / s
	}
	if res.ServerCPU > 0 {
		res.ActionsPerServerCPU = float64(res.Actions) / res.ServerCPU
	}
	if res.ServerCPU > 0 && res.Actions > 0 {
		res.ServerCPUPerAction = 1e6 * res.ServerCPU / float64(res.Actions)
		if res.BrokerCPU >= 0 {
			res.CPUPerActionWithBroker = 1e6 * (res.ServerCPU + res.BrokerCPU) / float64(res.Actions)
		}
	}
	if res.Sockets > 0 {
		res.CrossNodeSocketShare = float64(res.CrossNodeSockets) / float64(res.Sockets)
	}
	if res.Actions > 0 {
		res.RelayedActionShare = float64(res.RelayedActions) / float64(res.Actions)
	}
	res.MaxReconnectMs = float64(res.MaxReconnectGap) / float64(time.Millisecond)
	if res.Applied > 0 && res.Sockets > 0 {
		// An action reaches the sockets of its own room only.
		res.BytesPerAction = float64(res.Received) / float64(res.Applied) / float64(Seats+res.Spectators)
		res.ClientCPUPerAction = 1e6 * res.ClientCPU / float64(res.Applied)
	}
	res.ThinkMs = float64(res.Think) / float64(time.Millisecond)
	res.WarmupSeconds = res.Warmup.Seconds()
	res.WindowSeconds = res.Window.Seconds()
	if res.InProcess != nil && res.ServerCPU > 0 && res.Actions > 0 && res.InProcess.EngineCPUPerAction > 0 {
		res.Overhead = (res.ServerCPU / float64(res.Actions)) / res.InProcess.EngineCPUPerAction
	}
}

// SetInProcess attaches an in-process run for the overhead ratio.
func (res *Result) SetInProcess(in *InProcessResult) {
	res.InProcess = in
	res.finish()
}

// total sums a count map.
func total(m map[string]int64) int64 {
	var n int64
	for _, v := range m {
		n += v
	}
	return n
}

// byCount formats a count map as "code n, code n" by descending count.
func byCount(m map[string]int64) string {
	keys := slices.Collect(maps.Keys(m))
	slices.SortFunc(keys, func(a, b string) int {
		if m[a] != m[b] {
			return int(m[b] - m[a])
		}
		return strings.Compare(a, b)
	})
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s %d", k, m[k])
	}
	return strings.Join(parts, ", ")
}

func mb(b int64) string { return fmt.Sprintf("%.1f MB", float64(b)/(1<<20)) }

// Print writes the result as a table.
func (res *Result) Print(w io.Writer) error {
	think := "none"
	if res.Think > 0 {
		think = res.Think.String()
	}
	where := "started by the bench"
	if res.Server != "" {
		where = res.Server
	}
	if res.Nodes > 1 {
		where = fmt.Sprintf("%s (%d nodes)", where, res.Nodes)
	} else if res.Cluster {
		where += " (a cluster of one node)"
	}
	fmt.Fprintf(w, "cardhouse bench: %d rooms x %d players + %d spectators = %d sockets; variants %s; think %s; database %s; protocol v%d; server %s\n",
		res.Rooms, Seats, res.Spectators, res.Sockets, strings.Join(res.Variants, ","), think, res.Database, res.Protocol, where)
	fmt.Fprintf(w, "warm-up %s, measured window %.1fs\n\n", res.Warmup, res.Window.Seconds())
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	row := func(k, format string, args ...any) { fmt.Fprintf(tw, "%s\t"+format+"\n", append([]any{k}, args...)...) }
	row("FIGURE", "VALUE")
	row("accepted actions", "%d", res.Actions)
	row("actions/s", "%.0f", res.ActionsPerSecond)
	l := res.Latency
	row("latency p50 / p95 / p99 / max", "%.2f / %.2f / %.2f / %.2f ms (mean %.2f, %d samples)", l.P50, l.P95, l.P99, l.Max, l.Mean, l.Samples)
	row("actions applied by the server", "%d (players', clock's, deals between rounds)", res.Applied)
	row("games finished", "%d", res.GamesFinished)
	row("rooms without an accepted action", "%d", res.IdleRooms)
	refusals := fmt.Sprintf("%d", total(res.Refusals))
	if len(res.Refusals) > 0 {
		refusals += " (" + byCount(res.Refusals) + ")"
	}
	row("refusals (rules, races)", "%s", refusals)
	errs := fmt.Sprintf("%d", total(res.Errors))
	if len(res.Errors) > 0 {
		errs += " (" + byCount(res.Errors) + ")"
	}
	row("errors", "%s", errs)
	if res.Nodes > 1 {
		row("cross-node sockets", "%d of %d (%.0f%%), relayed to their room's node over the bus", res.CrossNodeSockets, res.Sockets, 100*res.CrossNodeSocketShare)
		unknown := ""
		if res.UnknownOwnerActions > 0 {
			unknown = fmt.Sprintf("; %d in rooms that moved, owner unknown", res.UnknownOwnerActions)
		}
		row("cross-node actions", "%d of %d (%.0f%%) sent on a relayed socket%s", res.RelayedActions, res.Actions, 100*res.RelayedActionShare, unknown)
		row("cross-node messages", "%d of %d read (%.0f%%) crossed the bus", res.RelayedMessages, res.Messages, 100*float64(res.RelayedMessages)/max(float64(res.Messages), 1))
	}
	if res.Reconnects > 0 || res.StoppedNode != "" {
		row("reconnects", "%d (longest %.0f ms from the drop to the new socket); %d acts unanswered across them; %d players silent since", res.Reconnects, res.MaxReconnectMs, res.Unanswered, res.SilentAfterReconnect)
	}
	if res.StoppedNode != "" {
		how := "SIGTERM"
		if res.FrozenNode {
			how = "SIGSTOP: frozen, then killed at the window's end"
		}
		row("node stopped mid-window", "%s (%s)", res.StoppedNode, how)
	}
	if res.Nodes > 1 && res.MetricsNodes < res.Nodes {
		row("nodes' /metrics read", "%d of %d", res.MetricsNodes, res.Nodes)
	}
	if res.Commits > 0 {
		row("transactions (group commits)", "%d, %.2f actions each", res.Commits, float64(res.Committed)/float64(res.Commits))
	}
	for _, s := range res.Stages {
		row("server: "+s.Name, "p50 %.2f / p99 %.2f ms, %.2f%% over 10 ms (%d)", s.P50, s.P99, 100*s.Over10ms, s.Count)
	}
	if res.ServerCPU >= 0 {
		row("server CPU", "%.2f s (%.2f cores)", res.ServerCPU, res.ServerCPU/max(res.Window.Seconds(), 1e-9))
		row("actions per server CPU-second", "%.0f (%.0f us of server CPU per action)", res.ActionsPerServerCPU, res.ServerCPUPerAction)
		if len(res.NodeCPU) > 1 {
			var per []string
			for i, c := range res.NodeCPU {
				per = append(per, fmt.Sprintf("node %d %.2f s", i+1, c))
			}
			row("server CPU per node", "%s", strings.Join(per, "; "))
		}
		if res.BrokerCPU >= 0 {
			row("broker CPU", "%.2f s; nodes and broker %.0f us per action", res.BrokerCPU, res.CPUPerActionWithBroker)
		}
	} else {
		row("server CPU", "unknown (give the server's pid)")
	}
	if res.ServerPeakRSS >= 0 {
		row("server peak RSS (sum, sampled)", "%s", mb(res.ServerPeakRSS))
		var hwm, cpu []string
		for _, p := range res.ServerProcs {
			name := p.Command
			if res.Nodes > 1 {
				name = fmt.Sprintf("%d:%s", p.Node, p.Command)
			}
			hwm = append(hwm, fmt.Sprintf("%s %s", name, mb(p.HWM)))
			cpu = append(cpu, fmt.Sprintf("%s %.2f s", name, p.CPU))
		}
		row("server CPU per process", "%s", strings.Join(cpu, "; "))
		row("server VmHWM per process", "%s", strings.Join(hwm, "; "))
	}
	row("client CPU", "%.2f s (%.2f cores), %.1f us per applied action", res.ClientCPU, res.ClientCPU/max(res.Window.Seconds(), 1e-9), res.ClientCPUPerAction)
	row("bytes received per action per socket", "%.0f (%d bytes over %d applied actions, %d sockets a room)", res.BytesPerAction, res.Received, res.Applied, Seats+res.Spectators)
	if res.ServerLogLines > 0 {
		row("server log lines (warn+)", "%d", res.ServerLogLines)
	}
	for _, name := range slices.Sorted(maps.Keys(res.ClusterMetrics)) {
		row("cluster: "+name, "%.6g", res.ClusterMetrics[name])
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, e := range res.FirstErrors {
		fmt.Fprintln(w, "error:", e)
	}
	for _, l := range res.ServerLogTail {
		fmt.Fprintln(w, "server log:", l)
	}
	if res.InProcess != nil {
		fmt.Fprintln(w)
		if err := res.InProcess.Print(w); err != nil {
			return err
		}
		if res.Overhead > 0 {
			fmt.Fprintf(w, "platform costs %.1fx the in-process ruleset per action (server %.1f us of CPU per action, engine in-process %.1f us)\n",
				res.Overhead, 1e6*res.ServerCPU/float64(res.Actions), 1e6*res.InProcess.EngineCPUPerAction)
		}
	}
	return nil
}

// JSON writes the result as indented JSON.
func (res *Result) JSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(res)
}
