// labcode.go writes the Lab's design out as a Go program with go-redis:
// the same steps the simulated clients take, in the variant the learner
// chose. TestLabCodeCompiles builds every variant a lesson can show, so
// the page never shows code that does not compile.
package web

import (
	"go/format"
	"slices"
	"strconv"
	"strings"

	"locklab/sim"
)

// codeDesign is what the code depends on, read off a scenario and options.
type codeDesign struct {
	Local   bool   // an in-process mutex (lesson 1's mistake)
	Redlock bool   // a majority of independent nodes
	Acquire string // sim.AcquireSet, AcquireGetSet, AcquireSetNX
	TTL     bool
	TryOnce bool // one attempt, then give up (lesson 1's TryLock)
	Tokens  bool // a fencing token from INCR after acquiring
	Wait    bool // WAIT for the replica before trusting the lock
	Release string
	Charges bool // the storage is a payment ledger
	Idem    bool // … charged through an idempotency key
	Fence   bool // the record is written through the fencing check
}

// designOf reads the code's design from a lesson's scenario and options.
// It reports false for a lock that does not live in Redis (ZooKeeper,
// etcd), which has no go-redis code.
func designOf(sc *sim.Scenario, o sim.Opts) (codeDesign, bool) {
	if sc.Coord {
		return codeDesign{}, false
	}
	d := codeDesign{
		Local: o[sim.OptLock] == sim.LockLocal, Redlock: sc.Redlock,
		Acquire: o[sim.OptAcquire], TTL: o[sim.OptTTL] != sim.TTLOff, TryOnce: sc.Retry == 0,
		Tokens: sc.Tokens, Wait: sc.Replicated && o[sim.OptWait] == sim.WaitOn, Release: o[sim.OptRelease],
		Charges: sc.Storage == sim.StoreCharges, Idem: o[sim.OptIdem] == sim.IdemKey,
		Fence: sc.Storage == sim.StoreFenced && o[sim.OptFence] != sim.FenceOff && sc.Tokens,
	}
	if d.Acquire == "" {
		d.Acquire = sim.AcquireSet
	}
	if d.Release == "" {
		d.Release = sim.ReleaseLua
	}
	return d, true
}

// codeWriter collects a Go file: the imports it turned out to need, and
// the declarations in order.
type codeWriter struct {
	imports []string
	decls   []string
}

func (c *codeWriter) use(pkgs ...string) {
	for _, p := range pkgs {
		if !slices.Contains(c.imports, p) {
			c.imports = append(c.imports, p)
		}
	}
}

func (c *codeWriter) add(decl string) { c.decls = append(c.decls, strings.TrimSpace(decl)) }

// file is the complete source: package clause, imports (standard library
// first, then go-redis, as gofmt and goimports leave them), declarations.
func (c *codeWriter) file(doc string) string {
	var b strings.Builder
	b.WriteString(doc + "package lock\n\nimport (\n")
	var std, ext []string
	for _, p := range c.imports {
		if strings.Contains(p, ".") {
			ext = append(ext, p)
		} else {
			std = append(std, p)
		}
	}
	slices.Sort(std)
	for _, p := range std {
		b.WriteString("\t" + strconv.Quote(p) + "\n")
	}
	if len(ext) > 0 {
		b.WriteString("\n")
		for _, p := range ext {
			b.WriteString("\t" + strconv.Quote(p) + "\n")
		}
	}
	b.WriteString(")\n")
	for _, d := range c.decls {
		b.WriteString("\n" + d + "\n")
	}
	return b.String()
}

