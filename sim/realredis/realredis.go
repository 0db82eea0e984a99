// realredis.go holds the backend on real Redis servers: the live backend
// (-redis) and the parity tests. A real server cannot be told what time it
// is, so this file emulates the node's virtual clock on it, honestly and
// in the open: docs/parity.md explains how, and lists what differs.

package realredis

import (
	"locklab/sim"
	"locklab/sim/rediscli"
	"locklab/sim/redisfront"

	"context"
	"fmt"
	"net"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"
)

// RealRedis runs a replay's nodes on real Redis servers (7.0 or newer:
// PEXPIRETIME). Every key the replay uses gets Prefix and the node's name
// in front, so many replays can share one server; commands are shown on
// the timeline without it, and error replies have it taken out again.
//
// Virtual time: the backend keeps, per node, the virtual deadline of every
// key with a TTL (read off the server after each command: PEXPIRETIME).
// Right before a client's command it sets every such key to expire after
// exactly its virtual remaining time (PEXPIREAT relative to the server's
// own clock, in one script); right after, it reads the deadlines the
// command left and parks the keys an hour further out, so the real time
// the simulator spends between two commands cannot expire them. When
// virtual time reaches a deadline, the key is deleted. Absolute times in
// a command (PXAT, PEXPIREAT) are translated from the virtual clock to
// the server's. A value is for one replay only.
type RealRedis struct {
	// Options gives the connection options for the server a node runs
	// on (address, DB, credentials, timeouts); the clients' own
	// settings (one connection, no retries, RESP2) go on top.
	Options func(node string) *redis.Options
	// Prefix goes before every key of this replay: unique per replay.
	Prefix string
	// Restart, if set, really restarts the server of node (without
	// persistence) and returns once it answers again. Otherwise a
	// restart deletes this replay's keys on that node.
	Restart func(node string) error
	// Stats counts what the emulation did, for the parity report.
	Stats RealStats
}

// RealStats counts a RealRedis replay's work.
type RealStats struct {
	Commands int // client commands sent to a real server
	// TTLExact counts deadlines known exactly from the command's own
	// arguments (and confirmed by the server); TTLEstimated those read
	// off the server alone (a script that set a TTL), which may be 1 ms
	// short when the command crossed a millisecond boundary.
	TTLExact, TTLEstimated int
}

// parkMs is how far past its virtual deadline a key is parked between two
// commands: far more than any pause of the simulator, so only the
// emulation expires keys, at their virtual deadline.
const parkMs = 3_600_000

// Open connects to node's server; nothing is sent until the first use.
func (b *RealRedis) Open(name string) (sim.Server, error) {
	o := b.Options(name)
	if o == nil {
		return nil, fmt.Errorf("no server for node %s", name)
	}
	s := &realServer{b: b, name: name, prefix: b.Prefix + name + ":", base: o,
		known: map[string]bool{}, dl: map[string]int64{}, armed: map[string]int64{}}
	s.admin = redis.NewClient(s.options())
	s.bounds = redisfront.NewBounds(realKeys{s})
	return s, nil
}

type realServer struct {
	readOnly bool // SetReadOnly
	b        *RealRedis
	name     string
	prefix   string
	base     *redis.Options
	admin    *redis.Client // the emulation's own connection: time, peeks, cleanup
	conns    []*rediscli.Conn
	v        int64            // the node's virtual time, ms
	keys     []string         // every prefixed key this replay touched, first use first
	known    map[string]bool  // … as a set
	dl       map[string]int64 // virtual deadline of each key that has a TTL
	armed    map[string]int64 // the server-clock expiry the last arm gave it
	// bounds hold what a timeline stores and reads on a shared server to
	// the embedded server's bounds (sim/redisfront): a typed SETRANGE
	// of 500 MB would otherwise reach it. A script's own commands run on
	// the server unseen; the script checker bounds them (no loops, no
	// value over 4 KB built).
	bounds *redisfront.Bounds
	err    error
}

