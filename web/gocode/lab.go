// Package gocode writes a lock design out as a Go program with go-redis,
// for the Lab (lab.go) and the design page (design.go), its comments in
// the page's language. It knows nothing of HTTP.
//
// lab.go writes the Lab's design out as a Go program with go-redis:
// the same steps the simulated clients take, in the variant the learner
// chose, with comments in the page's language. TestLabCodeRuns builds
// every variant a lesson can show into one harness, runs each on the
// lessons' schedules against miniredis and compares the commands it sends
// with the simulator's, so the page never shows code that does something
// else than the timeline.
package gocode

import (
	"go/format"
	"slices"
	"strconv"
	"strings"

	"locklab/sim"
	"locklab/web/i18n"
)

// LabDesign is what the code depends on, read off a scenario and options.
type LabDesign struct {
	Local   bool   // an in-process mutex (lesson 1's mistake)
	Redlock bool   // a majority of independent nodes
	Acquire string // sim.AcquireSet, AcquireGetSet, AcquireSetNX
	TTL     bool
	TryOnce bool // one attempt, then give up (lesson 1's TryLock)
	Tokens  bool // a fencing token from INCR after acquiring
	Wait    bool // WAIT for the replica before trusting the lock
	Release string
	Charges bool  // the storage is a payment ledger
	Idem    bool  // … charged through an idempotency key
	Fence   bool  // the record is written through the fencing check
	Strict  bool  // … which wants a greater token (refuses a retry)
	TwoStep bool  // … done in two commands: GET the last token, then MSET
	Check   bool  // the client asks "still mine?" (GET) right before writing
	Host    bool  // the lock value is the host's name, not one per acquisition
	Work    int64 // how long the protected work takes, ms
	Resend  bool  // a write whose reply was lost is sent again (lesson 9)
}

// FromLab reads the code's design from a lesson's scenario and options.
// It reports false for a lock that does not live in Redis (ZooKeeper,
// etcd), which has no go-redis code.
func FromLab(sc *sim.Scenario, o sim.Opts) (LabDesign, bool) {
	if sc.Coord {
		return LabDesign{}, false
	}
	d := LabDesign{
		Local: o[sim.OptLock] == sim.LockLocal, Redlock: sc.Redlock,
		Acquire: o[sim.OptAcquire], TTL: o[sim.OptTTL] != sim.TTLOff, TryOnce: sc.Retry == 0,
		Tokens: sc.Tokens, Wait: sc.Replicated && o[sim.OptWait] == sim.WaitOn, Release: o[sim.OptRelease],
		Charges: sc.Storage == sim.StoreCharges, Idem: o[sim.OptIdem] == sim.IdemKey,
		Fence:  sc.Storage == sim.StoreFenced && o[sim.OptFence] != sim.FenceOff && sc.Tokens,
		Resend: sc.Drops, Strict: o[sim.OptFence] == sim.FenceStrict, Work: sc.WorkMs(o),
		TwoStep: o[sim.OptFence] == sim.FenceTwoStep, Check: o[sim.OptCheck] == sim.CheckGet,
		Host: o[sim.OptValue] == sim.ValueHost,
	}
	if d.Acquire == "" {
		d.Acquire = sim.AcquireSet
	}
	if d.Release == "" {
		d.Release = sim.ReleaseLua
	}
	return d, true
}

// fencedScript is the storage's fencing check the design uses: "not
// lower" (a retry passes), or "greater only" with fence.strict.
func fencedScript(d LabDesign) string {
	if d.Strict {
		return sim.FencedWriteStrictScript
	}
	return sim.FencedWriteScript
}

// codeWriter collects a Go file: the imports it turned out to need, and
// the declarations in order. u is the comments' language.
type codeWriter struct {
	u       *i18n.UI
	imports []string
	decls   []string
}

