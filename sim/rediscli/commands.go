package rediscli

import (
	"maps"
	"slices"
	"strings"
)

// commands are the names of Redis 7.0's commands (COMMAND LIST of
// Debian's redis-server 7.0.15, subcommands left out), upper case: a
// name not among them is one Redis answers "unknown command" to
// (UnknownCommand). TestCommandsAreRedis holds the list to the server's
// own, under CI.
var commands = func() map[string]bool {
	m := map[string]bool{}
	for _, n := range strings.Fields(commandNames) {
		m[n] = true
	}
	// DELEX is Redis 8.4's; lesson 4 teaches it and the embedded server
	// runs it (docs/parity.md, difference 1).
	m["DELEX"] = true
	return m
}()

const commandNames = "" +
	"ACL APPEND ASKING AUTH BGREWRITEAOF BGSAVE BITCOUNT BITFIELD BITFIELD_RO BITOP BITPOS " +
	"BLMOVE BLMPOP BLPOP BRPOP BRPOPLPUSH BZMPOP BZPOPMAX BZPOPMIN CLIENT CLUSTER COMMAND " +
	"CONFIG COPY DBSIZE DEBUG DECR DECRBY DEL DISCARD DUMP ECHO EVAL EVAL_RO EVALSHA " +
	"EVALSHA_RO EXEC EXISTS EXPIRE EXPIREAT EXPIRETIME FAILOVER FCALL FCALL_RO FLUSHALL " +
	"FLUSHDB FUNCTION GEOADD GEODIST GEOHASH GEOPOS GEORADIUS GEORADIUS_RO GEORADIUSBYMEMBER " +
	"GEORADIUSBYMEMBER_RO GEOSEARCH GEOSEARCHSTORE GET GETBIT GETDEL GETEX GETRANGE GETSET " +
	"HDEL HELLO HEXISTS HGET HGETALL HINCRBY HINCRBYFLOAT HKEYS HLEN HMGET HMSET HRANDFIELD " +
	"HSCAN HSET HSETNX HSTRLEN HVALS INCR INCRBY INCRBYFLOAT INFO KEYS LASTSAVE LATENCY LCS " +
	"LINDEX LINSERT LLEN LMOVE LMPOP LOLWUT LPOP LPOS LPUSH LPUSHX LRANGE LREM LSET LTRIM " +
	"MEMORY MGET MIGRATE MODULE MONITOR MOVE MSET MSETNX MULTI OBJECT PERSIST PEXPIRE " +
	"PEXPIREAT PEXPIRETIME PFADD PFCOUNT PFDEBUG PFMERGE PFSELFTEST PING PSETEX PSUBSCRIBE " +
	"PSYNC PTTL PUBLISH PUBSUB PUNSUBSCRIBE QUIT RANDOMKEY READONLY READWRITE RENAME RENAMENX " +
	"REPLCONF REPLICAOF RESET RESTORE RESTORE-ASKING ROLE RPOP RPOPLPUSH RPUSH RPUSHX SADD " +
	"SAVE SCAN SCARD SCRIPT SDIFF SDIFFSTORE SELECT SET SETBIT SETEX SETNX SETRANGE SHUTDOWN " +
	"SINTER SINTERCARD SINTERSTORE SISMEMBER SLAVEOF SLOWLOG SMEMBERS SMISMEMBER SMOVE SORT " +
	"SORT_RO SPOP SPUBLISH SRANDMEMBER SREM SSCAN SSUBSCRIBE STRLEN SUBSCRIBE SUBSTR SUNION " +
	"SUNIONSTORE SUNSUBSCRIBE SWAPDB SYNC TIME TOUCH TTL TYPE UNLINK UNSUBSCRIBE UNWATCH WAIT " +
	"WATCH XACK XADD XAUTOCLAIM XCLAIM XDEL XGROUP XINFO XLEN XPENDING XRANGE XREAD XREADGROUP " +
	"XREVRANGE XSETID XTRIM ZADD ZCARD ZCOUNT ZDIFF ZDIFFSTORE ZINCRBY ZINTER ZINTERCARD " +
	"ZINTERSTORE ZLEXCOUNT ZMPOP ZMSCORE ZPOPMAX ZPOPMIN ZRANDMEMBER ZRANGE ZRANGEBYLEX " +
	"ZRANGEBYSCORE ZRANGESTORE ZRANK ZREM ZREMRANGEBYLEX ZREMRANGEBYRANK ZREMRANGEBYSCORE " +
	"ZREVRANGE ZREVRANGEBYLEX ZREVRANGEBYSCORE ZREVRANK ZSCAN ZSCORE ZUNION ZUNIONSTORE"

