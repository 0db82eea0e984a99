package class

import (
	"testing"
)

// TestClassSlowSubscriberDropped: a stream that does not read is dropped
// when its buffer fills, and the others still get every move.
func TestClassSlowSubscriberDropped(t *testing.T) {
	h := newClassHub(10, 2)
	slow, _ := h.subscribe("ROOM", false, "")
	fast, _ := h.subscribe("ROOM", false, "")
	for i := range 5 {
		h.dispatch("ROOM", notice{Kind: "move", Seq: int64(i)})
		<-fast.ch
	}
	select {
	case <-slow.gone:
	default:
		t.Fatal("slow subscriber not dropped")
	}
	if h.streams() != 1 {
		t.Fatalf("streams %d", h.streams())
	}
	h.close()
	select {
	case <-fast.gone:
	default:
		t.Fatal("close left a stream open")
	}
}

// TestClassHubStreamsOf: the hub counts a student's open streams, so
// closing one of two tabs does not stop counting them.
func TestClassHubStreamsOf(t *testing.T) {
	h := newClassHub(10, 1)
	defer h.close()
	a, _ := h.subscribe("ROOM", false, "s1")
	b, _ := h.subscribe("ROOM", false, "s1")
	h.subscribe("ROOM", false, "s2")
	if n := h.streamsOf("ROOM", "s1"); n != 2 {
		t.Fatalf("streamsOf %d", n)
	}
	h.unsubscribe(a)
	if n := h.streamsOf("ROOM", "s1"); n != 1 {
		t.Fatalf("after one tab closed: %d", n)
	}
	// a stream dropped for falling behind counts out too
	h.dispatch("ROOM", notice{Kind: "move", Seq: 1})
	h.dispatch("ROOM", notice{Kind: "move", Seq: 2})
	select {
	case <-b.gone:
	default:
		t.Fatal("slow stream not dropped")
	}
	h.unsubscribe(b)
	if n := h.streamsOf("ROOM", "s1"); n != 0 {
		t.Fatalf("after both: %d", n)
	}
}

func TestNormCode(t *testing.T) {
	for in, want := range map[string]string{"abcd efgh": "ABCDEFGH", "ABCD-EFGH": "ABCDEFGH", "ABCDEFG0": "", "ABCDEFGI": "", "ABC": "", "２３４５６７８９": ""} {
		if got := normCode(in); got != want {
			t.Errorf("normCode(%q) = %q, want %q", in, got, want)
		}
	}
	seen := map[string]bool{}
	for range 1000 {
		c, err := newCode()
		if err != nil || normCode(c) != c || seen[c] {
			t.Fatalf("code %q", c)
		}
		seen[c] = true
	}
}