// say is a comment (or any text) in the page's language: en is its
// English and its key in the catalog's GoComments; {0}, {1}… take args.
func (c *codeWriter) say(en string, args ...string) string {
	return i18n.Fill(c.u.GoComment(en), args...)
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

// Lab writes the design as one Go file of package lock, its comments
// in lang (a language code of web/i18n). sc supplies the keys and timings, so the code
// uses the lesson's numbers.
func Lab(sc *sim.Scenario, d LabDesign, lang string) string {
	c := &codeWriter{u: i18n.For(lang)}
	c.use("context", "time", "github.com/redis/go-redis/v9")
	consts := c.say("// The lesson's keys and timings.") + "\nconst (\n"
	if !d.Local {
		consts += "\tlockKey = " + strconv.Quote(sc.LockKey()) + "\n"
		if d.TTL {
			consts += "\tttl     = " + goDuration(sc.TTL) + "\n"
		} else {
			consts += "\t" + c.say("// No TTL: a holder that dies leaves the key forever.") + "\n"
		}
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
	consts += "\twork = " + goDuration(d.Work) + " " + c.say("// how long the protected work takes") + "\n"
	if (!d.TryOnce && !d.Local) || d.Resend {
		consts += "\tretry = " + goDuration(sc.Retry) + "\n"
	}
	c.add(consts + ")")
	switch {
	case d.Host:
		c.use("os")
		c.add(c.say(`
// newValue is this host's name. Every acquisition made on this host, by
// any worker at any time, puts the same value in the key, so a holder
// cannot tell its own lock from the next one taken here: the value must
// be unique per acquisition, not per host or process.`) + `
func newValue() string {
	host, err := os.Hostname()
	if err != nil {
		panic(err)
	}
	return host
}`)
	case !d.Local:
		c.use("crypto/rand", "encoding/hex")
		c.add(c.say(`
// newValue is unique to one acquisition, so a holder can tell its own
// lock from the next holder's: 20 random bytes, as the Redis docs suggest
// (the simulated clients use 10, to keep the event log short).`) + `
func newValue() string {
	b := make([]byte, 20)
	if _, err := rand.Read(b); err != nil {
		panic(err) // ` + c.say("the system's random source failed") + `
	}
	return hex.EncodeToString(b)
}`)
	}
	switch {
	case d.Local:
		lockLocal(c)
	case d.Redlock:
		lockRedlock(c, sc)
	default:
		lockSingle(c, sc, d)
	}
	writeStorage(c, d)
	runProgram(c, d)
	doc := c.say("// Package lock is one Lock Lab design written out with go-redis:\n// {0}.\n", summary(c, d))
	src := c.file(doc)
	// gofmt it, as a Go programmer would see it; the pieces above are
	// written for reading, not aligned by hand.
	if out, err := format.Source([]byte(src)); err == nil {
		return string(out)
	}
	return src // TestLabCodeRuns fails on anything format rejects
}

// summary is the design in one line, for the file's doc comment.
func summary(c *codeWriter, d LabDesign) string {
	var parts []string
	switch {
	case d.Local:
		parts = append(parts, c.say("a mutex inside each process"))
	case d.Redlock:
		parts = append(parts, c.say("Redlock over independent nodes"))
	case d.Acquire == sim.AcquireGetSet:
		parts = append(parts, c.say("acquire with GET then SET"))
	case d.Acquire == sim.AcquireSetNX:
		parts = append(parts, c.say("acquire with SETNX then PEXPIRE"))
	default:
		parts = append(parts, c.say("acquire with one SET NX and a TTL"))
	}
	if !d.TTL {
		parts = append(parts, c.say("no TTL"))
	}
	if d.Wait {
		parts = append(parts, c.say("WAIT for the replica"))
	}
	if !d.Local && !d.Redlock {
		switch d.Release {
		case sim.ReleaseDel:
			parts = append(parts, c.say("release with a plain DEL"))
		case sim.ReleaseGetDel:
			parts = append(parts, c.say("release with GET then DEL"))
		case sim.ReleaseDelex:
			parts = append(parts, c.say("release with DELEX IFEQ"))
		default:
			parts = append(parts, c.say("release with a compare-and-delete script"))
		}
	}
	switch {
	case d.Charges && d.Idem:
		parts = append(parts, c.say("charges through an idempotency key"))
	case d.Charges:
		parts = append(parts, c.say("charges with a plain RPUSH"))
	case d.TwoStep:
		parts = append(parts, c.say("the fencing token checked in two commands (GET, then MSET)"))
	case d.Fence:
		parts = append(parts, c.say("writes checked against a fencing token"))
	default:
		parts = append(parts, c.say("writes not checked"))
	}
	if d.Check {
		parts = append(parts, c.say("a “still mine?” GET before writing"))
	}
	if d.Host {
		parts = append(parts, c.say("the host's name as the lock value"))
	}
	return strings.Join(parts, c.say(", "))
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

// wireTTL is how go-redis writes a TTL into SET: whole seconds as EX,
// anything else as PX.
func wireTTL(ms int64) string {
	if ms%1000 == 0 {
		return "EX " + strconv.FormatInt(ms/1000, 10)
	}
	return "PX " + strconv.FormatInt(ms, 10)
}

// rawString quotes a script as a Go raw string (the scripts hold no
// backquote).
func rawString(s string) string { return "`" + s + "`" }

// retryWait is the loop's pause before the next attempt; ctx ends it.
func retryWait(ret string) string {
	return `
		select {
		case <-ctx.Done():
			return ` + ret + `ctx.Err()
		case <-time.After(retry):
		}`
}

func lockLocal(c *codeWriter) {
	c.use("sync")
	c.add(c.say(`
// mu only excludes the goroutines of this process: another server has its
// own mu and charges at the same time.`) + `
var mu sync.Mutex

func acquire(context.Context) error { mu.Lock(); return nil }

func release(context.Context) error { mu.Unlock(); return nil }`)
}

// lockSingle writes the lock on one Redis server: tryAcquire, the acquire
// loop around it, and release. They are three functions here as in the
// program because the learner picks the acquire command and the release
// separately, and the loop is the same whichever command it repeats.
func lockSingle(c *codeWriter, sc *sim.Scenario, d LabDesign) {
	singleTryAcquire(c, sc, d)
	// The script serves acquire (giving back a lock the replica did not
	// get) as well as release, so it is declared before both.
	if d.Release == sim.ReleaseLua || d.Wait {
		c.add(c.say("// releaseScript deletes the lock only while it still holds our value.") +
			"\nvar releaseScript = redis.NewScript(" + rawString(sim.ReleaseScript) + ")")
	}
	singleAcquire(c, d)
	singleRelease(c, d)
}

// singleTryAcquire writes tryAcquire, one attempt with the acquire command
// the learner chose (GET then SET, SETNX then PEXPIRE, or one SET NX), so
// the page shows the very commands, and the gap between two of them, that
// the timeline sends.
func singleTryAcquire(c *codeWriter, sc *sim.Scenario, d LabDesign) {
	ttl := "ttl"
	if !d.TTL {
		ttl = "0"
	}
	switch d.Acquire {
	case sim.AcquireGetSet:
		c.use("errors")
		c.add(c.say(`
// tryAcquire looks, then writes: two commands. Two clients can both see
// the key free between them, and both SET it.`) + `
func tryAcquire(ctx context.Context, rdb *redis.Client, value string) (bool, error) {
	err := rdb.Get(ctx, lockKey).Err()
	if err == nil {
		return false, nil // ` + c.say("someone holds it") + `
	}
	if !errors.Is(err, redis.Nil) {
		return false, err
	}
	return true, rdb.Set(ctx, lockKey, value, ` + ttl + `).Err()
}`)
	case sim.AcquireSetNX:
		expire := "\n\t" + c.say("// The gap: if the process dies here, the key stays without a TTL.") + `
	return true, rdb.PExpire(ctx, lockKey, ttl).Err()`
		if !d.TTL {
			expire = "\n\treturn true, nil"
		}
		c.add(c.say(`
// tryAcquire sends SETNX (set if absent, with no TTL), then gives the key
// a TTL with a second command. go-redis's SetNX method sends SET … NX
// nowadays, so the old command goes out as it is, through Do.`) + `
func tryAcquire(ctx context.Context, rdb *redis.Client, value string) (bool, error) {
	ok, err := rdb.Do(ctx, "SETNX", lockKey, value).Bool()
	if err != nil || !ok {
		return false, err
	}` + expire + `
}`)
	default:
		c.use("errors")
		setArgs := `redis.SetArgs{Mode: "NX", TTL: ttl}`
		if !d.TTL {
			setArgs = `redis.SetArgs{Mode: "NX"}`
		}
		doc := c.say(`
// tryAcquire is one atomic command: SET key value NX, with the TTL.
// go-redis writes a TTL of whole seconds as {0} (the same as PX {1}).`, wireTTL(sc.TTL), strconv.FormatInt(sc.TTL, 10))
		if !d.TTL {
			doc = c.say(`
// tryAcquire is one atomic command: SET key value NX (here with no TTL).`)
		}
		c.add(doc + `
func tryAcquire(ctx context.Context, rdb *redis.Client, value string) (bool, error) {
	err := rdb.SetArgs(ctx, lockKey, value, ` + setArgs + `).Err()
	if errors.Is(err, redis.Nil) {
		return false, nil // ` + c.say("someone holds it") + `
	}
	return err == nil, err
}`)
	}
}

// singleAcquire writes acquire, the loop around tryAcquire: it tries once
// or until it holds the lock, then takes a fencing token and waits for the
// replica if the design does. Each of those is a choice of the lesson, so
// the function is put together from the ones the design makes, in the
// order the simulated client takes those steps.
func singleAcquire(c *codeWriter, d LabDesign) {
	acquire := c.say("\n// acquire tries until it holds the lock")
	if d.TryOnce {
		c.use("errors")
		c.add(c.say("// errTaken: the lock was held by someone else; this client tries once.") +
			"\nvar errTaken = errors.New(\"lock taken\")")
		acquire = c.say("\n// acquire tries once, like a TryLock")
	}
	if d.Tokens {
		acquire += c.say(`, then takes a fencing token: a number
// that grows with every acquisition, for the storage to check`)
	}
	acquire += c.say(".") + `
func acquire(ctx context.Context, rdb *redis.Client) (value string, token int64, err error) {
	value = newValue()
	for {
		ok, err := tryAcquire(ctx, rdb, value)`
	if d.TryOnce {
		acquire += `
		if err != nil {
			return "", 0, err
		}
		if !ok {
			return "", 0, errTaken
		}`
	} else {
		acquire += `
		if err != nil || !ok {
			` + c.say("// Taken, or no reply: try again after a while.") +
			retryWait(`"", 0, `) + `
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
		acquire += `
		` + c.say(`// Trust the lock only once the replica has it too; otherwise a
		// failover could hand the same lock to someone else.`) + `
		acked, err := rdb.Wait(ctx, 1, 3*time.Second).Result()
		if err != nil || acked < 1 {
			if err == nil {
				` + c.say(`// The primary has it, the replica not yet: give it back.`) + `
				if err := releaseScript.Eval(ctx, rdb, []string{lockKey}, value).Err(); err != nil && !errors.Is(err, redis.Nil) {
					return "", 0, err
				}
			}` + retryWait(`"", 0, `) + `
			continue
		}`
	}
	acquire += `
		return value, token, nil
	}
}`
	c.add(acquire)
}

// singleRelease writes release with the command the learner chose: a plain
// DEL, GET then DEL, DELEX or the compare-and-delete script, each with a
// comment on whose lock it can delete, the point of the lesson on release.
func singleRelease(c *codeWriter, d LabDesign) {
	switch d.Release {
	case sim.ReleaseDel:
		c.add(c.say(`
// release deletes the key, whoever's it is now: if our lock expired and
// another client took it, this deletes theirs.`) + `
func release(ctx context.Context, rdb *redis.Client, value string) error {
	return rdb.Del(ctx, lockKey).Err()
}`)
	case sim.ReleaseGetDel:
		c.use("errors")
		c.add(c.say(`
// release checks, then deletes: two commands. The lock can expire and be
// taken by another client between them.`) + `
func release(ctx context.Context, rdb *redis.Client, value string) error {
	holder, err := rdb.Get(ctx, lockKey).Result()
	if errors.Is(err, redis.Nil) || (err == nil && holder != value) {
		return nil // ` + c.say("gone, or not ours any more") + `
	}
	if err != nil {
		return err
	}
	return rdb.Del(ctx, lockKey).Err()
}`)
	case sim.ReleaseDelex:
		c.add(c.say(`
// release deletes the key only if it still holds our value, in one
// command (DELEX key IFEQ value, Redis 8.4 and later).`) + `
func release(ctx context.Context, rdb *redis.Client, value string) error {
	return rdb.DelExArgs(ctx, lockKey, redis.DelExArgs{Mode: "IFEQ", MatchValue: value}).Err()
}`)
	default:
		c.use("errors")
		c.add(c.say(`
// release runs the compare-and-delete script: the check and the delete
// happen in one step on the server, so it never removes another's lock.`) + `
func release(ctx context.Context, rdb *redis.Client, value string) error {
	err := releaseScript.Eval(ctx, rdb, []string{lockKey}, value).Err()
	if errors.Is(err, redis.Nil) {
		return nil
	}
	return err
}`)
	}
}

func lockRedlock(c *codeWriter, sc *sim.Scenario) {
	c.use("errors")
	c.add(c.say("// unlockScript deletes the lock only while it still holds our value.") +
		"\nvar unlockScript = redis.NewScript(" + rawString(sim.ReleaseScript) + ")")
	c.add(c.say(`
// drift is the allowance for clocks that tick at slightly different rates.`) + `
const drift = ttl/100 + 2*time.Millisecond

` + c.say(`// acquire sets the same key and value on every node (SET … NX, the TTL
// as {0}); the lock counts only if a majority said OK and time
// is left of its validity. Otherwise it unlocks every node (a reply may
// have been lost after a SET) and retries.`, wireTTL(sc.TTL)) + `
func acquire(ctx context.Context, nodes []*redis.Client) (value string, validUntil time.Time, err error) {
	value = newValue()
	for {
		start := time.Now()
		oks := 0
		for _, n := range nodes {
			if n.SetArgs(ctx, lockKey, value, redis.SetArgs{Mode: "NX", TTL: ttl}).Err() == nil {
				oks++
			}
		}
		validity := ttl - time.Since(start) - drift
		if oks >= len(nodes)/2+1 && validity > 0 {
			return value, start.Add(validity), nil
		}
		_ = release(ctx, nodes, value) // ` + c.say("a node that does not answer keeps its copy until the TTL") +
		retryWait(`"", time.Time{}, `) + `
	}
}

` + c.say(`// release runs the compare-and-delete script on every node, even after
// one of them did not answer: the others must still let go.`) + `
func release(ctx context.Context, nodes []*redis.Client, value string) error {
	var errs []error
	for _, n := range nodes {
		if err := unlockScript.Eval(ctx, n, []string{lockKey}, value).Err(); err != nil && !errors.Is(err, redis.Nil) {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}`)
}

func writeStorage(c *codeWriter, d LabDesign) {
	var doc, send, result string
	switch {
	case d.Charges && d.Idem:
		c.add(c.say("// chargeOnce writes the idempotency key and the charge together: a\n// repeated request is a no-op.") +
			"\nvar chargeOnce = redis.NewScript(" + rawString(sim.ChargeOnceScript) + ")")
		doc = c.say("// write charges the order once, however often it is asked.")
		send = `n, err := chargeOnce.Eval(ctx, store, []string{processedKey, chargesKey}, who).Int()`
		result = "n == 1, err"
	case d.Charges:
		doc = c.say("// write charges the order: every call is one more charge.")
		send = `err := store.RPush(ctx, chargesKey, who).Err()`
		result = "err == nil, err"
	case d.TwoStep:
		c.use("errors")
		doc = c.say(`// write checks the fencing token in two commands: it reads the last token
// the storage accepted, then writes the result and its token together.
// Another writer can read the same old token between the two, and the
// MSET that lands last wins, whatever its token.`)
		c.add(doc + `
func write(ctx context.Context, store *redis.Client, token int64, who string) (bool, error) {
	last, err := store.Get(ctx, tokenKey).Int64()
	if err != nil && !errors.Is(err, redis.Nil) {
		return false, err
	}
	if token < last {
		return false, nil // ` + c.say("refused: a newer holder already wrote") + `
	}
	` + c.say("// The gap: another write can land here, between the check and the update.") + `
	return true, store.MSet(ctx, dataKey, "written by "+who, tokenKey, token).Err()
}`)
		return
	case d.Fence:
		c.add(c.say("// fencedWrite refuses a token lower than the last one accepted; check and\n// update are one script.") +
			"\nvar fencedWrite = redis.NewScript(" + rawString(fencedScript(d)) + ")")
		doc = c.say("// write stores the result with the fencing token; a holder whose lock was\n// taken over after a pause is refused here, at the storage.")
		send = `n, err := fencedWrite.Eval(ctx, store, []string{dataKey, tokenKey}, token, "written by "+who).Int()`
		result = "n == 1, err"
	default:
		doc = c.say("// write stores the result. Nothing checks who is writing: a holder whose\n// lock expired during a pause overwrites the next holder's result.")
		send = `err := store.Set(ctx, dataKey, "written by "+who, 0).Err()`
		result = "err == nil, err"
	}
	body := "\t" + send + "\n\treturn " + result
	if d.Resend {
		c.use("errors", "net")
		doc += c.say("\n// A request whose reply was lost is sent again: the client cannot tell\n// whether it happened.")
		body = "\tfor {\n\t\t" + send + `
		var ne net.Error
		if !errors.As(err, &ne) || !ne.Timeout() {
			return ` + result + `
		}` + retryWait("false, ") + "\n\t}"
	}
	c.add(doc + "\nfunc write(ctx context.Context, store *redis.Client, token int64, who string) (bool, error) {\n" + body + "\n}")
}

func runProgram(c *codeWriter, d LabDesign) {
	switch {
	case d.Local:
		c.add(c.say(`
// Run is one server's program: lock, work, charge, unlock.`) + `
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
		c.add(c.say(`
// Run is one client's program: lock a majority, work, write, unlock. The
// work has to end within the lock's validity, and nothing here can make
// sure it does: a pause after acquire outlives it unnoticed.`) + `
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
		check := ""
		if d.Check {
			c.use("errors")
			c.add(c.say(`
// stillMine asks Redis whether the lock still holds our value. The answer
// is true when Redis gives it, but the lock can expire right after, and a
// pause between this check and the write goes unseen: the check and the
// write are two steps, not one. Only the storage can refuse a stale write
// (a fencing token).`) + `
func stillMine(ctx context.Context, rdb *redis.Client, value string) (bool, error) {
	holder, err := rdb.Get(ctx, lockKey).Result()
	if errors.Is(err, redis.Nil) {
		return false, nil
	}
	return err == nil && holder == value, err
}`)
			check = `
	if mine, err := stillMine(ctx, rdb, value); err != nil || !mine {
		return err // ` + c.say("the lock is gone: do not write") + `
	}
	` + c.say("// A pause here, after the check, lets the write go out stale.")
		}
		c.add(c.say(`
// Run is one client's program: acquire, work, write, release.`) + `
func Run(ctx context.Context, rdb, store *redis.Client, who string) error {
	value, token, err := acquire(ctx, rdb)
	if err != nil {
		return err
	}
	time.Sleep(work)` + check + `
	if _, err := write(ctx, store, token, who); err != nil {
		return err
	}
	return release(ctx, rdb, value)
}`)
	}
}