// writeNames are the commands Redis 7.0 flags "write" (COMMAND INFO):
// what a replica refuses from its clients (ErrReadOnly).
const writeNames = "" +
	"APPEND BITFIELD BITOP BLMOVE BLMPOP BLPOP BRPOP BRPOPLPUSH BZMPOP BZPOPMAX BZPOPMIN COPY " +
	"DECR DECRBY DEL EXPIRE EXPIREAT FLUSHALL FLUSHDB GEOADD GEORADIUS GEORADIUSBYMEMBER " +
	"GEOSEARCHSTORE GETDEL GETEX GETSET HDEL HINCRBY HINCRBYFLOAT HMSET HSET HSETNX INCR " +
	"INCRBY INCRBYFLOAT LINSERT LMOVE LMPOP LPOP LPUSH LPUSHX LREM LSET LTRIM MIGRATE MOVE " +
	"MSET MSETNX PERSIST PEXPIRE PEXPIREAT PFADD PFDEBUG PFMERGE PSETEX RENAME RENAMENX " +
	"RESTORE RESTORE-ASKING RPOP RPOPLPUSH RPUSH RPUSHX SADD SDIFFSTORE SET SETBIT SETEX SETNX " +
	"SETRANGE SINTERSTORE SMOVE SORT SPOP SREM SUNIONSTORE SWAPDB UNLINK XACK XADD XAUTOCLAIM " +
	"XCLAIM XDEL XREADGROUP XSETID XTRIM ZADD ZDIFFSTORE ZINCRBY ZINTERSTORE ZMPOP ZPOPMAX " +
	"ZPOPMIN ZRANGESTORE ZREM ZREMRANGEBYLEX ZREMRANGEBYRANK ZREMRANGEBYSCORE ZUNIONSTORE "

var writes = func() map[string]bool {
	m := map[string]bool{"DELEX": true} // Redis 8.4's deletes too
	for _, n := range strings.Fields(writeNames) {
		m[n] = true
	}
	return m
}()

// IsWrite reports whether name (any case) is a command Redis flags
// "write": one a read-only replica refuses.
func IsWrite(name string) bool { return writes[strings.ToUpper(name)] }

// Writes lists the names IsWrite knows, sorted.
func Writes() []string { return slices.Sorted(maps.Keys(writes)) }

// ErrReadOnly is what a replica (replica-read-only, Redis's default)
// answers a client's write.
const ErrReadOnly = "READONLY You can't write against a read only replica."

// Known reports whether name (any case) is a command of Redis 7.0.
func Known(name string) bool { return commands[strings.ToUpper(name)] }

// UnknownCommand is the error Redis 7.0 answers to a command it does not
// know (server.c's processCommand): the name as typed and the first
// arguments, each quoted and followed by a space, up to 128 bytes, as C's
// printf writes them (a NUL byte ends one; a line break is a space, as
// every error reply is one line).
func UnknownCommand(args []string) string {
	var b strings.Builder
	for _, a := range args[1:] {
		if b.Len() >= 128 {
			break
		}
		b.WriteString("'" + clipC(a, 128-b.Len()) + "' ")
	}
	msg := "ERR unknown command '" + clipC(args[0], 128) + "', with args beginning with: " + b.String()
	return strings.NewReplacer("\r", " ", "\n", " ").Replace(msg)
}

// miniredisUnknown starts miniredis's own wording of an unknown command
// ("ERR unknown command `foo`, with args beginning with: `bar`, "), which
// Conn.Do words as Redis does.
const miniredisUnknown = "ERR unknown command `"

// clipC is s as C's "%.*s" prints it: up to its first NUL byte, at most
// n bytes.
func clipC(s string, n int) string {
	s, _, _ = strings.Cut(s, "\x00")
	if len(s) > n {
		s = s[:n]
	}
	return s
}

// Commands lists the names Known knows, sorted.
func Commands() []string { return slices.Sorted(maps.Keys(commands)) }