// realKeys reads the bounds' keyspace from the server, through the
// emulation's own connection: this timeline's keys only.
type realKeys struct{ s *realServer }

func (k realKeys) Keys() []string {
	out := make([]string, 0, len(k.s.keys))
	for _, key := range k.s.keys {
		out = append(out, strings.TrimPrefix(key, k.s.prefix))
	}
	return out
}

func (k realKeys) Size(key string) (string, int) {
	if k.s.err != nil {
		return "", 0
	}
	ctx, full := context.Background(), k.s.prefix+key
	typ, err := k.s.admin.Type(ctx, full).Result()
	if err != nil {
		_ = k.s.fail(err)
		return "", 0
	}
	switch typ {
	case "none":
		return "", 0
	case "string":
		n, err := k.s.admin.StrLen(ctx, full).Result()
		if err != nil {
			_ = k.s.fail(err)
		}
		return typ, int(n)
	}
	// A list (or what no timeline makes): the server's own count of it.
	n, err := k.s.admin.MemoryUsage(ctx, full, 0).Result()
	if err != nil && !rediscli.IsReply(err) {
		_ = k.s.fail(err)
	}
	return typ, int(n)
}

func (s *realServer) options() *redis.Options {
	o := sim.ClientOptions()
	o.Addr, o.Network, o.DB = s.base.Addr, s.base.Network, s.base.DB
	o.Username, o.Password, o.TLSConfig = s.base.Username, s.base.Password, s.base.TLSConfig
	o.Dialer = s.base.Dialer
	if s.base.DialTimeout > 0 {
		o.DialTimeout = s.base.DialTimeout
	}
	if s.base.ReadTimeout > 0 {
		o.ReadTimeout = s.base.ReadTimeout
	}
	if s.base.WriteTimeout > 0 {
		o.WriteTimeout = s.base.WriteTimeout
	}
	return o
}

func (s *realServer) Err() error { return s.err }

// SetReadOnly: see sim.Server; the node's server is no real replica (the
// replication is Lock Lab's model), so the backend answers a write as one.
func (s *realServer) SetReadOnly(on bool) { s.readOnly = on }

func (s *realServer) fail(err error) error {
	if s.err == nil {
		s.err = err
	}
	return &sim.BackendError{Node: s.name, Err: s.err}
}

// Connect opens a client connection whose commands go through the
// emulation (hook), exactly once each.
func (s *realServer) Connect() *rediscli.Conn {
	o := s.options()
	dial := o.Dialer
	if dial == nil {
		d := &net.Dialer{Timeout: 5 * time.Second}
		dial = d.DialContext
	}
	rc := rediscli.NewConn(o, dial)
	rc.AddHook(hook{s})
	s.conns = append(s.conns, rc)
	return rc
}

// SetTime moves the node's clock; keys whose deadline it reached are
// deleted, as the server would have expired them.
func (s *realServer) SetTime(ms int64) {
	s.v = ms
	var gone []string
	for _, k := range s.keys {
		if d, ok := s.dl[k]; ok && d <= ms {
			gone = append(gone, k)
			delete(s.dl, k)
		}
	}
	if len(gone) > 0 && s.err == nil {
		if err := s.admin.Del(context.Background(), gone...).Err(); err != nil {
			_ = s.fail(err)
		}
	}
}

func (s *realServer) Get(key string) (string, bool) {
	if s.err != nil {
		return "", false
	}
	v, err := s.admin.Get(context.Background(), s.prefix+key).Result()
	if err != nil {
		if err != redis.Nil && !rediscli.IsReply(err) {
			_ = s.fail(err)
		}
		return "", false
	}
	return v, true
}

func (s *realServer) List(key string) []string {
	if s.err != nil {
		return nil
	}
	l, err := s.admin.LRange(context.Background(), s.prefix+key, 0, -1).Result()
	if err != nil {
		if !rediscli.IsReply(err) {
			_ = s.fail(err)
		}
		return nil
	}
	if len(l) == 0 {
		return nil
	}
	return l
}

