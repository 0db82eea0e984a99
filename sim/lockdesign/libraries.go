// libraries.go holds the lock libraries engineers use as designs: each
// library's acquire and release, and its renewal where it renews on its
// own (sim/library's model of what it sends),
// written as a design's scripts, with the library's default expiry and a
// storage that checks nothing (none of them hands the storage a token),
// so the explorer grades the lock a team gets from the library's
// defaults. TestLibraryDesignsAsTheModels holds each script to the
// library's model, which sim/library's tests hold to the library itself.

package lockdesign

import (
	"locklab/sim"
	"locklab/sim/library"
)

// LibraryDesign is one library's lock as a design: the presets its
// acquire and release are (named after the library), its expiry, and
// what of the library the design leaves out.
type LibraryDesign struct {
	Lib *library.Library
	// ID tells apart two set-ups of one library ("": Lib.ID): Key.
	ID string
	// Short is the library's usual name, Setting what this design sets
	// that the caller chooses ("" none): with the model's version they
	// make Name.
	Short, Setting string
	// TTL is the expiry the design runs with: the library's default, or,
	// where the caller must give one, the design page's default (10 s).
	TTL int64
	// Acquire, Release are the names of its presets; the write is
	// "none". Extend is its extend's preset where the library renews
	// the lock on its own ("": no extend; redsync, redislock and
	// node-redlock 4 extend only when the caller asks, redis-py refuses
	// to without a timeout, and python-redis-lock renews only with
	// auto_renewal), and Renew what a failed renewal does then (Design's
	// Renew; "": RenewStop).
	Acquire, Release, Extend, Renew string
}

// Key is the set-up's own name in no language: its ID, else its
// library's.
func (l LibraryDesign) Key() string {
	if l.ID != "" {
		return l.ID
	}
	return l.Lib.ID
}

// Libraries are the libraries' designs, in the order the pages list them.
var Libraries = []LibraryDesign{
	{Lib: library.Redsync, Short: "redsync", TTL: library.Redsync.TTLms, Acquire: "redsync", Release: "redsync"},
	{Lib: library.Redislock, Short: "redislock", TTL: 10_000, Acquire: "redislock", Release: "redislock"},
	{Lib: library.RedisPy, Short: "redis-py", Setting: "timeout=None", TTL: 10_000, Acquire: "redis-py", Release: "redis-py"},
	{Lib: library.RedisPyTimeout, Short: "redis-py", Setting: "timeout=10", TTL: 10_000, Acquire: "redis-py-timeout", Release: "redis-py"},
	{Lib: library.NodeRedlock, Short: "node-redlock", TTL: 10_000, Acquire: "node-redlock", Release: "node-redlock"},
	{Lib: library.PythonRedisLock, Short: "python-redis-lock", Setting: "expire=8", TTL: 8000, Acquire: "python-redis-lock", Release: "python-redis-lock"},
	// its renewal thread extends every two thirds of the expiry and, when
	// an extend fails, dies with an exception the holder never sees: the
	// work goes on (Lock Lab's extend runs every half TTL)
	{Lib: library.PythonRedisLock, ID: "python-redis-lock-renew", Short: "python-redis-lock", Setting: "expire=8, auto_renewal=True", TTL: 8000,
		Acquire: "python-redis-lock", Release: "python-redis-lock", Extend: "python-redis-lock", Renew: RenewCarry},
}

// Name is how pages name it, in no language: the library, the version
// modelled and the setting ("redis-py 4.3.4 (timeout=None)").
func (l LibraryDesign) Name() string {
	n := l.Short + " " + l.Lib.Version
	if l.Setting != "" {
		n += " (" + l.Setting + ")"
	}
	return n
}

// LibraryNamed finds a library's design by its Key.
func LibraryNamed(id string) (LibraryDesign, bool) {
	for _, l := range Libraries {
		if l.Key() == id {
			return l, true
		}
	}
	return LibraryDesign{}, false
}

// LibraryOfDesign is the library set-up whose lock design d holds,
// whatever its write, expiry and work: its acquire, its release and its
// renewal (the extend and what a failed one does) where one set-up's are
// all d's; else one with no renewal whose acquire and release d holds.
func LibraryOfDesign(d *Design) (LibraryDesign, bool) {
	acq, rel := LibraryOf(sim.PieceAcquire, d.Acquire), LibraryOf(sim.PieceRelease, d.Release)
	ext := LibraryOf(sim.PieceExtend, d.Extend)
	for _, l := range Libraries {
		if l.Extend != "" && acq == l.Acquire && rel == l.Release && ext == l.Extend && d.Renew == l.renew() {
			return l, true
		}
	}
	for _, l := range Libraries {
		if l.Extend == "" && acq == l.Acquire && rel == l.Release {
			return l, true
		}
	}
	return LibraryDesign{}, false
}

func (l LibraryDesign) renew() string {
	if l.Renew == "" {
		return RenewStop
	}
	return l.Renew
}

// Design is the library's lock as a design: its presets, its expiry, its
// renewal, the default work time, a write that checks nothing.
func (l LibraryDesign) Design() *Design {
	d := DefaultDesign()
	set := func(p sim.Piece, name string) {
		pr, ok := PresetNamed(p, d.Effect, name)
		if !ok {
			panic("lockdesign: no preset " + p.Name() + "=" + name)
		}
		d.SetScript(p, pr.Script)
	}
	set(sim.PieceAcquire, l.Acquire)
	set(sim.PieceRelease, l.Release)
	set(sim.PieceExtend, "none")
	if l.Extend != "" {
		set(sim.PieceExtend, l.Extend)
	}
	set(sim.PieceWrite, "none")
	d.TTL, d.Renew = l.TTL, l.renew()
	return d
}

