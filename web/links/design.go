package links

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"io"
	"slices"
	"strconv"
	"strings"

	"locklab/sim"
	"locklab/sim/lockdesign"
)

// Limits and marks of a design link.
const (
	// DesignMaxLink bounds a canonical design link: past it, the longest
	// scripts go compressed.
	DesignMaxLink = 6000
	// CompactPrefix marks a script sent compressed.
	CompactPrefix = "z."
)

// DesignKeys are a design's parameters, in canonical order.
var DesignKeys = []string{"acquire", "release", "extend", "write", "effect", "renew", "ttl", "work"}

// PresetName is a value that looks like a preset's name, not a script.
func PresetName(v string) bool {
	if v == "" || len(v) > 40 {
		return false
	}
	for _, r := range v {
		if (r < 'a' || r > 'z') && (r < '0' || r > '9') && r != '-' {
			return false
		}
	}
	return true
}

// PresetLike: base64url text, as a compressed script is sent.
func PresetLike(s string) bool {
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return false
		}
	}
	return s != ""
}

// Deflate and inflate are the compact form of a long script. inflate
// reads at most one byte more than a script may have, so no input can
// make it grow without bound.
func Deflate(src string) string {
	var b bytes.Buffer
	w, _ := flate.NewWriter(&b, flate.BestCompression)
	_, _ = w.Write([]byte(src))
	_ = w.Close()
	return base64.RawURLEncoding.EncodeToString(b.Bytes())
}

func Inflate(s string) (string, error) {
	raw, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return "", err
	}
	r := flate.NewReader(bytes.NewReader(raw))
	defer r.Close()
	out, err := io.ReadAll(io.LimitReader(r, lockdesign.DesignScriptMax+1))
	if err != nil {
		return "", err
	}
	return string(out), nil
}

// DesignQuery is a design's canonical query ("" for the default design):
// each piece that differs from the default as a preset's name or its
// text, then the times; if that is longer than designMaxLink, the longest
// scripts go compressed, one by one, until it fits (or none is left).
func DesignQuery(d *lockdesign.Design) string {
	def := lockdesign.DefaultDesign()
	def.SetEffect(d.Effect)
	vals := map[string]string{}
	var own []sim.Piece
	for _, p := range sim.Pieces {
		src := d.Script(p)
		if src == def.Script(p) {
			continue
		}
		if name := lockdesign.PresetOf(p, d.Effect, src); name != "" {
			vals[p.Name()] = name
			continue
		}
		if PresetName(src) || strings.HasPrefix(src, CompactPrefix) {
			// It would read back as a preset's name or a compressed
			// script: only the compressed form says what it is.
			vals[p.Name()] = CompactPrefix + Deflate(src)
			continue
		}
		vals[p.Name()] = src
		own = append(own, p)
	}
	if d.Effect != lockdesign.EffectSet {
		vals["effect"] = d.Effect
	}
	// what a failed extend does, only where there is an extend
	if d.Renew != lockdesign.RenewStop && d.Extend != "" {
		vals["renew"] = d.Renew
	}
	if d.TTL != def.TTL {
		vals["ttl"] = sim.FormatDuration(d.TTL)
	}
	if d.Work != def.Work {
		vals["work"] = sim.FormatDuration(d.Work)
	}
	enc := func() string {
		var parts []string
		for _, k := range DesignKeys {
			if v, ok := vals[k]; ok {
				parts = append(parts, k+"="+QueryValue(v))
			}
		}
		return strings.Join(parts, "&")
	}
	// Longest first; equal lengths in piece order, so the choice is fixed.
	slices.SortStableFunc(own, func(a, b sim.Piece) int { return len(d.Script(b)) - len(d.Script(a)) })
	q := enc()
	for _, p := range own {
		if len(q) <= DesignMaxLink {
			break
		}
		vals[p.Name()] = CompactPrefix + Deflate(d.Script(p))
		q = enc()
	}
	return q
}

