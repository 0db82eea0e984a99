// Package site is what every page of every feature shares: the page
// frame and its language menu, the one error path, rendering, the page
// cache and ETags, the static assets, absolute addresses, what every
// embed shares (its theme, its address, the iframe snippet, a link's
// card: embed.go), and the slots that bound how many replays,
// explorations and pictures run at once. Features (lesson, lab, design,
// challenge, class, end, oembed) each hold the one *Site that main
// builds (through web.New); none of them keeps per-learner state.
package site

import (
	"context"
	"errors"
	"log/slog"
	"runtime"
	"strings"
	"time"

	"locklab/lessons"
	"locklab/sim"
	"locklab/web/i18n"
	"locklab/web/limits"
)

// Course is what the site needs of the lesson catalog.
type Course interface {
	List(lang string) []*lessons.Lesson
	Get(lang, slug string) (*lessons.Lesson, bool)
	Neighbours(l *lessons.Lesson) (prev, next *lessons.Lesson)
	// the challenges (lessons/challenges.go)
	Challenges(lang string) []*lessons.Challenge
	Challenge(lang, id string) (*lessons.Challenge, bool)
	ChallengesOf(l *lessons.Lesson) []*lessons.Challenge
	Next(ch *lessons.Challenge) *lessons.Challenge
}

// ReplayFunc replays a timeline; sim.ReplayContext in production.
type ReplayFunc func(ctx context.Context, sc *sim.Scenario, opts sim.Opts, actions []sim.Action) (*sim.Timeline, error)

// Config holds what main chooses for the whole site.
type Config struct {
	// Version identifies the build; ETags include it, so a new build never
	// answers 304 with an old page.
	Version string
	// CacheBytes bounds the cache of rendered pages.
	CacheBytes int
	// Replays bounds concurrent replays (default 2 × GOMAXPROCS).
	Replays int
	// LabDeadline bounds one exploration (default: the LabDeadline
	// constant); tests that need a complete search on a slow machine
	// raise it.
	LabDeadline time.Duration
	// PublicURL is the site's address as phones in a classroom reach it
	// (for "share this moment"); empty means the request's own host.
	PublicURL string
	// Hosts are the host names the server answers to (-hosts; empty:
	// any). See HostAllowed.
	Hosts []string
	// LANURL is where other machines reach this server when it listens on
	// every interface ("" when it listens on one address, or none is
	// known): offered when a class's join address is a loopback one.
	LANURL string
	// NoCache replays every request (no page cache, no ETag): set with a
	// live Redis backend, whose pages must show what that server answers
	// now — and its absence when it is gone — not a copy.
	NoCache bool
	// Limits is each client's share of the expensive requests (nil: no
	// limit, as in most tests).
	Limits *limits.Limiter
	// TrustProxy: a reverse proxy the operator runs is in front
	// (-trust-proxy), so its X-Forwarded-Proto says whether the browser
	// used HTTPS (HTTPS). Without it, a client's own header is not
	// believed: it would choose the scheme of the page's absolute links
	// (and of a page cached for everyone) and of the cookies it is given.
	TrustProxy bool
}

// Site holds what the pages share. Its mutable parts are the page cache
// and the slots, both safe for concurrent use.
type Site struct {
	Course  Course
	Assets  *Assets
	Log     *slog.Logger
	NoCache bool // see Config.NoCache
	// LabDeadline bounds one exploration.
	LabDeadline time.Duration
	// Limits is each client's share of the expensive requests (Limit).
	Limits *limits.Limiter
	// LANURL: see Config.LANURL.
	LANURL string

	replay     ReplayFunc
	version    string
	cache      *pageCache
	publicURL  string
	hosts      []string // lower case; see HostAllowed
	trustProxy bool     // see Config.TrustProxy
	// replays bounds how many replays run at once: the rest wait (up to
	// the request's deadline), so a burst of costly timelines cannot
	// starve the machine.
	replays chan struct{}
	// labs bounds how many explorations run at once (half the replay
	// slots, at least one), so the Lab can never take every slot.
	labs chan struct{}
}

