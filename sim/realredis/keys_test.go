package realredis

import (
	"testing"

	"locklab/sim"
)

// TestKeysOfEveryCommandSent: the backend knows where the keys are in
// every command the command line can send (sim.SentCommands), so none
// reaches a shared server without its prefix; it refuses one it does not
// know.
func TestKeysOfEveryCommandSent(t *testing.T) {
	for _, name := range sim.SentCommands() {
		args := []any{name, "k", "v", "w"}
		if name == "EVAL" {
			args = []any{name, "return 1", "1", "k"}
		}
		idx, err := keyPositions(name, args)
		if err != nil {
			t.Errorf("%s: %v", name, err)
		}
		if keyless := name == "ECHO" || name == "PING"; len(idx) == 0 != keyless {
			t.Errorf("%s: keys at %v", name, idx)
		}
	}
	if _, err := keyPositions("KEYS", []any{"KEYS", "*"}); err == nil {
		t.Error("a command the simulator never sends was given keys")
	}
}