// QueryValue escapes a value for a link, leaving the punctuation Lua is
// made of readable: ( ) , [ ] : / * ! ~ stay as they are, a space is +.
// (Not ': browsers percent-encode it in a query, so a link with a bare '
// would come back in another form than the canonical one.)
func QueryValue(v string) string {
	var b strings.Builder
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', strings.IndexByte("-_.~(),[]:/*!", c) >= 0:
			b.WriteByte(c)
		case c == ' ':
			b.WriteByte('+')
		default:
			b.WriteString("%" + strings.ToUpper(strconv.FormatInt(int64(c)>>4, 16)+strconv.FormatInt(int64(c)&15, 16)))
		}
	}
	return b.String()
}

// WithQuery joins a path and a query that may be empty.
func WithQuery(path string, qs ...string) string {
	var parts []string
	for _, q := range qs {
		if q != "" {
			parts = append(parts, q)
		}
	}
	if len(parts) == 0 {
		return path
	}
	return path + "?" + strings.Join(parts, "&")
}

// Design is the design page of d.
func Design(lang string, d *lockdesign.Design) string {
	return WithQuery("/"+lang+"/lab/design", DesignQuery(d))
}

// DesignRun is the counterexample page of design d with n clients.
func DesignRun(lang string, d *lockdesign.Design, n int, as []sim.Action) string {
	do := ""
	if len(as) > 0 {
		do = "do=" + doValue(sim.FormatActions(as))
	}
	return WithQuery("/"+lang+"/lab/design/run", DesignQuery(d), "clients="+strconv.Itoa(n), do)
}

// DesignFromLesson is the design page's starting point for a lesson's
// design: the presets its options name (release.del is release=del,
// fence.off is write=none, work.long a 15s job), the default design for
// a lock that does not live in one Redis key.
func DesignFromLesson(sc *sim.Scenario, o sim.Opts) *lockdesign.Design {
	d := lockdesign.DefaultDesign()
	if d := lockdesign.Of(sc); d != nil {
		return d
	}
	if sc.Coord || sc.Redlock || sc.Replicated || sc.Storage != sim.StoreFenced {
		return d
	}
	set := func(p sim.Piece, name string) {
		if pr, ok := lockdesign.PresetNamed(p, lockdesign.EffectSet, name); ok {
			d.SetScript(p, pr.Script)
		}
	}
	set(sim.PieceAcquire, map[string]string{sim.AcquireSetNX: "setnx-pexpire", sim.AcquireGetSet: "get-set"}[o[sim.OptAcquire]])
	set(sim.PieceRelease, map[string]string{sim.ReleaseDel: "del", sim.ReleaseGetDel: "get-del", sim.ReleaseDelex: "delex"}[o[sim.OptRelease]])
	set(sim.PieceWrite, map[string]string{sim.FenceOff: "none", sim.FenceStrict: "strict", sim.FenceTwoStep: "split"}[o[sim.OptFence]])
	if !sc.Tokens {
		set(sim.PieceWrite, "none")
	}
	d.TTL, d.Work = sc.TTL, sc.WorkMs(o)
	return d
}

// DesignToken is design d's canonical query as one path segment
// (base64url): how a challenge made from a design run carries its design
// in its address (/{lang}/challenges/c/design/{goal}/{bounds}/{token}).
func DesignToken(d *lockdesign.Design) string {
	return base64.RawURLEncoding.EncodeToString([]byte(DesignQuery(d)))
}

// DesignOfToken is the design query a DesignToken carries (the design
// page reads it as it reads its own address).
func DesignOfToken(tok string) (string, bool) {
	b, err := base64.RawURLEncoding.DecodeString(tok)
	return string(b), err == nil
}

// DesignChallenge is the challenge made from a design run: break design
// token with the goal and bounds given.
func DesignChallenge(lang, goal, bounds, token string) string {
	return MadeChallenge(lang, DesignSlug+"/"+goal+"/"+bounds+"/"+token)
}

// DesignSlug stands where a made challenge names its lesson, for one made
// from a design run.
const DesignSlug = "design"