// lowerAll is hosts in lower case, without empty entries.
func lowerAll(hosts []string) []string {
	var out []string
	for _, h := range hosts {
		if h = strings.ToLower(strings.TrimSpace(h)); h != "" {
			out = append(out, h)
		}
	}
	return out
}

// New builds the Site; web.New is its one caller outside tests.
func New(course Course, assets *Assets, replay ReplayFunc, log *slog.Logger, cfg Config) *Site {
	if cfg.CacheBytes <= 0 {
		cfg.CacheBytes = 16 << 20
	}
	if cfg.Replays <= 0 {
		cfg.Replays = 2 * runtime.GOMAXPROCS(0)
	}
	if cfg.LabDeadline <= 0 {
		cfg.LabDeadline = LabDeadline
	}
	return &Site{Course: course, Assets: assets, replay: replay, Log: log, version: cfg.Version,
		cache: newPageCache(cfg.CacheBytes), replays: make(chan struct{}, cfg.Replays), publicURL: cfg.PublicURL, hosts: lowerAll(cfg.Hosts), trustProxy: cfg.TrustProxy,
		NoCache: cfg.NoCache, labs: make(chan struct{}, max(1, cfg.Replays/2)), LabDeadline: cfg.LabDeadline, Limits: cfg.Limits, LANURL: cfg.LANURL}
}

// ReplayDeadline bounds one request's replay; the worst timeline the
// limits allow takes about a fifth of it on the reference machine.
const ReplayDeadline = 2 * time.Second

// ErrBusy: every replay slot stayed taken until the request's deadline.
var ErrBusy = errors.New("site: every replay slot is taken")

// Replay replays a timeline in one replay slot, held while it runs and
// given back however the replay ends, a panic included (the recoverer
// answers that one). It waits for a slot at most until ReplayDeadline,
// then answers ErrBusy; any other error is the replay's.
func (s *Site) Replay(ctx context.Context, sc *sim.Scenario, opts sim.Opts, actions []sim.Action) (*sim.Timeline, error) {
	ctx, cancel := context.WithTimeout(ctx, ReplayDeadline)
	defer cancel()
	select {
	case s.replays <- struct{}{}:
		defer func() { <-s.replays }()
	case <-ctx.Done():
		return nil, ErrBusy
	}
	return s.replay(ctx, sc, opts, actions)
}

// InSlot runs f in one replay slot, waiting for it as Replay does (the
// 503 of a busy server after ReplayDeadline): work that costs about what
// a replay does — drawing a PNG — counts against the same bound, so a
// burst of pictures cannot starve the machine either.
func (s *Site) InSlot(ctx context.Context, u *i18n.UI, f func()) *Error {
	ctx, cancel := context.WithTimeout(ctx, ReplayDeadline)
	defer cancel()
	select {
	case s.replays <- struct{}{}:
		defer func() { <-s.replays }()
	case <-ctx.Done():
		return Busy(u)
	}
	f()
	return nil
}

// ReplaysRunning is how many replay slots are taken (for tests).
func (s *Site) ReplaysRunning() int { return len(s.replays) }

// LabDeadline is the safety stop of one exploration. The explorer's budget
// is counted in states (labStateCap), so a URL's answer is the same on a
// busy server and a quiet one; a search the deadline cuts short gives no
// verdict at all: the page says the server is busy and to try again.
const LabDeadline = 10 * time.Second

// LabSlots takes one Lab slot (half the replay slots at most, so lessons
// are never starved) and one replay slot, waiting for each only until ctx
// ends; release gives both back. The Lab and the design page's grade share
// it, so both count against the same limits.
func (s *Site) LabSlots(ctx context.Context, u *i18n.UI) (release func(), e *Error) {
	select {
	case s.labs <- struct{}{}:
	case <-ctx.Done():
		return nil, Busy(u)
	}
	select {
	case s.replays <- struct{}{}:
	case <-ctx.Done():
		<-s.labs
		return nil, Busy(u)
	}
	return func() { <-s.replays; <-s.labs }, nil
}
