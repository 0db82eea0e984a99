package class

import (
	"strconv"
	"strings"
	"testing"
)

// TestClassSlowSubscriberDropped: a stream that does not read is dropped
// when its buffer fills, and the others still get every move.
func TestClassSlowSubscriberDropped(t *testing.T) {
	h := newClassHub(10, 10, 2)
	slow, _ := h.subscribe("ROOM", false, "", "c")
	fast, _ := h.subscribe("ROOM", false, "", "c")
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
	h := newClassHub(10, 10, 1)
	defer h.close()
	a, _ := h.subscribe("ROOM", false, "s1", "c")
	b, _ := h.subscribe("ROOM", false, "s1", "c")
	h.subscribe("ROOM", false, "s2", "c")
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

// TestCleanName (F13): a name shown on the projector loses control
// characters, bidirectional controls and invisible characters, so it
// cannot reorder or hide the text around it; letters and marks of any
// script stay.
func TestCleanName(t *testing.T) {
	for in, want := range map[string]string{
		"\u202eevil\x00\x07\r\nX":              "evil X",
		"a\u202ab\u202bc\u202cd\u202de":        "abcde",
		"a\u2066b\u2067c\u2068d\u2069e":        "abcde",
		"a\u200eb\u200fc\u061cd":               "abcd",
		"a\u200bb\u200cc\u200dd\u2060e\ufeffg": "abcdeg",
		"\u202a\u202b\u202c\u202d\u202e":       "",
		"\u3164":                               "",
		"  Aiko  ":                             "Aiko",
		"李 小明":                                 "李 小明",
		"Jose\u0301":                           "Jose\u0301",
		"مريم":                                 "مريم",
		"Z" + strings.Repeat("\u0336\u0338", 20) + "x": "Z\u0336\u0338\u0336x",
		"Việt": "Việt",
	} {
		got, ok := cleanName(in)
		if got != want || !ok {
			t.Errorf("cleanName(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
	if _, ok := cleanName(strings.Repeat("\u200b", 100) + strings.Repeat("x", NameMax)); !ok {
		t.Error("invisible characters count against a name's length")
	}
}

// TestInviteGraceMS: the scripts' grace is inviteGrace.
func TestInviteGraceMS(t *testing.T) {
	if inviteGraceMS != strconv.FormatInt(inviteGrace.Milliseconds(), 10) {
		t.Errorf("inviteGraceMS %s, inviteGrace %v", inviteGraceMS, inviteGrace)
	}
}
