// live.go wires the live backend (-redis / LOCKLAB_REDIS): the single-node
// lessons replay on a real Redis instead of the embedded miniredis.
package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/url"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"

	"locklab/sim"
	"locklab/web"
)

// Timeouts of the live backend: a page waits for Redis this long at most
// per round trip, well inside the request's replay deadline, so an
// unreachable server becomes a prompt 503 page rather than a hang.
const (
	liveDialTimeout = 500 * time.Millisecond
	liveIOTimeout   = time.Second
)

// replayFunc is sim.ReplayContext, or with a Redis URL the live backend.
func replayFunc(redisURL string) (web.ReplayFunc, error) {
	if redisURL == "" {
		return sim.ReplayContext, nil
	}
	o, err := redis.ParseURL(redisURL)
	if err != nil {
		return nil, fmt.Errorf("-redis %q: want redis://host:port/db (%v)", redactURL(redisURL), err)
	}
	o.DialTimeout, o.ReadTimeout, o.WriteTimeout = liveDialTimeout, liveIOTimeout, liveIOTimeout
	var id [6]byte
	if _, err := rand.Read(id[:]); err != nil {
		return nil, err
	}
	return liveReplay(o, hex.EncodeToString(id[:])), nil
}

// liveReplay replays a single-node lesson on the server o names. Each
// replay's keys carry a prefix of their own (this process's random id and
// a counter), so concurrent requests and other processes sharing the
// server never meet, and the backend deletes them when the replay ends.
// Lessons with several Redis nodes (failover, Redlock) need servers that
// can be taken down, restarted and put on other clocks one by one; they
// stay on the embedded miniredis.
func liveReplay(o *redis.Options, instance string) web.ReplayFunc {
	var n atomic.Uint64
	return func(ctx context.Context, sc *sim.Scenario, opts sim.Opts, actions []sim.Action) (*sim.Timeline, error) {
		if len(sc.Nodes) > 0 {
			return sim.ReplayContext(ctx, sc, opts, actions)
		}
		b := &sim.RealRedis{
			Prefix:  fmt.Sprintf("locklab:%s:%d:", instance, n.Add(1)),
			Options: func(string) *redis.Options { return o },
		}
		return sim.ReplayOn(ctx, b, sc, opts, actions)
	}
}

// redactURL hides a password in a Redis URL before it is logged.
func redactURL(s string) string {
	u, err := url.Parse(s)
	if err != nil {
		return "(unparsable URL)"
	}
	return u.Redacted()
}
