package redisfront

// args.go checks a command's arguments as Redis 7.0 does, in Redis's
// order, before miniredis sees them: where miniredis reads an argument
// its own way (Go's integer syntax takes "+3", "007" and " 1", which
// Redis refuses; SET's options are read one by one, where Redis lets PX
// take the next word whatever it is; options Redis checks before the
// number they follow), the front answers with Redis's error. A command
// whose arguments Redis accepts goes on to miniredis. The command line's
// differential test (sim/realredis, TestTypedCommandsAsRedis) finds what
// is left; docs/parity.md lists it.

import (
	"math"
	"strconv"
	"strings"
)

// Redis's texts for the argument errors below.
const (
	errNotInt      = "ERR value is not an integer or out of range"
	errNotPositive = "ERR value is out of range, must be positive"
	errSyntax      = "ERR syntax error"
	errWrongType   = "WRONGTYPE Operation against a key holding the wrong kind of value"
)

// redisInt reads s as Redis reads an integer argument (string2ll): an
// optional minus, then digits with no leading zero (or "0" alone), within
// 64 bits. No plus sign, space, exponent or base prefix.
func redisInt(s string) (int64, bool) {
	d := strings.TrimPrefix(s, "-")
	if d == "" || (d[0] == '0' && s != "0") {
		return 0, false
	}
	for i := 0; i < len(d); i++ {
		if d[i] < '0' || d[i] > '9' {
			return 0, false
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	return n, err == nil
}

// arityError is Redis's error for a command given the wrong number of
// arguments: the command's canonical name, lower case.
func arityError(cmd string) string {
	return "ERR wrong number of arguments for '" + strings.ToLower(cmd) + "' command"
}

// expireTimeError is Redis's error for an expiry out of range.
func expireTimeError(cmd string) string {
	return "ERR invalid expire time in '" + strings.ToLower(cmd) + "' command"
}

// argError is Redis's error for cmd (its name upper case) with args, where
// miniredis would answer otherwise, or "" to let miniredis answer. now is
// the server's clock in Unix milliseconds (an expiry is added to it);
// answerNil where Redis answers nil;
// typeOf is a key's type ("" if there is none), valueOf a string key's
// value.
func argError(cmd string, args []string, now int64, typeOf, valueOf func(string) string) string {
	switch cmd {
	case "SET":
		if len(args) >= 2 {
			return setError(args[2:], now)
		}
	case "SETEX", "PSETEX":
		if len(args) == 3 && notPositive(args[1]) {
			return expireTimeError(cmd)
		}
	case "GETEX": // a missing key answers nil before its expiry is judged
		for i := 1; i+1 < len(args); i++ {
			switch strings.ToUpper(args[i]) {
			case "EX", "PX", "EXAT", "PXAT":
				if notPositive(args[i+1]) {
					if typeOf(args[0]) == "" {
						return answerNil
					}
					return expireTimeError(cmd)
				}
				i++
			}
		}
	case "MSET", "MSETNX":
		if len(args) == 0 || len(args)%2 == 1 {
			return arityError(cmd)
		}
	case "LPOP", "RPOP":
		if len(args) > 2 {
			return arityError(cmd)
		}
		if len(args) == 2 {
			if n, ok := redisInt(args[1]); !ok || n < 0 {
				return errNotPositive
			}
		}
	case "GETRANGE", "LRANGE":
		if len(args) == 3 && !allInts(args[1:]) {
			return errNotInt
		}
	case "SETRANGE":
		if len(args) == 3 && !allInts(args[1:2]) {
			return errNotInt
		}
	case "LINDEX": // the key first: nil or WRONGTYPE before the index
		if len(args) == 2 && !allInts(args[1:]) {
			switch typeOf(args[0]) {
			case "":
				return answerNil
			case "list":
				return errNotInt
			}
			return errWrongType
		}
	case "INCR", "DECR":
		if len(args) == 1 && notCounter(args[0], typeOf, valueOf) {
			return errNotInt
		}
	case "INCRBY", "DECRBY":
		if len(args) == 2 {
			n, ok := redisInt(args[1])
			switch {
			case !ok:
				return errNotInt
			case cmd == "DECRBY" && n == math.MinInt64:
				return "ERR decrement would overflow"
			case notCounter(args[0], typeOf, valueOf):
				return errNotInt
			}
		}
	case "EXPIRE", "PEXPIRE":
		if len(args) >= 2 {
			return expireArgError(cmd, args, now)
		}
	case "COPY":
		if len(args) >= 2 {
			return copyError(args)
		}
	case "EVAL":
		if len(args) >= 2 {
			n, ok := redisInt(args[1])
			switch {
			case !ok:
				return errNotInt
			case n < 0:
				return "ERR Number of keys can't be negative"
			case n > int64(len(args)-2):
				return "ERR Number of keys can't be greater than number of args"
			}
		}
	}
	return ""
}

// notCounter: key holds a string Redis would not count from (INCR reads
// a stored "007" or "+5" as no integer, as it reads an argument).
func notCounter(key string, typeOf, valueOf func(string) string) bool {
	if typeOf(key) != "string" {
		return false // none: counts from 0; another type: WRONGTYPE, miniredis's
	}
	_, ok := redisInt(valueOf(key))
	return !ok
}

// notPositive: n is an integer (as Go reads it: miniredis answers the
// rest as Redis does) of zero or less, which SETEX, PSETEX and GETEX
// refuse in Redis's words, not miniredis's ("… in setex").
func notPositive(n string) bool {
	v, err := strconv.ParseInt(n, 10, 64)
	return err == nil && v <= 0
}

func allInts(args []string) bool {
	for _, a := range args {
		if _, ok := redisInt(a); !ok {
			return false
		}
	}
	return true
}

// setError reads SET's options as Redis 7.0 does
// (parseExtendedStringArgumentsOrReply): left to right, each option
// allowed only with the ones it agrees with, EX/PX/EXAT/PXAT taking the
// next word whatever it is; then the expiry (getExpireMillisecondsOrReply).
func setError(opts []string, now int64) string {
	var nx, xx, keep, ex, px, exat, pxat bool
	expire := ""
	for j := 0; j < len(opts); j++ {
		o := strings.ToUpper(opts[j])
		next := j+1 < len(opts)
		timed := ex || px || exat || pxat
		switch {
		case o == "NX" && !xx:
			nx = true
		case o == "XX" && !nx:
			xx = true
		case o == "GET":
		case o == "KEEPTTL" && !timed:
			keep = true
		case o == "EX" && !keep && !exat && !px && !pxat && next:
			ex, expire = true, opts[j+1]
			j++
		case o == "PX" && !keep && !ex && !exat && !pxat && next:
			px, expire = true, opts[j+1]
			j++
		case o == "EXAT" && !keep && !ex && !px && !pxat && next:
			exat, expire = true, opts[j+1]
			j++
		case o == "PXAT" && !keep && !ex && !exat && !px && next:
			pxat, expire = true, opts[j+1]
			j++
		default:
			return errSyntax
		}
	}
	if !(ex || px || exat || pxat) {
		return ""
	}
	ms, ok := redisInt(expire)
	if !ok {
		return errNotInt
	}
	if ms <= 0 || ((ex || exat) && ms > math.MaxInt64/1000) {
		return expireTimeError("set")
	}
	if ex || exat {
		ms *= 1000
	}
	if (ex || px) && ms > math.MaxInt64-now {
		return expireTimeError("set")
	}
	return ""
}

// expireArgError reads EXPIRE's and PEXPIRE's options, then the time, as
// Redis 7.0 does (expireGenericCommand): a time of any sign, but one that
// overflows as milliseconds from now is an invalid expire time.
func expireArgError(cmd string, args []string, now int64) string {
	var nx, xx, gt, lt bool
	for _, o := range args[2:] {
		switch strings.ToUpper(o) {
		case "NX":
			nx = true
		case "XX":
			xx = true
		case "GT":
			gt = true
		case "LT":
			lt = true
		default:
			return "ERR Unsupported option " + cText(o)
		}
	}
	if nx && (xx || gt || lt) {
		return "ERR NX and XX, GT or LT options at the same time are not compatible"
	}
	if gt && lt {
		return "ERR GT and LT options at the same time are not compatible"
	}
	when, ok := redisInt(args[1])
	if !ok {
		return errNotInt
	}
	if cmd == "EXPIRE" {
		if when > math.MaxInt64/1000 || when < math.MinInt64/1000 {
			return expireTimeError(cmd)
		}
		when *= 1000
	}
	if when > math.MaxInt64-now {
		return expireTimeError(cmd)
	}
	return ""
}

// cText is s as Redis's error formats print it: up to its first NUL byte
// (a C string's end), its line breaks as spaces (an error is one line).
func cText(s string) string {
	s, _, _ = strings.Cut(s, "\x00")
	return strings.NewReplacer("\r", " ", "\n", " ").Replace(s)
}

// copyError reads COPY's options as Redis 7.0 does (copyCommand):
// REPLACE, and DB with an index among the server's 16 databases.
func copyError(args []string) string {
	for j := 2; j < len(args); j++ {
		switch o := strings.ToUpper(args[j]); {
		case o == "REPLACE":
		case o == "DB" && j+1 < len(args):
			db, ok := redisInt(args[j+1])
			if !ok {
				return errNotInt
			}
			if db < math.MinInt32 || db > math.MaxInt32 {
				return "ERR value is out of range, value must between -2147483648 and 2147483647"
			}
			if db < 0 || db >= 16 {
				return "ERR DB index is out of range"
			}
			j++
		default:
			return errSyntax
		}
	}
	return ""
}
