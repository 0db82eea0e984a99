// localize.go puts the few words the simulator writes in English — the
// modelled services' replies, a Redlock client's verdict, the storage's
// value, the lanes' node names — into the page's language, at display
// time. sim/ stays language-neutral (its strings are also the JSON API,
// the golden transcripts and the explorer's state), so the translation
// lives here, beside the other interface strings.
package web

import (
	"regexp"
	"strings"

	"locklab/sim"
)

// phrase is one English fragment the simulator writes and its Japanese.
// A pattern matches the whole string; $1… are kept (ids, numbers).
type phrase struct {
	re *regexp.Regexp
	ja string
}

func whole(re, ja string) phrase { return phrase{regexp.MustCompile(`^` + re + `$`), ja} }

// modelPhrases: every reply and description the ZooKeeper/etcd model,
// the replication model and the Redlock client write (sim/coord.go,
// sim/faults.go, sim/redlock.go). TestLocalizeCoversModel replays every
// lesson step and fails on a model string left in English.
var modelPhrases = []phrase{
	// ZooKeeper
	whole(`session (0x[0-9a-f]+), timeout (\d+)ms`, "セッション ${1}、タイムアウト ${2}ms"),
	whole(`true \(watch set\)`, "true（監視を設定）"),
	whole(`SyncConnected: session alive, lock kept`, "SyncConnected：セッションは生きていて、ロックもそのまま"),
	whole(`SESSION_EXPIRED: the lock node is gone`, "SESSION_EXPIRED：ロックのノードはもうない"),
	whole(`CONNECTION_LOSS: outcome of pending calls unknown`, "CONNECTION_LOSS：送信中だった呼び出しの結果は不明"),
	whole(`its ephemeral node deleted`, "エフェメラルノードを削除"),
	whole(`session expired`, "セッションの期限切れ"),
	// etcd
	whole(`succeeded, revision (\d+)`, "成功、リビジョン ${1}"),
	whole(`watching`, "監視中"),
	whole(`deleted (\d+)`, "${1} 件削除"),
	whole(`keepalive OK: lease alive, lock kept`, "keepalive OK：リースは生きていて、ロックもそのまま"),
	whole(`ErrSessionExpired: the lease expired, the key is gone`, "ErrSessionExpired：リースが期限切れになり、キーはもうない"),
	whole(`keepalive stream broken: the lease lives until its TTL runs out`, "keepalive のストリームが切れた：リースは TTL が尽きるまで残る"),
	whole(`its keys deleted`, "キーを削除"),
	whole(`lease expired`, "リースの期限切れ"),
	// both
	whole(`connection lost`, "接続断"),
	whole(`reconnect`, "再接続"),
	whole(`watch event`, "監視イベント"),
	whole(`until DELETE`, "DELETE まで"),
	// Redlock: "3/5 OK (need 3) · elapsed 0ms · validity 10000−0−102 = 9898ms → acquired"
	whole(`(\d+/\d+) OK \(need (\d+)\) · elapsed (-?\d+)ms · validity (.*) → acquired`,
		"${1} OK（必要 ${2}）· 経過 ${3}ms · 有効時間 ${4} → 取得"),
	whole(`(\d+/\d+) OK \(need (\d+)\) · elapsed (-?\d+)ms · validity (.*) → failed`,
		"${1} OK（必要 ${2}）· 経過 ${3}ms · 有効時間 ${4} → 失敗"),
}

// localize returns s in u's language: unchanged in English, translated
// in Japanese when it is one of the simulator's English phrases.
func localize(u *UI, s string) string {
	if u.Lang == "en" || s == "" {
		return s
	}
	for _, p := range modelPhrases {
		if p.re.MatchString(s) {
			return p.re.ReplaceAllString(s, p.ja)
		}
	}
	return s
}

// modelCommand localizes the words of a modelled command, one argument at
// a time (the API names and paths stay as they are).
func modelCommand(u *UI, cmd []string) []string {
	out := make([]string, len(cmd))
	for i, c := range cmd {
		out[i] = localize(u, c)
	}
	return out
}

// storageText is the storage record's value as the page shows it: the
// simulator writes "written by B"; the page says it in its language.
func storageText(u *UI, v string) string {
	if who, ok := strings.CutPrefix(v, "written by "); ok {
		return fill(u.WrittenBy, who)
	}
	return v
}

// nodeLabel is a node's name on its lane, in the event log and on its
// controls: a role or a product name in the page's language; Redlock's
// n1…n5 keep their names.
func nodeLabel(u *UI, name string) string {
	if l, ok := u.NodeName[name]; ok {
		return l
	}
	return name
}

// eventReply is an event's reply as the page shows it: a model's reply
// localized; a Redis server's reply exactly as redis-cli prints it.
func eventReply(u *UI, e sim.Event) string {
	if e.Model {
		return localize(u, e.Reply.String())
	}
	return e.Reply.String()
}
