// design.go writes a learner's design out as a Go program with
// go-redis, like the Lab's code (lab.go): the learner's scripts, each
// part one EVAL in the order the simulated clients send them, the same
// keys, TTL, work time and retry, comments in the page's language.
package gocode

import (
	"go/format"
	"strconv"
	"strings"

	"locklab/sim"
	"locklab/sim/lockdesign"
	"locklab/web/i18n"
)

// goString is a Go literal of a script: a raw string unless the script
// holds a backquote (or a character a raw string cannot carry).
func goString(s string) string {
	if !strings.ContainsAny(s, "`\r\x00") {
		return "`" + s + "`"
	}
	return strconv.Quote(s)
}

// Design is the design as one Go file of package lock.
func Design(d *lockdesign.Design, lang string) string {
	sc, err := d.Scenario()
	if err != nil {
		return ""
	}
	c := &codeWriter{u: i18n.For(lang)}
	c.use("context", "crypto/rand", "encoding/hex", "errors", "net", "time", "github.com/redis/go-redis/v9")
	c.add(c.say("// The keys and times of your design.") + `
const (
	lockKey  = ` + strconv.Quote(sc.LockKey()) + `
	fenceKey = ` + strconv.Quote(sc.FenceKey()) + `
	dataKey  = ` + strconv.Quote(sc.DataKey()) + `
	tokenKey = ` + strconv.Quote(sc.TokenKey()) + `
	ttl      = ` + goDuration(d.TTL) + `
	work     = ` + goDuration(d.Work) + `
	retry    = ` + goDuration(sc.Retry) + `
)`)
	if d.Effect == lockdesign.EffectAdd {
		c.add(c.say(`// The write adds amount to a total (ARGV[2]): not idempotent. The same
// write applied twice counts the job twice.`) + `
const amount = ` + strconv.Itoa(sim.AddAmount))
	}
	writeArg := `"written by " + who`
	if d.Effect == lockdesign.EffectAdd {
		writeArg = "amount"
	}
	parts := func(name string, p sim.Piece) string {
		src := d.Script(p)
		if src == "" {
			return "\t" + name + " []string // " + c.say("no extend script") + "\n"
		}
		var b strings.Builder
		b.WriteString("\t" + name + " = []string{\n")
		for _, part := range sim.Parts(src) {
			b.WriteString("\t\t" + goString(part) + ",\n")
		}
		b.WriteString("\t}\n")
		return b.String()
	}
	c.add(c.say("// Your scripts. A script split by “-- then” is several commands: one EVAL per part.") + "\nvar (\n" +
		parts("acquireParts", sim.PieceAcquire) + parts("releaseParts", sim.PieceRelease) +
		parts("extendParts", sim.PieceExtend) + parts("writeParts", sim.PieceWrite) + ")")
	c.add(c.say(`// run sends each part in turn. A reply that is not success (1 or OK) ends
// it there, and so does an error reply: a script that fails at run time
// is a no, as on the timeline.`) + `
func run(ctx context.Context, rdb *redis.Client, parts []string, keys []string, args ...any) (bool, error) {
	for _, src := range parts {
		v, err := rdb.Eval(ctx, src, keys, args...).Result()
		var reply redis.Error
		switch {
		case errors.Is(err, redis.Nil), errors.As(err, &reply):
			return false, nil
		case err != nil:
			return false, err
		}
		if v != int64(1) && v != "OK" {
			return false, nil
		}
	}
	return true, nil
}`)
	c.add(c.say("// newValue is this acquisition's random value: 20 random bytes, as the Redis docs suggest\n// (the simulated clients use 10, to keep the event log short).") + `
func newValue() string {
	b := make([]byte, 20)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}`)
	c.add(c.say("// acquire tries until the acquire script says yes, then takes a fencing token.") + `
func acquire(ctx context.Context, rdb *redis.Client) (value string, token int64, err error) {
	value = newValue()
	for {
		ok, err := run(ctx, rdb, acquireParts, []string{lockKey}, value, ttl.Milliseconds())
		if err != nil {
			return "", 0, err
		}
		if ok {
			break
		}
		select {
		case <-time.After(retry):
		case <-ctx.Done():
			return "", 0, ctx.Err()
		}
	}
	token, err = rdb.Incr(ctx, fenceKey).Result()
	return value, token, err
}`)
	c.add(c.say(`// workAndWrite does the work, extending the lock after every half TTL of it
// (and once more just before writing) if the design extends, then sends
// the write to the storage. It reports whether the storage accepted it.
// A write whose reply times out may have been applied or not: it is sent
// again, with the same token and the same value.`) + `
func workAndWrite(ctx context.Context, rdb, store *redis.Client, value string, token int64, who string) (bool, error) {
	left, slice := work, work
	if extendParts != nil {
		slice = ttl / 2
	}
	for left > 0 {
		n := min(left, slice)
		time.Sleep(n) // ` + c.say("the work") + `
		left -= n
		if extendParts == nil {
			continue
		}
		ok, err := run(ctx, rdb, extendParts, []string{lockKey}, value, ttl.Milliseconds())
		if err != nil || !ok {
			return false, err // ` + c.say("the lock is gone: do not write") + `
		}
	}
	ok, err := run(ctx, store, writeParts, []string{dataKey, tokenKey}, token, ` + writeArg + `)
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		ok, err = run(ctx, store, writeParts, []string{dataKey, tokenKey}, token, ` + writeArg + `)
	}
	return ok, err
}`)
	c.add(c.say("// Run is one client's program: acquire, work and write, release.") + `
func Run(ctx context.Context, rdb, store *redis.Client, who string) error {
	value, token, err := acquire(ctx, rdb)
	if err != nil {
		return err
	}
	if _, err := workAndWrite(ctx, rdb, store, value, token, who); err != nil {
		return err
	}
	_, err = run(ctx, rdb, releaseParts, []string{lockKey}, value)
	return err
}`)
	src := c.file(c.say("// Package lock is your design from Lock Lab's “Bring your own lock”.\n"))
	if out, err := format.Source([]byte(src)); err == nil {
		return string(out)
	}
	return src
}