// labCode writes the design as one Go file of package lock. sc supplies
// the keys and timings, so the code uses the lesson's numbers.
func labCode(sc *sim.Scenario, d codeDesign) string {
	c := &codeWriter{}
	c.use("context", "time", "github.com/redis/go-redis/v9")
	consts := "// The lesson's keys and timings.\nconst (\n"
	if !d.Local {
		consts += "\tlockKey = " + strconv.Quote(sc.LockKey()) + "\n"
		consts += "\tttl     = " + goDuration(sc.TTL) + "\n"
	}
	if d.Tokens {
		consts += "\tfenceKey = " + strconv.Quote(sc.FenceKey()) + "\n"
	}
	if d.Charges {
		consts += "\tchargesKey = " + strconv.Quote(sc.ChargesKey()) + "\n"
		if d.Idem {
			consts += "\tprocessedKey = " + strconv.Quote(sc.ProcessedKey()) + "\n"
		}
	} else {
		consts += "\tdataKey = " + strconv.Quote(sc.DataKey()) + "\n"
		if d.Fence {
			consts += "\ttokenKey = " + strconv.Quote(sc.TokenKey()) + "\n"
		}
	}
	consts += "\twork = " + goDuration(sc.Work) + " // how long the protected work takes\n"
	if !d.TryOnce && !d.Local {
		consts += "\tretry = " + goDuration(sc.Retry) + "\n"
	}
	c.add(consts + ")")
	if !d.Local {
		c.use("crypto/rand", "encoding/hex")
		c.add(`
// newValue is unique to one acquisition, so a holder can tell its own
// lock from the next holder's.
func newValue() string {
	b := make([]byte, 20)
	if _, err := rand.Read(b); err != nil {
		panic(err) // the system's random source failed
	}
	return hex.EncodeToString(b)
}`)
	}
	switch {
	case d.Local:
		lockLocal(c)
	case d.Redlock:
		lockRedlock(c)
	default:
		lockSingle(c, d)
	}
	writeStorage(c, d)
	runProgram(c, d)
	src := c.file("// Package lock is one Lock Lab design written out with go-redis:\n// " + summary(d) + ".\n")
	// gofmt it, as a Go programmer would see it; the pieces above are
	// written for reading, not aligned by hand.
	if out, err := format.Source([]byte(src)); err == nil {
		return string(out)
	}
	return src // TestLabCodeCompiles fails on anything format rejects
}

// summary is the design in one line, for the file's doc comment.
func summary(d codeDesign) string {
	var parts []string
	switch {
	case d.Local:
		parts = append(parts, "a mutex inside each process")
	case d.Redlock:
		parts = append(parts, "Redlock over independent nodes")
	case d.Acquire == sim.AcquireGetSet:
		parts = append(parts, "acquire with GET then SET")
	case d.Acquire == sim.AcquireSetNX:
		parts = append(parts, "acquire with SET NX then PEXPIRE")
	default:
		parts = append(parts, "acquire with one SET NX and a TTL")
	}
	if !d.TTL {
		parts = append(parts, "no TTL")
	}
	if !d.Local && !d.Redlock {
		parts = append(parts, map[string]string{sim.ReleaseLua: "release with a compare-and-delete script",
			sim.ReleaseDel: "release with a plain DEL", sim.ReleaseGetDel: "release with GET then DEL",
			sim.ReleaseDelex: "release with DELEX IFEQ"}[d.Release])
	}
	switch {
	case d.Charges && d.Idem:
		parts = append(parts, "charges through an idempotency key")
	case d.Charges:
		parts = append(parts, "charges with a plain RPUSH")
	case d.Fence:
		parts = append(parts, "writes checked against a fencing token")
	default:
		parts = append(parts, "writes not checked")
	}
	return strings.Join(parts, ", ")
}

// goDuration prints ms as a Go duration expression: 10 * time.Second.
func goDuration(ms int64) string {
	switch {
	case ms == 1000:
		return "time.Second"
	case ms%1000 == 0:
		return strconv.FormatInt(ms/1000, 10) + " * time.Second"
	}
	return strconv.FormatInt(ms, 10) + " * time.Millisecond"
}

// rawString quotes a script as a Go raw string (the scripts hold no
// backquote).
func rawString(s string) string { return "`" + s + "`" }

func lockLocal(c *codeWriter) {
	c.use("sync")
	c.add(`
// mu only excludes the goroutines of this process: another server has its
// own mu and charges at the same time.
var mu sync.Mutex

func acquire(context.Context) error { mu.Lock(); return nil }

func release(context.Context) error { mu.Unlock(); return nil }`)
}

