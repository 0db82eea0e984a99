// end.go holds the course's ending page: the learner's progress (read in
// the browser, where progress is kept), one table from each pitfall to
// what breaks, its fix and the lesson that shows it, and the way on to
// the Lab.
package web

import (
	"net/http"
	"strings"

	"github.com/go-chi/chi/v5"

	"locklab/lessons"
)

// EndUI is the ending page's text in one language.
type EndUI struct {
	Title, Intro, ProgressTitle, ProgressNoJS            string
	DoneOf, Finished, NotYet, Checkpoints, NoCheckpoints string
	MapTitle, MapIntro, Pitfall, Breaks, Fix, Lesson     string
	LabTitle, LabText, LabLink, Again                    string
	Rows                                                 []EndRow
}

// EndRow is one pitfall of the table; Slug names the lesson that shows it.
type EndRow struct{ Pitfall, Breaks, Fix, Slug string }

// Span is a piece of a table cell: text, or a command shown as code.
type Span struct {
	Text string
	Code bool
}

// spans splits a cell at backticks: `SET … NX PX` is code.
func spans(s string) []Span {
	var out []Span
	for i, part := range strings.Split(s, "`") {
		if part != "" {
			out = append(out, Span{Text: part, Code: i%2 == 1})
		}
	}
	return out
}

// EndView is what the ending page template needs.
type EndView struct {
	Page
	E       *EndUI
	Lessons []*lessons.Lesson
	Rows    []EndRowView
}

// EndRowView is a row with its lesson resolved.
type EndRowView struct {
	EndRow
	Lesson *lessons.Lesson
}

// Checkpoints counts a lesson's checkpoints, for the progress list.
func (v *EndView) Checkpoints(l *lessons.Lesson) int {
	n := 0
	for _, st := range l.Steps {
		if st.Checkpoint != nil {
			n++
		}
	}
	return n
}

// endPath is the ending page of lang.
func endPath(lang string) string { return "/" + lang + "/end" }

func (s *Server) endPage(w http.ResponseWriter, r *http.Request) {
	u := T(chi.URLParam(r, "lang"))
	e := endUIs[u.Lang]
	v := &EndView{Page: s.page(u, e.Title+" — "+u.SiteName, r), E: e, Lessons: s.course.List(u.Lang)}
	for _, row := range e.Rows {
		l, ok := s.course.Get(u.Lang, row.Slug)
		if !ok {
			s.fail(w, r, u, internal(u, errUnknownSlug(row.Slug)))
			return
		}
		v.Rows = append(v.Rows, EndRowView{EndRow: row, Lesson: l})
	}
	s.render(w, r, EndPage(v))
}

type errUnknownSlug string

func (e errUnknownSlug) Error() string { return "ending page: no lesson " + string(e) }