// TTL is the key's virtual remaining time, from the deadline the
// emulation keeps (the server's own PTTL shows the parked value).
func (s *realServer) TTL(key string) int64 {
	if d, ok := s.dl[s.prefix+key]; ok && d > s.v {
		return d - s.v
	}
	return 0
}

// virtualPTTL turns a PTTL reply for a key that has a TTL into its
// virtual remaining time. The server counts down on its own clock, which
// moves between the arming of the deadline and the command (4999 for a
// virtual 5000); -1 and -2 are the server's own and stay as they are.
func (s *realServer) virtualPTTL(cmd redis.Cmder, key string) {
	c, ok := cmd.(*redis.Cmd)
	if !ok {
		return
	}
	if n, isInt := c.Val().(int64); isInt && n >= 0 {
		c.SetVal(s.TTL(key))
	}
}

// Restart: for real when the backend can (tests), else by deleting this
// replay's keys (a shared live server cannot be restarted).
func (s *realServer) Restart() {
	s.dl, s.armed = map[string]int64{}, map[string]int64{}
	if s.err != nil {
		return
	}
	if s.b.Restart != nil {
		if err := s.b.Restart(s.name); err != nil {
			_ = s.fail(err)
		}
		return
	}
	if len(s.keys) > 0 {
		if err := s.admin.Del(context.Background(), s.keys...).Err(); err != nil {
			_ = s.fail(err)
		}
	}
}

// Close removes this replay's keys and closes every connection.
func (s *realServer) Close() {
	if s.err == nil && len(s.keys) > 0 {
		_ = s.admin.Del(context.Background(), s.keys...).Err()
	}
	for _, c := range s.conns {
		_ = c.Close()
	}
	_ = s.admin.Close()
}

func (s *realServer) touch(key string) {
	if !s.known[key] {
		s.known[key] = true
		s.keys = append(s.keys, key)
	}
}

// hook puts a client's commands through the emulation.
type hook struct{ s *realServer }

func (h hook) DialHook(next redis.DialHook) redis.DialHook { return next }
func (h hook) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return next
}
func (h hook) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error { return h.s.process(ctx, cmd, next) }
}

// handshake commands go through untouched: go-redis's own, not a client's.
var handshake = map[string]bool{"HELLO": true, "AUTH": true, "SELECT": true, "CLIENT": true, "PING": true, "QUIT": true, "RESET": true}

// process sends one client command: keys prefixed, the node's keys set to
// their virtual TTLs, absolute times translated, the command sent, the
// deadlines it left read back, the prefix taken out of an error reply.
func (s *realServer) process(ctx context.Context, cmd redis.Cmder, next redis.ProcessHook) error {
	args := cmd.Args()
	name := strings.ToUpper(fmt.Sprint(args[0]))
	if handshake[name] {
		return next(ctx, cmd)
	}
	if s.err != nil {
		return &sim.BackendError{Node: s.name, Err: s.err}
	}
	strs := make([]string, len(args)-1)
	for i, a := range args[1:] {
		strs[i] = fmt.Sprint(a)
	}
	if !rediscli.Known(name) {
		// What Redis 7.0 answers, never sent: a newer server might know
		// the name and run it on a shared server without the prefix.
		return replyError(rediscli.UnknownCommand(append([]string{fmt.Sprint(args[0])}, strs...)))
	}
	if s.readOnly && rediscli.IsWrite(name) {
		return replyError(rediscli.ErrReadOnly) // what the replica would answer; the node is no real replica here
	}
	if msg := s.bounds.Check(name, strs); msg != "" {
		return replyError(msg) // never sent: past a bound (redisfront)
	}
	orig := append([]any(nil), args...)
	defer copy(args, orig) // the caller's slice, as it was
	keyIdx, err := keyPositions(name, args)
	if err != nil {
		return err
	}
	for _, i := range keyIdx {
		k := s.prefix + fmt.Sprint(args[i])
		args[i] = k
		s.touch(k)
	}
	before, err := s.arm(ctx)
	if err != nil {
		return s.fail(err)
	}
	want := s.translate(name, args, before)
	s.b.Stats.Commands++
	err = next(ctx, cmd)
	if err != nil && !rediscli.IsReply(err) {
		return s.fail(err)
	}
	if re, ok := err.(redis.Error); ok && strings.Contains(re.Error(), s.prefix) {
		err = replyError(strings.ReplaceAll(re.Error(), s.prefix, ""))
	}
	if oerr := s.observe(ctx, before, want); oerr != nil {
		return s.fail(oerr)
	}
	if name == "PTTL" && err == nil {
		s.virtualPTTL(cmd, fmt.Sprint(orig[1]))
	}
	return err // go-redis sets it as the command's error: nil, redis.Nil or the reply
}