func lockSingle(c *codeWriter, d codeDesign) {
	ttl := "ttl"
	if !d.TTL {
		ttl = "0" // no TTL: if the holder dies, the key stays forever
	}
	switch d.Acquire {
	case sim.AcquireGetSet:
		c.use("errors")
		c.add(`
// tryAcquire looks, then writes: two commands. Two clients can both see
// the key free between them, and both SET it.
func tryAcquire(ctx context.Context, rdb *redis.Client, value string) (bool, error) {
	err := rdb.Get(ctx, lockKey).Err()
	if err == nil {
		return false, nil // someone holds it
	}
	if !errors.Is(err, redis.Nil) {
		return false, err
	}
	return true, rdb.Set(ctx, lockKey, value, ` + ttl + `).Err()
}`)
	case sim.AcquireSetNX:
		expire := `
	// The gap: if the process dies here, the key has no TTL.
	return true, rdb.PExpire(ctx, lockKey, ttl).Err()`
		if !d.TTL {
			expire = "\n\treturn true, nil"
		}
		c.add(`
// tryAcquire sets the key only if it is absent (what SETNX does), then
// gives it a TTL with a second command.
func tryAcquire(ctx context.Context, rdb *redis.Client, value string) (bool, error) {
	ok, err := rdb.SetNX(ctx, lockKey, value, 0).Result()
	if err != nil || !ok {
		return false, err
	}` + expire + `
}`)
	default:
		c.add(`
// tryAcquire is one atomic command: set the key only if it is absent, with
// its TTL (SET key value NX and an expiry).
func tryAcquire(ctx context.Context, rdb *redis.Client, value string) (bool, error) {
	return rdb.SetNX(ctx, lockKey, value, ` + ttl + `).Result()
}`)
	}
	if !d.TTL {
		c.add("// Without a TTL, a holder that dies leaves the key forever.\nvar _ = ttl")
	}
	if d.Release == sim.ReleaseLua || d.Wait {
		c.add("// releaseScript deletes the lock only while it still holds our value.\nvar releaseScript = redis.NewScript(" +
			rawString(sim.ReleaseScript) + ")")
	}
	acquire := `
// acquire tries until it holds the lock`
	if d.TryOnce {
		c.use("errors")
		c.add("// errTaken: the lock was held by someone else; this client tries once.\nvar errTaken = errors.New(\"lock taken\")")
		acquire = `
// acquire tries once, like a TryLock`
	}
	if d.Tokens {
		acquire += `, then takes a fencing token: a number
// that grows with every acquisition, for the storage to check`
	}
	acquire += `.
func acquire(ctx context.Context, rdb *redis.Client) (value string, token int64, err error) {
	value = newValue()
	for {
		ok, err := tryAcquire(ctx, rdb, value)
		if err != nil {
			return "", 0, err
		}`
	if d.TryOnce {
		acquire += `
		if !ok {
			return "", 0, errTaken
		}`
	} else {
		acquire += `
		if !ok {
			select {
			case <-ctx.Done():
				return "", 0, ctx.Err()
			case <-time.After(retry):
			}
			continue
		}`
	}
	if d.Tokens {
		acquire += `
		if token, err = rdb.Incr(ctx, fenceKey).Result(); err != nil {
			return "", 0, err
		}`
	}
	if d.Wait {
		c.use("errors")
		acquire += `
		// Trust the lock only once the replica has it too; otherwise a
		// failover could hand the same lock to someone else.
		acked, err := rdb.Wait(ctx, 1, 3*time.Second).Result()
		if err != nil {
			return "", 0, err
		}
		if acked < 1 {
			if err := releaseScript.Run(ctx, rdb, []string{lockKey}, value).Err(); err != nil && !errors.Is(err, redis.Nil) {
				return "", 0, err
			}
			time.Sleep(retry)
			continue
		}`
	}
	acquire += `
		return value, token, nil
	}
}`
	c.add(acquire)
	switch d.Release {
	case sim.ReleaseDel:
		c.add(`
// release deletes the key, whoever's it is now: if our lock expired and
// another client took it, this deletes theirs.
func release(ctx context.Context, rdb *redis.Client, value string) error {
	return rdb.Del(ctx, lockKey).Err()
}`)
	case sim.ReleaseGetDel:
		c.use("errors")
		c.add(`
// release checks, then deletes: two commands. The lock can expire and be
// taken by another client between them.
func release(ctx context.Context, rdb *redis.Client, value string) error {
	holder, err := rdb.Get(ctx, lockKey).Result()
	if errors.Is(err, redis.Nil) || (err == nil && holder != value) {
		return nil // gone, or not ours any more
	}
	if err != nil {
		return err
	}
	return rdb.Del(ctx, lockKey).Err()
}`)
	case sim.ReleaseDelex:
		c.add(`
// release deletes the key only if it still holds our value, in one
// command (DELEX key IFEQ value, Redis 8.4 and later).
func release(ctx context.Context, rdb *redis.Client, value string) error {
	return rdb.DelExArgs(ctx, lockKey, redis.DelExArgs{Mode: "IFEQ", MatchValue: value}).Err()
}`)
	default:
		c.use("errors")
		c.add(`
// release runs the compare-and-delete script: the check and the delete
// happen in one step on the server, so it never removes another's lock.
func release(ctx context.Context, rdb *redis.Client, value string) error {
	err := releaseScript.Run(ctx, rdb, []string{lockKey}, value).Err()
	if errors.Is(err, redis.Nil) {
		return nil
	}
	return err
}`)
	}
}

