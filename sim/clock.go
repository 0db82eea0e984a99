// clock.go holds the virtual clock every node of a world reads its time from.

package sim

import (
	"strconv"
	"time"
)

// EpochMs is virtual time zero in Unix milliseconds: 2026-01-01 09:00 UTC.
// A fixed instant (a constant, so no caller can move it), so TIME and any
// PEXPIREAT a lesson shows are the same in every run.
const EpochMs int64 = 1767258000000

// Clock is the world's virtual time in milliseconds since EpochMs. It only
// moves forward, and only when the replay moves it.
type Clock struct {
	now int64
}

// Now is the current virtual time in milliseconds.
func (c *Clock) Now() int64 { return c.now }

// set moves the clock to ms; moving backwards is ignored, because nothing in
// a world may undo time (a node's own clock jump is modelled per node).
func (c *Clock) set(ms int64) {
	if ms > c.now {
		c.now = ms
	}
}

// instant converts virtual milliseconds to the wall-clock instant a node is
// told with SetTime.
func instant(ms int64) time.Time {
	return time.UnixMilli(EpochMs + ms).UTC()
}

// FormatMS renders a virtual time as seconds with millisecond precision,
// the way the transcript and the event log show it ("10.000s").
func FormatMS(ms int64) string {
	sign := ""
	if ms < 0 {
		sign, ms = "-", -ms
	}
	return sign + itoa(ms/1000) + "." + pad3(ms%1000) + "s"
}

func pad3(n int64) string {
	s := itoa(n)
	for len(s) < 3 {
		s = "0" + s
	}
	return s
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