// replyError is an error reply with the key prefix taken out.
type replyError string

func (e replyError) Error() string { return string(e) }
func (replyError) RedisError()     {}

// keyPositions says which arguments of a command are keys. Only the
// commands the simulator sends are known; another is refused, so a new
// command cannot reach a shared server without its prefix.
func keyPositions(name string, args []any) ([]int, error) {
	switch name {
	case "GET", "SET", "SETNX", "PEXPIRE", "EXPIRE", "PEXPIREAT", "PTTL", "TTL", "DELEX",
		"INCR", "RPUSH", "LRANGE", "PERSIST", "GETDEL", "TYPE",
		// and the rest of what the command line sends (command.go)
		"GETSET", "APPEND", "STRLEN", "GETRANGE", "SETRANGE",
		"INCRBY", "DECR", "DECRBY", "LPUSH", "LPOP", "RPOP", "LLEN", "LINDEX":
		if len(args) < 2 {
			return nil, nil // the server will say what is missing
		}
		return []int{1}, nil
	case "RENAME", "RENAMENX", "COPY": // source destination [DB … REPLACE]
		if len(args) < 3 {
			return nil, nil
		}
		return []int{1, 2}, nil
	case "ECHO", "PING":
		return nil, nil
	case "MSET", "MSETNX": // key value [key value …]
		var idx []int
		for i := 1; i < len(args); i += 2 {
			idx = append(idx, i)
		}
		return idx, nil
	case "DEL", "EXISTS", "MGET", "UNLINK":
		var idx []int
		for i := 1; i < len(args); i++ {
			idx = append(idx, i)
		}
		return idx, nil
	case "EVAL", "EVALSHA":
		if len(args) < 3 {
			return nil, nil
		}
		n, err := strconv.Atoi(fmt.Sprint(args[2]))
		if err != nil || n < 0 || 3+n > len(args) {
			return nil, nil
		}
		var idx []int
		for i := 3; i < 3+n; i++ {
			idx = append(idx, i)
		}
		return idx, nil
	case "WAIT":
		return nil, nil
	}
	return nil, fmt.Errorf("the real-Redis backend does not know the keys of %s", name)
}

// ttlSet is a deadline a command sets by its arguments: a relative TTL
// (rel, ms) or an absolute virtual instant (abs), on one key.
type ttlSet struct {
	key      string
	rel, abs int64
	isAbs    bool
}

