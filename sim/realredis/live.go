// live.go runs replays on a live Redis (the -redis flag) instead of the
// embedded miniredis.

package realredis

import (
	"locklab/sim"

	"context"
	"fmt"
	"sync/atomic"

	"github.com/redis/go-redis/v9"
)

// Live returns a replay function for the server o names. Each replay's
// keys carry a prefix of their own (instance — unique to the process — and
// a counter), so concurrent requests and other processes sharing the
// server never meet, and the backend deletes them when the replay ends.
// Lessons with several Redis nodes (failover, Redlock) need servers that
// can be taken down, restarted and put on other clocks one by one; they
// stay on the embedded miniredis.
func Live(o *redis.Options, instance string) func(context.Context, *sim.Scenario, sim.Opts, []sim.Action) (*sim.Timeline, error) {
	var n atomic.Uint64
	return func(ctx context.Context, sc *sim.Scenario, opts sim.Opts, actions []sim.Action) (*sim.Timeline, error) {
		if len(sc.Nodes) > 0 {
			return sim.ReplayContext(ctx, sc, opts, actions)
		}
		b := &RealRedis{
			Prefix:  fmt.Sprintf("locklab:%s:%d:", instance, n.Add(1)),
			Options: func(string) *redis.Options { return o },
		}
		return sim.ReplayOn(ctx, b, sc, opts, actions)
	}
}
