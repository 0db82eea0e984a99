// Package limits keeps one client from taking what every learner shares:
// a token bucket per client (golang.org/x/time/rate) for each kind of
// expensive request — an exploration of the Lab, a design grade, a class
// created, a student joining, a class stream, an answer sent to a class. The buckets themselves are
// bounded: past MaxClients the client seen least recently is forgotten
// first, so a flood of addresses cannot grow the process either.
//
// A client is its remote address, or, behind a proxy the operator trusts
// (-trust-proxy), the address that proxy saw: the last entry of
// X-Forwarded-For, the one it appended itself. The defaults (web.Config)
// are set so that a classroom of 60 behind one school NAT, one address
// for all, never meets them; they stop one client that loops.
package limits

import (
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	lru "github.com/hashicorp/golang-lru/v2"
	"golang.org/x/time/rate"
)

// Kind is a kind of expensive request, each with its own buckets.
type Kind string

// The kinds.
const (
	Explore Kind = "explore" // a Lab exploration or a design grade
	Create  Kind = "create"  // a class created
	Join    Kind = "join"    // a student joining a class
	Stream  Kind = "stream"  // a class's event stream opened
	Answer  Kind = "answer"  // an answer or a challenge's result sent to a class
)

// Rule is a bucket's size: Burst requests at once, then one every Every.
type Rule struct {
	Every time.Duration
	Burst int
}

// MaxClients is how many clients' buckets are kept (per kind).
const MaxClients = 10_000

// Limiter holds the buckets. Its zero value is not usable: see New.
type Limiter struct {
	TrustProxy bool
	rules      map[Kind]Rule
	now        func() time.Time

	mu      sync.Mutex
	buckets map[Kind]*lru.Cache[string, *rate.Limiter]
}

// New makes a limiter with these rules; a kind without one is not limited.
func New(trustProxy bool, rules map[Kind]Rule) *Limiter {
	return &Limiter{TrustProxy: trustProxy, rules: rules, now: time.Now, buckets: map[Kind]*lru.Cache[string, *rate.Limiter]{}}
}

// Allow takes a token from r's client's bucket of kind k. When there is
// none, it says how long until there will be one.
func (l *Limiter) Allow(r *http.Request, k Kind) (ok bool, retryAfter time.Duration) {
	if l == nil {
		return true, 0
	}
	rule, limited := l.rules[k]
	if !limited || rule.Every <= 0 {
		return true, 0
	}
	now := l.now()
	l.mu.Lock()
	defer l.mu.Unlock()
	b := l.buckets[k]
	if b == nil {
		b, _ = lru.New[string, *rate.Limiter](MaxClients) // MaxClients > 0: no error
		l.buckets[k] = b
	}
	client := ClientOf(r, l.TrustProxy)
	lim, ok := b.Get(client)
	if !ok {
		lim = rate.NewLimiter(rate.Every(rule.Every), rule.Burst)
		b.Add(client, lim)
	}
	res := lim.ReserveN(now, 1)
	if !res.OK() {
		return false, rule.Every
	}
	if d := res.DelayFrom(now); d > 0 {
		res.CancelAt(now)
		return false, d
	}
	return true, 0
}

// Client is the client r comes from as l tells clients apart (ClientOf,
// the proxy trusted if l says so; a nil Limiter trusts none): what the
// class's per-client caps count by.
func (l *Limiter) Client(r *http.Request) string {
	return ClientOf(r, l != nil && l.TrustProxy)
}

// ClientOf is the client r comes from: its remote address without the
// port, or — behind a trusted proxy — the last address of
// X-Forwarded-For (the one the proxy appended; earlier ones are the
// client's own word).
func ClientOf(r *http.Request, trustProxy bool) string {
	if trustProxy {
		if xff := r.Header.Values("X-Forwarded-For"); len(xff) > 0 {
			last := xff[len(xff)-1]
			if i := strings.LastIndexByte(last, ','); i >= 0 {
				last = last[i+1:]
			}
			if ip := net.ParseIP(strings.TrimSpace(last)); ip != nil {
				return ip.String()
			}
		}
	}
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// Defaults are each client's share when the operator sets none. They are
// sized for the worst honest case, a classroom of 60 behind one school
// NAT sharing one address: 120 explorations at once and four a second
// after that (each learner one every 15 s; a page already explored comes
// from the page cache and costs nothing), 120 students joining at once,
// 240 streams (each phone reconnects on its own after a network hiccup),
// 240 answers at once (each of the 60 answering a question and changing
// it three times, or telling a challenge's result), then four a second,
// and 10 classes created at once, then one a minute. One client looping
// meets them within seconds.
var Defaults = map[Kind]Rule{
	Explore: {Every: 250 * time.Millisecond, Burst: 120},
	Join:    {Every: 500 * time.Millisecond, Burst: 120},
	Stream:  {Every: 250 * time.Millisecond, Burst: 240},
	Answer:  {Every: 250 * time.Millisecond, Burst: 240},
	Create:  {Every: time.Minute, Burst: 10},
}

// ParseRule reads a rule as a flag writes it: "120/250ms" (a burst of
// 120, then one every 250 ms), or "off".
func ParseRule(s string) (Rule, bool) {
	if s == "off" {
		return Rule{}, true
	}
	b, every, ok := strings.Cut(s, "/")
	if !ok {
		return Rule{}, false
	}
	n, err1 := strconv.Atoi(b)
	d, err2 := time.ParseDuration(every)
	if err1 != nil || err2 != nil || n < 1 || d <= 0 {
		return Rule{}, false
	}
	return Rule{Every: d, Burst: n}, true
}

// String writes r as ParseRule reads it.
func (r Rule) String() string {
	if r.Every <= 0 {
		return "off"
	}
	return strconv.Itoa(r.Burst) + "/" + r.Every.String()
}