// libraryPresets are the libraries' acquire, release and extend scripts, in Lock
// Lab's own words: the same commands on the lock key with the same
// arguments, the same replies (a redsync release tells a key gone, -1,
// from another's, 0). Where a library sends more than its lock needs,
// the script leaves it out and says so: redsync's release after a
// refused SET (it finds another's value, deletes nothing), redislock's
// retake of a key its own token holds (a design takes a new value every
// time), python-redis-lock's GET before its SET and the signal list its
// release wakes waiters with (another key, no part of the lock).
var libraryPresets = []Preset{
	{sim.PieceAcquire, "redsync", `-- acquire as redsync v4 sends it (go-redis's SetNX): SET NX with
-- the expiry in whole seconds (EX) when it is a whole number of seconds
local ttl = tonumber(ARGV[2])
if ttl % 1000 == 0 then
  return redis.call('SET', KEYS[1], ARGV[1], 'EX', ttl / 1000, 'NX')
end
return redis.call('SET', KEYS[1], ARGV[1], 'PX', ttl, 'NX')`, ""},
	{sim.PieceAcquire, "redislock", `-- acquire as redislock's obtain does it for a new token: SET NX PX
return redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2])`, ""},
	{sim.PieceAcquire, "redis-py", `-- acquire as redis-py's Lock does it with timeout=None (its default):
-- SET NX and no expiry at all
return redis.call('SET', KEYS[1], ARGV[1], 'NX')`, ""},
	{sim.PieceAcquire, "redis-py-timeout", `-- acquire as redis-py's Lock does it given a timeout: SET NX PX
return redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2])`, ""},
	{sim.PieceAcquire, "node-redlock", `-- acquire as node-redlock 4's script does it on one node: take the
-- key only if it does not exist, answer 1 if taken, else 0
if redis.call('EXISTS', KEYS[1]) == 1 then
  return 0
end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1`, ""},
	{sim.PieceAcquire, "python-redis-lock", `-- acquire as python-redis-lock does it with an expiry: SET NX with
-- the expiry in whole seconds (EX)
local ttl = tonumber(ARGV[2])
return redis.call('SET', KEYS[1], ARGV[1], 'NX', 'EX', (ttl - ttl % 1000) / 1000)`, ""},

	{sim.PieceExtend, "python-redis-lock", `-- extend as python-redis-lock's script does it (its renewal thread
-- calls it): if the key holds this value and has a TTL, set the TTL
-- again, in whole seconds. The library's script answers 0 when done (1
-- and 2 are its errors); a design's extend answers 1 when done, so this
-- one answers 1, and 0 where the library's answers an error
if redis.call('GET', KEYS[1]) ~= ARGV[1] then
  return 0
end
if redis.call('TTL', KEYS[1]) < 0 then
  return 0
end
local ttl = tonumber(ARGV[2])
redis.call('EXPIRE', KEYS[1], (ttl - ttl % 1000) / 1000)
return 1`, ""},

	{sim.PieceRelease, "redsync", `-- release as redsync's script does it: delete the key only if it
-- holds this value (1); 0 if another value holds it, -1 if it is gone
local held = redis.call('GET', KEYS[1])
if held ~= ARGV[1] then
  if held then
    return 0
  end
  return -1
end
return redis.call('DEL', KEYS[1])`, ""},
	{sim.PieceRelease, "redislock", `-- release as redislock's script does it: delete the key only if it
-- holds this value; the DEL's count, else 0
if redis.call('GET', KEYS[1]) ~= ARGV[1] then
  return 0
end
return redis.call('DEL', KEYS[1])`, ""},
	{sim.PieceRelease, "redis-py", `-- release as redis-py's script does it: if the key holds this value,
-- delete it and answer 1; else 0 (the library raises LockNotOwnedError)
if redis.call('GET', KEYS[1]) ~= ARGV[1] then
  return 0
end
redis.call('DEL', KEYS[1])
return 1`, ""},
	{sim.PieceRelease, "node-redlock", `-- release as node-redlock 4's script does it on one node: 1 if the
-- key held this value (deleted), else 0
if redis.call('GET', KEYS[1]) ~= ARGV[1] then
  return 0
end
redis.pcall('DEL', KEYS[1])
return 1`, ""},
	{sim.PieceRelease, "python-redis-lock", `-- release as python-redis-lock's script does it, on the lock's key:
-- delete it if it holds this value and answer 0; 1 if it does not (the
-- library raises NotAcquired)
if redis.call('GET', KEYS[1]) ~= ARGV[1] then
  return 1
end
redis.call('DEL', KEYS[1])
return 0`, ""},
}

// LibraryOf names the library whose preset piece p's script src is (""
// if it is none's): the design page lists a library's presets only where
// a design holds one, beside the general ones.
func LibraryOf(p sim.Piece, src string) string {
	src = NormalizeScript(src)
	for _, x := range libraryPresets {
		if x.Piece == p && NormalizeScript(x.Script) == src {
			return x.Name
		}
	}
	return ""
}

// IsLibraryPresetName reports whether piece p has a library's preset of
// that name.
func IsLibraryPresetName(p sim.Piece, name string) bool {
	return IsLibraryPreset(Preset{Piece: p, Name: name})
}

// IsLibraryPreset reports whether pr is one of the libraries' presets.
func IsLibraryPreset(pr Preset) bool {
	for _, x := range libraryPresets {
		if x.Piece == pr.Piece && x.Name == pr.Name {
			return true
		}
	}
	return false
}
