package main

import (
	"net"
	"strings"
	"testing"
)

// TestOpenLine: the line `serve` prints says which address to open and how to stop, in words; on
// every interface it also names this machine's network address for friends.
func TestOpenLine(t *testing.T) {
	local := openLine(&net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 8080})
	for _, want := range []string{"open http://127.0.0.1:8080/ in your browser", "Ctrl+C to stop"} {
		if !strings.Contains(local, want) {
			t.Errorf("openLine(127.0.0.1:8080) = %q, want it to say %q", local, want)
		}
	}
	all := openLine(&net.TCPAddr{IP: net.IPv4zero, Port: 9000})
	if !strings.Contains(all, "open http://127.0.0.1:9000/") || strings.Contains(all, "0.0.0.0") {
		t.Errorf("openLine(0.0.0.0:9000) = %q: want the loopback address to open, never 0.0.0.0", all)
	}
	lan := lanAddress()
	if lan != "" && !strings.Contains(all, "friends on your network open http://"+lan+":9000/") {
		t.Errorf("openLine(0.0.0.0:9000) = %q, want it to name %s for friends", all, lan)
	}
	if lan == "" && !strings.Contains(all, "friends on your network open this computer's address with port 9000") {
		t.Errorf("openLine(0.0.0.0:9000) = %q, want it to tell friends the port", all)
	}
	if strings.Contains(local, "friends") {
		t.Errorf("openLine(127.0.0.1:8080) = %q: friends cannot reach a loopback address", local)
	}
	if strings.Count(local, "\n")+strings.Count(all, "\n") != 0 {
		t.Error("the open line is more than one line")
	}
}
