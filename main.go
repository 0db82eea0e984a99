// Command locklab serves Lock Lab: lessons on distributed locks whose
// timelines run on embedded miniredis servers. This file is the only place
// that builds things and wires them together.
package main

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"locklab/web/class"
	"locklab/web/limits"
	"log/slog"
	"net"
	"net/http"
	"net/http/pprof"
	"net/url"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"

	"locklab/lessons"
	"locklab/sim"
	"locklab/sim/realredis"
	"locklab/static"
	"locklab/web"
	"locklab/web/i18n"
	"locklab/web/middleware"
	"locklab/web/site"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "locklab:", err)
		os.Exit(1)
	}
}

// run starts Lock Lab as the command line asks and serves until an
// interrupt, then shuts down in order.
func run(args []string) error {
	cfg, err := parseFlags(args)
	if err != nil {
		return err
	}
	replay, err := replayFunc(cfg.redisURL)
	if err != nil {
		return err
	}
	level := slog.LevelInfo
	if cfg.verbose {
		level = slog.LevelDebug
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: level}))

	course, err := lessons.Load(i18n.Codes()...)
	if err != nil {
		return fmt.Errorf("lessons: %w", err)
	}
	assets, err := site.NewAssets(static.FS)
	if err != nil {
		return fmt.Errorf("static files: %w", err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	classes, stopClasses, err := classroom(ctx, cfg.classRedisURL)
	if err != nil {
		return err
	}
	defer stopClasses()
	ln, err := net.Listen("tcp", cfg.addr)
	if err != nil {
		return err
	}
	lan := ""
	if us := lanURLs(ln.Addr()); len(us) > 0 {
		lan = us[0]
	}
	app := web.New(course, assets, replay, log, web.Config{Config: site.Config{Version: buildVersion(), CacheBytes: 16 << 20, PublicURL: cfg.publicURL, Hosts: cfg.hosts,
		LANURL: lan, NoCache: cfg.redisURL != "", Limits: limits.New(cfg.trustProxy, cfg.limits), TrustProxy: cfg.trustProxy}, Class: classes})
	if cfg.redisURL != "" {
		log.Info("single-node lessons run on a live Redis; multi-node ones on the embedded miniredis", "redis", redactURL(cfg.redisURL))
	}
	srv := &http.Server{
		Handler:           app.Handler(),
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       10 * time.Second,
		WriteTimeout:      30 * time.Second,
		IdleTimeout:       120 * time.Second,
		MaxHeaderBytes:    4 * middleware.MaxHeaderBytes, // backstop; the site answers above middleware.MaxHeaderBytes
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
	// Live-class streams never end by themselves: Shutdown closes them.
	srv.RegisterOnShutdown(classes.Close)
	fmt.Printf("Lock Lab is running at %s (Ctrl-C stops it)\n", displayURL(ln.Addr()))
	for _, u := range lanURLs(ln.Addr()) {
		fmt.Printf("  on your network: %s\n", u)
	}

	if cfg.debugAddr != "" {
		stopDebug, err := serveDebug(cfg.debugAddr)
		if err != nil {
			return err
		}
		defer stopDebug()
	}
	return serve(ctx, srv, ln, log)
}

// config is what the command line asks for.
type config struct {
	addr, publicURL, redisURL, classRedisURL, debugAddr string
	hosts                                               []string
	verbose, trustProxy                                 bool
	limits                                              map[limits.Kind]limits.Rule
}

// parseFlags reads the command line and checks the values that can be
// checked on their own, so that a mistyped flag stops the command before
// anything starts, not as broken pages later.
func parseFlags(args []string) (config, error) {
	fs := flag.NewFlagSet("locklab", flag.ContinueOnError)
	addr := fs.String("addr", defaultAddr(), "listen address (host:port); PORT sets the port when -addr is not given")
	verbose := fs.Bool("v", false, "verbose: also log each replay's size and duration (every request is logged anyway)")
	publicURL := fs.String("public-url", os.Getenv("LOCKLAB_PUBLIC_URL"),
		"address students' phones use to reach this server, for share links and QR codes (e.g. http://192.168.1.20:8080); default: the host each browser used")
	hosts := fs.String("hosts", os.Getenv("LOCKLAB_HOSTS"),
		"comma-separated host names this server answers to (e.g. locklab.example.org); others get 421, and forms are accepted only from them and -public-url; default: any host (a classroom LAN); LOCKLAB_HOSTS sets it too")
	redisURL := fs.String("redis", os.Getenv("LOCKLAB_REDIS"),
		"run the single-node lessons on this real Redis (redis://host:port/db) instead of the embedded miniredis; LOCKLAB_REDIS sets it too")
	classRedisURL := fs.String("class-redis", os.Getenv("LOCKLAB_CLASS_REDIS"),
		"keep live-class rooms in this Redis (redis://host:port/db), so several instances behind a load balancer serve one class; default: an embedded miniredis; LOCKLAB_CLASS_REDIS sets it too")
	trustProxy := fs.Bool("trust-proxy", false,
		"a reverse proxy the operator runs is in front: take each client's address from the last X-Forwarded-For entry it appends (for the per-client limits), and believe its X-Forwarded-Proto: https")
	debugAddr := fs.String("debug-addr", "",
		"serve Go's profiles (net/http/pprof: goroutines, heap, CPU) on this separate address, e.g. 127.0.0.1:6060, for the soak and for operators; off by default")
	rules := map[limits.Kind]*string{}
	for _, k := range []limits.Kind{limits.Explore, limits.Join, limits.Stream, limits.Answer, limits.Create} {
		rules[k] = fs.String("limit-"+string(k), limits.Defaults[k].String(),
			"each client's share of "+string(k)+" requests: burst/interval (e.g. 120/250ms), or off")
	}
	if err := fs.Parse(args); err != nil {
		return config{}, err
	}
	limited := map[limits.Kind]limits.Rule{}
	for k, v := range rules {
		r, ok := limits.ParseRule(*v)
		if !ok {
			return config{}, fmt.Errorf("-limit-%s: %q is not burst/interval (like 120/250ms) or off", k, *v)
		}
		limited[k] = r
	}
	if err := checkPublicURL(*publicURL); err != nil {
		return config{}, err
	}
	var hostList []string
	for h := range strings.SplitSeq(*hosts, ",") {
		if h = strings.TrimSpace(h); h != "" {
			if strings.ContainsAny(h, "/ ") {
				return config{}, fmt.Errorf("-hosts: %q is not a host name (like locklab.example.org or locklab.example.org:8443)", h)
			}
			hostList = append(hostList, h)
		}
	}
	return config{addr: *addr, publicURL: *publicURL, hosts: hostList, redisURL: *redisURL, classRedisURL: *classRedisURL,
		debugAddr: *debugAddr, verbose: *verbose, trustProxy: *trustProxy, limits: limited}, nil
}

// serve serves on ln until the server fails or ctx ends (an interrupt),
// then shuts down: requests in flight get a bounded time to finish, and
// only once they are all over are the embedded servers closed, since a
// request may still be replaying on one.
func serve(ctx context.Context, srv *http.Server, ln net.Listener, log *slog.Logger) error {
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	// Stop accepting, give in-flight requests a bounded time to finish.
	log.Info("shutting down")
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	if err := <-errc; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	// Every request is over: close the embedded servers kept for reuse
	// (and their connections) rather than leave them to the exit.
	sim.CloseIdleServers()
	return nil
}

// serveDebug serves net/http/pprof's pages on an address of their own, so
// they are never reachable through the site (nor its proxy): what
// testdata/soak reads the goroutine count from.
func serveDebug(addr string) (stop func(), err error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("-debug-addr: %w", err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	return func() { _ = srv.Close() }, nil
}

// defaultAddr is loopback only, so a laptop does not expose the app to its
// network by accident; PORT (as platforms set it) listens on every interface.
func defaultAddr() string {
	if p := os.Getenv("PORT"); p != "" {
		return ":" + p
	}
	return "127.0.0.1:8080"
}

// buildVersion identifies this build for ETags: a hash of the executable,
// so any change to code, lessons or static files changes it (builds here
// carry no VCS stamp).
func buildVersion() string {
	path, err := os.Executable()
	if err == nil {
		if f, err := os.Open(path); err == nil {
			defer f.Close()
			h := sha256.New()
			if _, err := io.Copy(h, f); err == nil {
				return hex.EncodeToString(h.Sum(nil))[:16]
			}
		}
	}
	return strconv.FormatInt(time.Now().UnixNano(), 36) // unknown build: never reuse old ETags
}

func displayURL(a net.Addr) string {
	host, port, err := net.SplitHostPort(a.String())
	if err != nil {
		return "http://" + a.String() + "/"
	}
	if ip := net.ParseIP(host); ip == nil || ip.IsUnspecified() {
		host = "127.0.0.1"
	}
	return "http://" + net.JoinHostPort(host, port) + "/"
}

// checkPublicURL refuses an address a phone could not open, at start-up
// rather than as broken QR codes in front of a class.
func checkPublicURL(s string) error {
	if s == "" {
		return nil
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
		return fmt.Errorf("-public-url %q: want an absolute http(s) address such as http://192.168.1.20:8080", s)
	}
	return nil
}

// lanURLs lists the addresses other machines can use when the server
// listens on every interface (-addr 0.0.0.0:8080), so a teacher can read
// the one to put on the projector.
func lanURLs(a net.Addr) []string {
	host, port, err := net.SplitHostPort(a.String())
	if err != nil {
		return nil
	}
	if ip := net.ParseIP(host); ip == nil || !ip.IsUnspecified() {
		return nil
	}
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		return nil
	}
	var out []string
	for _, ad := range addrs {
		ipn, ok := ad.(*net.IPNet)
		if !ok || ipn.IP.IsLoopback() || ipn.IP.To4() == nil || ipn.IP.IsLinkLocalUnicast() {
			continue
		}
		out = append(out, "http://"+net.JoinHostPort(ipn.IP.String(), port)+"/")
	}
	return out
}

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
	return realredis.Live(o, hex.EncodeToString(id[:])), nil
}

// classPoolTimeout is how long a live-class request may wait for a free
// connection of the class Redis client's pool. The pool keeps go-redis's
// default size (10 per CPU): TestClassLoad shows it is not what limits a
// class (a move takes one pipeline per instance and never waits; 1,000
// phones opening their streams at once took as long with 100 connections
// as with 20, the CPU being the limit), but in such a burst a command
// waits its turn for up to a second or two on a busy machine, past
// go-redis's default of ReadTimeout + 1 s. Waiting is better there: a
// stream that fails to open is one the browser's EventSource gives up
// (class.js opens a new one, but only seconds later).
const classPoolTimeout = 10 * time.Second

// classroom starts the live-class service on its own Redis: the one given
// by -class-redis (shared by every instance of a scaled-out set-up), else
// an embedded miniredis reached through in-memory pipes. That miniredis
// keeps no time of its own, so a ticker moves its clock forward and rooms
// expire after hours of silence as they would on a real Redis. This Redis
// is never the -redis lesson backend: lesson replays flush and rewrite
// their keys, rooms must outlive them.
func classroom(ctx context.Context, classURL string) (*class.Classroom, func(), error) {
	var rdb *redis.Client
	stopClock := func() {}
	if classURL != "" {
		o, err := redis.ParseURL(classURL)
		if err != nil {
			return nil, nil, fmt.Errorf("-class-redis %q: want redis://host:port/db (%v)", redactURL(classURL), err)
		}
		o.DialTimeout, o.ReadTimeout, o.WriteTimeout = liveDialTimeout, liveIOTimeout, liveIOTimeout
		o.PoolTimeout = classPoolTimeout
		rdb = redis.NewClient(o)
	} else {
		m := miniredis.NewMiniRedis()
		rdb = redis.NewClient(&redis.Options{Addr: "class-rooms", DialTimeout: liveDialTimeout, PoolTimeout: classPoolTimeout,
			Dialer: func(context.Context, string, string) (net.Conn, error) { return m.Dial() }})
		done := make(chan struct{})
		go func() {
			t := time.NewTicker(30 * time.Second)
			defer t.Stop()
			last := time.Now()
			for {
				select {
				case <-done:
					return
				case now := <-t.C:
					m.FastForward(now.Sub(last))
					last = now
				}
			}
		}()
		stopClock = func() { close(done); m.Close() }
	}
	startCtx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	c, err := class.NewClassroom(startCtx, rdb, class.Limits{})
	if err != nil {
		_ = rdb.Close()
		stopClock()
		return nil, nil, fmt.Errorf("-class-redis %s: %w", redactURL(classURL), err)
	}
	return c, func() { c.Close(); _ = rdb.Close(); stopClock() }, nil
}

// redactURL hides a password in a Redis URL before it is logged.
func redactURL(s string) string {
	u, err := url.Parse(s)
	if err != nil {
		return "(unparsable URL)"
	}
	return u.Redacted()
}