var endUIs = map[string]*EndUI{
	"en": {
		Title:         "The end of the course",
		Intro:         "This is where the course ends: what you have done so far, the whole course on one screen, and where to go next.",
		ProgressTitle: "Your progress",
		ProgressNoJS:  "Your progress is kept in this browser only, never on the server; it shows here when JavaScript is on.",
		DoneOf:        "{0} of {1} lessons finished.",
		Finished:      "finished", NotYet: "not finished yet",
		Checkpoints:   "checkpoints: {0} right of {1} answered ({2} in the lesson)",
		NoCheckpoints: "no checkpoint answered",
		MapTitle:      "Pitfalls and their fixes",
		MapIntro:      "Every row is something that looks like a working lock and is not. The lesson in the last column shows it happen on a timeline.",
		Pitfall:       "Pitfall", Breaks: "What breaks", Fix: "The fix", Lesson: "Lesson",
		LabTitle: "Now let the machine look for the failure",
		LabText:  "The Lab takes any lesson's design, tries every order of the clients' commands and the faults you allow, and shows the shortest schedule that breaks it. Start from a design you trust and see whether it survives.",
		LabLink:  "Open the Lab",
		Again:    "Back to the lessons",
		Rows: []EndRow{
			{"A mutex inside each app server", "Both servers enter and the order is charged twice: neither can see the other's mutex.", "One lock that every server shares, such as a key in Redis.", "two-servers"},
			{"`GET`, then `SET` if the key was free", "Two clients both see a free key and both take it.", "One atomic `SET key value NX PX`.", "atomic-acquire"},
			{"`SETNX`, then `EXPIRE`", "A crash between the two leaves a key with no TTL: locked forever (`PTTL` answers `-1`).", "The TTL in the same command: `SET … NX PX`.", "atomic-acquire"},
			{"A lock without a TTL", "A holder that crashes never releases it.", "Always a TTL; extend it while the work goes on.", "ttl"},
			{"Trusting the TTL to stop a slow or paused holder", "The key expires while the holder still works, and a second client gets in.", "Extend while working, and make the storage check a fencing token.", "ttl"},
			{"Releasing with a plain `DEL`", "A holder whose lock expired deletes the next holder's lock.", "Compare-and-delete with a value unique to each acquisition (Lua, or `DELEX … IFEQ`).", "safe-release"},
			{"The host's name (or host and process id) as the lock value", "Two acquisitions share a value, so a stale holder's compare-and-delete matches and deletes the new lock.", "A fresh random value for every acquisition, not per host or process.", "safe-release"},
			{"Believing the lock protects the data", "A paused holder wakes up and overwrites newer data.", "A fencing token that only grows, checked and written by the storage in one atomic step.", "fencing"},
			{"Asking “is the lock still mine?” right before writing", "The holder pauses between the answer and the write, and writes after the lock has moved on.", "Nothing on the client side: the storage checks a fencing token.", "fencing"},
			{"The storage checking the token with `GET`, then writing with `SET`", "Two writers read the same old token, and the older write lands last.", "Check and update in one atomic step: a script, a transaction, a conditional update.", "fencing"},
			{"One Redis with an asynchronous replica", "The primary dies before the lock is copied; the promoted replica gives the lock to a second client.", "`WAIT` narrows the window but does not close it; fence the storage.", "failover"},
			{"Redlock taken as a correctness lock", "A restart without persistence, a clock jump or a long pause lets two clients hold a majority.", "Persistence or a delayed restart, and fencing tokens; otherwise use it for efficiency only.", "redlock"},
			{"Treating a lost connection as a held lock", "The session expires during the silence, and another client takes over while the first still acts.", "Stop side effects until the session is confirmed; use the czxid or revision as a token the storage checks.", "zookeeper-etcd"},
			{"Counting on the lock for exactly-once", "A lost reply makes the holder retry, and the order is charged twice.", "An idempotency key or a unique constraint at the resource.", "exactly-once"},
		},
	},
	"ja": {
		Title:         "コースの終わりに",
		Intro:         "コースはここで終わりです。ここまでの記録と、コース全体を 1 画面にまとめた表と、次に進む場所を並べました。",
		ProgressTitle: "あなたの進み具合",
		ProgressNoJS:  "進み具合はこのブラウザーの中だけに保存していて、サーバーには送りません。JavaScript が有効なときに、ここに表示されます。",
		DoneOf:        "{1} レッスン中 {0} レッスンを修了しました。",
		Finished:      "修了", NotYet: "まだ途中",
		Checkpoints:   "チェックポイント：答えた {1} 問中 {0} 問正解（レッスン全体で {2} 問）",
		NoCheckpoints: "チェックポイントにはまだ答えていません",
		MapTitle:      "落とし穴と直し方",
		MapIntro:      "どの行も、動いているように見えて実はロックになっていないものです。最後の列のレッスンで、それが起きるところをタイムラインで確かめられます。",
		Pitfall:       "落とし穴", Breaks: "何が壊れるか", Fix: "直し方", Lesson: "レッスン",
		LabTitle: "次は、壊れ方を機械に探させよう",
		LabText:  "実験室は、どのレッスンの設計でも受け取って、クライアントのコマンドと許した障害が起こりうる順序をすべて試し、壊れる最短の手順を見せてくれます。信頼している設計から始めて、持ちこたえるか確かめてみましょう。",
		LabLink:  "実験室を開く",
		Again:    "レッスン一覧に戻る",
		Rows: []EndRow{
			{"各アプリサーバーの中の mutex", "どちらのサーバーも中に入り、注文が 2 回課金される。お互いの mutex は見えない。", "すべてのサーバーが共有する 1 つのロック（たとえば Redis のキー）。", "two-servers"},
			{"`GET` して、空いていたら `SET`", "2 つのクライアントがどちらも空きを見て、どちらも取る。", "アトミックな `SET key value NX PX` を 1 回。", "atomic-acquire"},
			{"`SETNX` のあとに `EXPIRE`", "2 つの間でクラッシュすると TTL のないキーが残り、永遠にロックされる（`PTTL` は `-1` を返す）。", "TTL も同じコマンドで付ける：`SET … NX PX`。", "atomic-acquire"},
			{"TTL のないロック", "持ち主がクラッシュすると、二度と解放されない。", "必ず TTL を付け、作業が続くあいだは延長する。", "ttl"},
			{"遅い持ち主や止まった持ち主を TTL が止めてくれると思う", "持ち主がまだ作業しているうちにキーが期限切れになり、2 つ目のクライアントが入ってくる。", "作業中は延長し、ストレージにフェンシングトークンを検査させる。", "ttl"},
			{"ただの `DEL` で解放する", "ロックが期限切れになった持ち主が、次の持ち主のロックを消す。", "取得ごとに一意な値で比較してから削除（Lua、または `DELEX … IFEQ`）。", "safe-release"},
			{"ホスト名（やホスト名とプロセス ID）をロックの値にする", "2 つの取得が同じ値になり、古い持ち主の「比較してから削除」が一致して新しいロックを消す。", "ホストやプロセスごとではなく、取得のたびに新しいランダムな値。", "safe-release"},
			{"ロックがデータを守ってくれると思う", "止まっていた持ち主が目を覚まし、新しいデータを上書きする。", "増える一方のフェンシングトークンを、ストレージが 1 つのアトミックな手順で検査して書き込む。", "fencing"},
			{"書く直前に「ロックはまだ自分のもの？」と確かめる", "答えと書き込みの間で持ち主が止まり、ロックが移ったあとで書き込む。", "クライアント側では直せない。ストレージがフェンシングトークンを検査する。", "fencing"},
			{"ストレージが `GET` でトークンを確かめてから `SET` で書く", "2 人の書き手が同じ古いトークンを読み、古いほうの書き込みが最後に着く。", "検査と更新を 1 つのアトミックな手順で行う（スクリプト、トランザクション、条件付き更新）。", "fencing"},
			{"非同期レプリカ付きの Redis 1 台", "ロックが複製される前にプライマリが落ち、昇格したレプリカが 2 つ目のクライアントにロックを渡す。", "`WAIT` は隙間を狭めるが、ふさぎはしない。ストレージ側でフェンスする。", "failover"},
			{"Redlock を正しさのためのロックとして使う", "永続化なしの再起動、時計の飛び、長い停止で、2 つのクライアントが過半数を持つ。", "永続化か再起動の遅延、そしてフェンシングトークン。それができないなら効率のためだけに使う。", "redlock"},
			{"接続が切れてもロックは持っていると考える", "沈黙のあいだにセッションが期限切れになり、前の持ち主がまだ動いているのに別のクライアントが引き継ぐ。", "セッションが確かめられるまで副作用を止める。czxid やリビジョンをトークンにして、ストレージに検査させる。", "zookeeper-etcd"},
			{"ロックで exactly-once になると思う", "応答が失われて持ち主がやり直し、注文が 2 回課金される。", "リソース側の冪等キーや一意制約。", "exactly-once"},
		},
	},
}