func lockRedlock(c *codeWriter) {
	c.use("errors")
	c.add("// unlockScript deletes the lock only while it still holds our value.\nvar unlockScript = redis.NewScript(" +
		rawString(sim.ReleaseScript) + ")")
	c.add(`
// drift is the allowance for clocks that tick at slightly different rates.
const drift = ttl/100 + 2*time.Millisecond

// acquire sets the same key and value on every node; the lock counts only
// if a majority said OK and time is left of its validity. Otherwise it
// unlocks every node (a reply may have been lost after a SET) and retries.
func acquire(ctx context.Context, nodes []*redis.Client) (value string, validUntil time.Time, err error) {
	value = newValue()
	for {
		start := time.Now()
		oks := 0
		for _, n := range nodes {
			if ok, err := n.SetNX(ctx, lockKey, value, ttl).Result(); err == nil && ok {
				oks++
			}
		}
		validity := ttl - time.Since(start) - drift
		if oks >= len(nodes)/2+1 && validity > 0 {
			return value, start.Add(validity), nil
		}
		if err := release(ctx, nodes, value); err != nil {
			return "", time.Time{}, err
		}
		select {
		case <-ctx.Done():
			return "", time.Time{}, ctx.Err()
		case <-time.After(retry):
		}
	}
}

// release runs the compare-and-delete script on every node.
func release(ctx context.Context, nodes []*redis.Client, value string) error {
	for _, n := range nodes {
		if err := unlockScript.Run(ctx, n, []string{lockKey}, value).Err(); err != nil && !errors.Is(err, redis.Nil) {
			return err
		}
	}
	return nil
}`)
}

func writeStorage(c *codeWriter, d codeDesign) {
	switch {
	case d.Charges && d.Idem:
		c.add("// chargeOnce writes the idempotency key and the charge together: a\n// repeated request is a no-op.\nvar chargeOnce = redis.NewScript(" +
			rawString(sim.ChargeOnceScript) + ")")
		c.add(`
// write charges the order once, however often it is asked.
func write(ctx context.Context, store *redis.Client, token int64, who string) (bool, error) {
	n, err := chargeOnce.Run(ctx, store, []string{processedKey, chargesKey}, who).Int()
	return n == 1, err
}`)
	case d.Charges:
		c.add(`
// write charges the order: every call is one more charge.
func write(ctx context.Context, store *redis.Client, token int64, who string) (bool, error) {
	return true, store.RPush(ctx, chargesKey, who).Err()
}`)
	case d.Fence:
		c.add("// fencedWrite refuses a token lower than the last one accepted; check and\n// update are one script.\nvar fencedWrite = redis.NewScript(" +
			rawString(sim.FencedWriteScript) + ")")
		c.add(`
// write stores the result with the fencing token; a holder whose lock was
// taken over after a pause is refused here, at the storage.
func write(ctx context.Context, store *redis.Client, token int64, who string) (bool, error) {
	n, err := fencedWrite.Run(ctx, store, []string{dataKey, tokenKey}, token, "written by "+who).Int()
	return n == 1, err
}`)
	default:
		c.add(`
// write stores the result. Nothing checks who is writing: a holder whose
// lock expired during a pause overwrites the next holder's result.
func write(ctx context.Context, store *redis.Client, token int64, who string) (bool, error) {
	return true, store.Set(ctx, dataKey, "written by "+who, 0).Err()
}`)
	}
}

func runProgram(c *codeWriter, d codeDesign) {
	switch {
	case d.Local:
		c.add(`
// Run is one server's program: lock, work, charge, unlock.
func Run(ctx context.Context, store *redis.Client, who string) error {
	if err := acquire(ctx); err != nil {
		return err
	}
	defer release(ctx)
	time.Sleep(work)
	_, err := write(ctx, store, 0, who)
	return err
}`)
	case d.Redlock:
		c.add(`
// Run is one client's program: lock a majority, work, write, unlock. The
// work has to end within the lock's validity, and nothing here can make
// sure it does: a pause after acquire outlives it unnoticed.
func Run(ctx context.Context, nodes []*redis.Client, store *redis.Client, who string) error {
	value, _, err := acquire(ctx, nodes)
	if err != nil {
		return err
	}
	time.Sleep(work)
	if _, err := write(ctx, store, 0, who); err != nil {
		return err
	}
	return release(ctx, nodes, value)
}`)
	default:
		c.add(`
// Run is one client's program: acquire, work, write, release.
func Run(ctx context.Context, rdb, store *redis.Client, who string) error {
	value, token, err := acquire(ctx, rdb)
	if err != nil {
		return err
	}
	time.Sleep(work)
	if _, err := write(ctx, store, token, who); err != nil {
		return err
	}
	return release(ctx, rdb, value)
}`)
	}
}
