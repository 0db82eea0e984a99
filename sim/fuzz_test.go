package sim

import (
	"errors"
	"testing"
)

// FuzzParseActions: any string either parses into actions whose canonical
// form parses back to the same actions, or is refused with an
// *ActionError — never a panic.
func FuzzParseActions(f *testing.F) {
	for _, s := range []string{"", "a.acquire", "wait.10s", "a.acquire,a.pause,wait.10s,b.acquire",
		"n3.jump.10s", "n1.slow.4s,a.acquire", "wait.1500ms", "a.", ".a", ",,", "wait.99999999999999999999s",
		"primary.down,replica.promote", "a.next,b.drop,c.disconnect"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		as, err := ParseActions(s)
		if err != nil {
			var ae *ActionError
			if !errors.As(err, &ae) {
				t.Fatalf("%q: error %v is not an *ActionError", s, err)
			}
			return
		}
		again, err := ParseActions(FormatActions(as))
		if err != nil || FormatActions(again) != FormatActions(as) {
			t.Fatalf("%q: canonical form %q does not round-trip (%v)", s, FormatActions(as), err)
		}
	})
}

// FuzzReplay: any action list and options on any scenario either replay
// or are refused with an *ActionError; the simulator itself never fails or
// panics, and never leaves goroutines (TestMain checks).
func FuzzReplay(f *testing.F) {
	f.Add(uint8(0), "a.acquire,a.pause,wait.10s,b.acquire,b.write,a.resume,a.write,a.release", "release.del")
	f.Add(uint8(3), "a.acquire,a.crash,b.acquire,wait.12s", "ttl.off")
	f.Add(uint8(5), "n4.down,n5.down,a.acquire,n3.restart,n4.up,n5.up,b.acquire", "persist.none")
	f.Add(uint8(6), "a.acquire,b.acquire,a.disconnect,wait.7s,a.reconnect,a.write", "svc.etcd")
	f.Add(uint8(4), "a.acquire,wait.1s,primary.down,replica.promote,b.acquire,a.write,b.write", "wait.off")
	f.Add(uint8(2), "a.acquire,a.drop,a.write,wait.1s,a.release", "idem.none")
	ids := ScenarioIDs()
	f.Fuzz(func(t *testing.T, which uint8, do, opt string) {
		id := ids[int(which)%len(ids)]
		_, err := Run(id, do, opt)
		if err == nil {
			return
		}
		var ae *ActionError
		if !errors.As(err, &ae) {
			t.Fatalf("scenario=%s do=%q opt=%q: %v (not the learner's fault)", id, do, opt, err)
		}
	})
}