// translate rewrites a command's absolute times (PXAT, PEXPIREAT, in Unix
// ms on the virtual clock) to the server's clock, as the same distance
// from now, and returns the deadline the command's arguments set, if any.
func (s *realServer) translate(name string, args []any, serverNow int64) *ttlSet {
	num := func(i int) (int64, bool) {
		if i >= len(args) {
			return 0, false
		}
		n, err := strconv.ParseInt(fmt.Sprint(args[i]), 10, 64)
		return n, err == nil
	}
	toServer := func(i int, unit int64) *ttlSet {
		at, ok := num(i)
		if !ok {
			return nil
		}
		virt := at*unit - sim.EpochMs
		args[i] = strconv.FormatInt(serverNow+virt-s.v, 10)
		if unit != 1 {
			args[i] = strconv.FormatInt((serverNow+virt-s.v+unit-1)/unit, 10)
		}
		return &ttlSet{key: fmt.Sprint(args[1]), abs: virt, isAbs: true}
	}
	rel := func(i int, unit int64) *ttlSet {
		n, ok := num(i)
		if !ok {
			return nil
		}
		return &ttlSet{key: fmt.Sprint(args[1]), rel: n * unit}
	}
	onKey := func(t *ttlSet, k int) *ttlSet {
		if t != nil {
			t.key = fmt.Sprint(args[k])
		}
		return t
	}
	switch name {
	case "PEXPIRE":
		return rel(2, 1)
	case "EXPIRE":
		return rel(2, 1000)
	case "PEXPIREAT":
		return toServer(2, 1)
	case "SET":
		for i := 3; i < len(args); i++ {
			switch strings.ToUpper(fmt.Sprint(args[i])) {
			case "PX":
				return rel(i+1, 1)
			case "EX":
				return rel(i+1, 1000)
			case "PXAT":
				return toServer(i+1, 1)
			case "EXAT":
				return toServer(i+1, 1000)
			}
		}
	case "EVAL":
		// A script that sets a TTL from its arguments (sim.ScriptTTL), when
		// it does; the server's deadline confirms it (observe).
		if numKeys, ok := num(2); ok {
			if key, argv, known := sim.ScriptTTL(fmt.Sprint(args[1])); known {
				return onKey(rel(3+int(numKeys)+argv-1, 1), 3+key-1)
			}
		}
	}
	return nil
}

// armScript gives every key its exact virtual remaining time on the
// server's clock, and returns that clock (ms).
const armScript = `local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
for i, k in ipairs(KEYS) do
  redis.call('PEXPIREAT', k, now + tonumber(ARGV[i]))
end
return now`

// observeScript returns the server's clock and every key's deadline
// (PEXPIRETIME: -1 none, -2 no key), then parks the keys with one.
const observeScript = `local t = redis.call('TIME')
local out = {tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)}
for i, k in ipairs(KEYS) do
  local e = redis.call('PEXPIRETIME', k)
  out[i + 1] = e
  if e > 0 then redis.call('PEXPIREAT', k, e + tonumber(ARGV[1])) end
end
return out`

// arm runs armScript over the keys with a deadline.
func (s *realServer) arm(ctx context.Context) (int64, error) {
	keys := make([]string, 0, len(s.dl))
	rem := make([]any, 0, len(s.dl))
	for _, k := range s.keys {
		if d, ok := s.dl[k]; ok {
			keys = append(keys, k)
			rem = append(rem, d-s.v)
		}
	}
	now, err := s.admin.Eval(ctx, armScript, keys, rem...).Int64()
	if err != nil {
		return 0, err
	}
	clear(s.armed)
	for i, k := range keys {
		s.armed[k] = now + rem[i].(int64)
	}
	return now, nil
}

// observe reads the deadlines the command left. A deadline the arm set is
// unchanged; a new one is turned into virtual time from the command's own
// arguments when they set it (checked against the server), else from the
// server's clock after the command.
func (s *realServer) observe(ctx context.Context, before int64, want *ttlSet) error {
	res, err := s.admin.Eval(ctx, observeScript, s.keys, parkMs).Int64Slice()
	if err != nil {
		return err
	}
	after := res[0]
	for i, k := range s.keys {
		e := res[i+1]
		if e < 0 {
			delete(s.dl, k)
			continue
		}
		if a, ok := s.armed[k]; ok && a == e {
			continue // untouched by the command
		}
		switch {
		case want != nil && want.key == k && want.isAbs && e == before+want.abs-s.v:
			s.dl[k] = want.abs
			s.b.Stats.TTLExact++
		case want != nil && want.key == k && !want.isAbs && e-want.rel >= before && e-want.rel <= after:
			s.dl[k] = s.v + want.rel
			s.b.Stats.TTLExact++
		default:
			s.dl[k] = s.v + e - after
			s.b.Stats.TTLEstimated++
		}
	}
	return nil
}
