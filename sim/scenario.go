// scenario.go holds the scenarios lessons refer to by id: who takes part,
// the lock's parameters and the options a lesson can switch.
package sim

import "sort"

// Option names and values shared by scenarios.
const (
	OptRelease     = "release"
	ReleaseLua     = "lua" // compare-and-delete in one EVAL
	ReleaseDel     = "del" // plain DEL: deletes whoever's lock is there
	OptFence       = "fence"
	FenceOn        = "on"  // storage rejects a token lower than the last accepted
	FenceOff       = "off" // storage accepts every write
	defaultRetryMs = 1000
)

// Scenario is the fixed part of a timeline: everything but the options and
// the learner's actions.
type Scenario struct {
	ID       string
	Clients  []string // ids, lower case: "a", "b"
	Resource string   // what the lock protects, e.g. "order:42"
	TTL      int64    // lock TTL, ms
	Work     int64    // how long a client works before it writes, ms
	Retry    int64    // pause between a client's acquire attempts, ms
	Seed     uint64   // PRNG seed for lock values
	Options  []OptionSpec
}

// LockKey is the Redis key of the lock.
func (sc *Scenario) LockKey() string { return "lock:" + sc.Resource }

// FenceKey is the counter that hands out fencing tokens.
func (sc *Scenario) FenceKey() string { return "fence:" + sc.Resource }

var scenarios = map[string]*Scenario{
	"fencing": {
		ID:       "fencing",
		Clients:  []string{"a", "b"},
		Resource: "order:42",
		TTL:      10_000,
		Work:     1000,
		Retry:    defaultRetryMs,
		Seed:     42,
		Options: []OptionSpec{
			{Name: OptRelease, Values: []string{ReleaseLua, ReleaseDel}},
			{Name: OptFence, Values: []string{FenceOn, FenceOff}},
		},
	},
}

// Lookup returns the scenario with that id.
func Lookup(id string) (*Scenario, bool) {
	sc, ok := scenarios[id]
	return sc, ok
}

// ScenarioIDs lists every scenario, sorted; the lesson tests use it to
// prove each lesson names one that exists.
func ScenarioIDs() []string {
	ids := make([]string, 0, len(scenarios))
	for id := range scenarios {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}
