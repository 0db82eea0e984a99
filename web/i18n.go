// i18n.go holds the interface strings in both languages and the choice of
// language from Accept-Language. Lesson text lives in lessons/, not here.
package web

import (
	"net/http"
	"strconv"
	"strings"

	"golang.org/x/text/language"

	"locklab/sim"
)

// UI is every interface string in one language. A struct, not a map, so a
// string missing in one language is a compile error or an empty field that
// TestUIComplete catches.
type UI struct {
	Lang, OtherLang                                                     string
	SiteName, Tagline, Lessons, LessonListIntro, SwitchTo               string
	Chick, Penguin, Step, Of, NextStep, Undo, Reset                     string
	BackToPath, OffPath, OffPathNone, Finished, NextLesson              string
	PrevLesson, StepsHeading, Controls, TimeControls                    string
	Options, Apply, Timeline, TimelineDesc, EventLog, Time              string
	Who, Command, Reply, Note, Now, Lock, Storage                       string
	TTLLeft, Expired, DeletedBy, Token, Accepted, Rejected              string
	Violations                                                          string
	Scripts, Legend, Paused, Working                                    string
	Crashed, OpenJSON, Home, SkipToLab, Client                          string
	ErrorTitle, NotFound, NotFoundText, BadRequest                      string
	BadRequestHint, LastGood, StartOver, InternalText                   string
	WrongMethod, ExpiredAt, Latency, MaxToken, TTLLegend                string
	NodeControls, Model, Refused, NoTTL, Overwritten                    string
	LostData, ValidUntil, Charges, LostReply, Down                      string
	ClockAhead, SlowBy, PrimaryRole, ReplicaRole, NoCheck               string
	Predict, Reveal, SkipPredict, YouPredicted, Right                   string
	Wrong, TheAnswer, CheckpointAnswer, LessonJSON                      string
	DownloadSVG, DownloadJSON, ShareQR, QRTooLong                       string
	ThemeAuto, ThemeDark, ThemeLight, HeaderTooLarge                    string
	URITooLong, URITooLongBack                                          string
	Share, ShareHint, Play, Pause, Speed, Theme, Presenter, Help, Close string
	Shortcuts                                                           [][2]string
	Busy, DoneLabel, ContinueLabel                                      string
	RedisDown                                                           string
	AlreadyPaid, ChargedTwiceBy, WrittenBy, Review                      string
	CounterTitle, CounterIntro, CounterSchedule, CounterBroke           string
	CounterNone, CounterWhen, CounterBack, CounterGuided                string
	NodeName                                                            map[string]string
	Verb                                                                map[string]string
	OptionLabel                                                         map[string]string
	OptionValue                                                         map[string]string
	KindNote                                                            map[sim.Kind]string
	DropWriteNote                                                       string // KindNote of a design's drop: only its write's reply
	NodeNote                                                            map[string]string
	ViolationText                                                       map[sim.ViolationKind]string
	ErrorText                                                           map[sim.Code]string
	StateName                                                           map[sim.State]string
	Purpose                                                             map[string]string
}

// T returns the interface strings for lang (English if unknown).
func T(lang string) *UI {
	if u, ok := uis[lang]; ok {
		return u
	}
	return uis["en"]
}

// fill replaces {0}, {1}… with args: one syntax for both languages, whose
// word orders differ.
func fill(s string, args ...string) string {
	for i, a := range args {
		s = strings.ReplaceAll(s, "{"+strconv.Itoa(i)+"}", a)
	}
	return s
}

// count writes a count with its thousands grouped ("23,151"), as both
// English and Japanese text write them: the Lab's figures run to tens of
// thousands.
func count(n int) string {
	if n < 0 {
		return "-" + count(-n)
	}
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

var supported = []language.Tag{language.Japanese, language.English}
var matcher = language.NewMatcher(supported)

// negotiate picks ja or en from the request's Accept-Language header.
func negotiate(r *http.Request) string {
	tags, _, _ := language.ParseAcceptLanguage(r.Header.Get("Accept-Language"))
	_, idx, conf := matcher.Match(tags...)
	if conf == language.No {
		return "en"
	}
	if idx == 0 {
		return "ja"
	}
	return "en"
}

func validLang(l string) bool { _, ok := uis[l]; return ok }

// actionLabels name each action of the simulator's table on its control
// and in the Lab's steps, in English and Japanese ({0}: the duration it
// takes, or the command a client stopped between two commands sends next).
// A new verb needs its line here.
var actionLabels = map[string][2]string{
	sim.VerbAcquire:    {"acquire", "取得"},
	sim.VerbNext:       {"continue: {0}", "続ける：{0}"},
	sim.VerbWrite:      {"work & write", "作業して書き込み"},
	sim.VerbExtend:     {"extend", "延長"},
	sim.VerbTTL:        {"ask PTTL", "PTTL で確認"},
	sim.VerbRelease:    {"release", "解放"},
	sim.VerbPause:      {"pause", "一時停止"},
	sim.VerbResume:     {"resume", "再開"},
	sim.VerbDisconnect: {"lose connection", "接続断"},
	sim.VerbReconnect:  {"reconnect", "再接続"},
	sim.VerbDrop:       {"lose next reply", "次の応答を失う"},
	sim.VerbCrash:      {"crash", "クラッシュ"},
	sim.NodeDown:       {"down", "停止"},
	sim.NodeUp:         {"up", "復帰"},
	sim.NodeRestart:    {"restart", "再起動"},
	sim.NodeJump:       {"clock +{0}", "時計を +{0}"},
	sim.NodeSlow:       {"slow {0}", "遅延 {0}"},
	sim.NodePromote:    {"promote", "昇格"},
	sim.VerbWait:       {"Wait {0}", "{0} 待つ"},
}

// nodeNotes are the event log's notes on what the learner did to a node
// ({0}: the node, {1}: the duration).
var nodeNotes = map[string][2]string{
	sim.NodeDown:    {"{0} is down", "{0} が停止"},
	sim.NodeUp:      {"{0} is back, with its data", "{0} がデータを持ったまま復帰"},
	sim.NodeRestart: {"{0} restarted", "{0} が再起動"},
	sim.NodeJump:    {"{0}'s clock jumped {1} ahead", "{0} の時計が {1} 進んだ"},
	sim.NodeSlow:    {"each command to {0} now takes {1}", "{0} へのコマンドは {1} かかる"},
	sim.NodePromote: {"{0} is now the primary", "{0} がプライマリになった"},
}

// The columns of actionLabels and nodeNotes.
const (
	langEN = 0
	langJA = 1
)

// inLang is one language's column of a two-language table.
func inLang(m map[string][2]string, lang int) map[string]string {
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = v[lang]
	}
	return out
}

var uis = map[string]*UI{
	"en": {
		Lang: "en", OtherLang: "ja", SiteName: "Lock Lab", Tagline: "Distributed locks, learned on a live Redis timeline",
		Lessons: "Lessons", LessonListIntro: "Chick asks, Professor Penguin answers — and after every answer you do it yourself on a timeline that runs real Redis commands.",
		SwitchTo: "日本語で読む",
		Chick:    "Chick", Penguin: "Professor Penguin", Step: "Step", Of: "of",
		NextStep: "Next step", Undo: "Undo", Reset: "Reset",
		BackToPath: "Back to the guided path", OffPath: "You are exploring on your own. The guided path left off at step {0}.",
		OffPathNone: "You are exploring on your own, off the guided path.",
		Finished:    "You reached the end of this lesson.", NextLesson: "Next lesson", PrevLesson: "Previous lesson",
		StepsHeading: "Guided steps", Controls: "What the clients can do now", TimeControls: "Let time pass",
		Options: "Variants", Apply: "Apply", Timeline: "Timeline",
		TimelineDesc: "Time runs left to right. Lanes: each client's state, the lock key in Redis, and the storage. The table below lists the same events.",
		EventLog:     "Event log", Time: "Time", Who: "Who", Command: "Command", Reply: "Reply", Note: "Note",
		Now: "now", Lock: "Redis", Storage: "Storage", TTLLeft: "{0} left", Expired: "expired",
		DeletedBy: "deleted by {0}", Token: "token {0}", Accepted: "accepted", Rejected: "rejected",
		Violations: "What went wrong", Scripts: "Lua scripts used", Legend: "Legend", Paused: "paused", Working: "working", Crashed: "crashed", OpenJSON: "Timeline as JSON", Home: "All lessons", SkipToLab: "Skip to the timeline", Client: "Client {0}",
		ErrorTitle: "Something is not right", NotFound: "Page not found",
		NotFoundText: "There is no page at this address. The lesson list is a good place to start again.",
		BadRequest:   "This timeline cannot be replayed", BadRequestHint: "Everything before that point still works:",
		LastGood: "Open the timeline up to the last possible action", StartOver: "Start the lesson over",
		InternalText:   "The server hit a problem of its own. Reloading the page usually helps; your timeline is in the address and nothing is lost.",
		URITooLong:     "This link is too long to open: a timeline holds at most {0} actions, and no link of this site is longer than {1} KB. It may have been pasted twice, or cut and joined wrongly.",
		URITooLongBack: "Open this page without the timeline",
		WrongMethod:    "This address only answers GET requests.", HeaderTooLarge: "The request's headers are too large (often: too many or too big cookies for this address). Clear this site's cookies and try again.",
		Busy:      "The server is busy replaying other timelines. Try the same link again in a moment; nothing is lost.",
		RedisDown: "This server runs its lessons on a real Redis, and that Redis is not answering right now. Try the same link again once it is back; your timeline is in the address and nothing is lost.",
		Share:     "Share this moment", ShareHint: "Scan to open this exact timeline on a phone, or copy the link.",
		Play: "▶ Play", Pause: "❚❚ Pause", Speed: "Speed", Theme: "Theme", ThemeAuto: "system", ThemeDark: "dark", ThemeLight: "light", Presenter: "Presenter mode", Help: "Keyboard shortcuts", Close: "Close",
		Shortcuts: [][2]string{{"n", "next step (in presenter mode: next line first)"}, {"u", "undo the last action"},
			{"p", "play / pause time"}, {"f", "presenter mode on / off"}, {"t", "light / dark / automatic theme"},
			{"l", "switch language"}, {"1–3", "answer the checkpoint on screen (that choice)"}, {"?", "this help"}},
		ExpiredAt: "{0}'s lock expired", Latency: "Network latency is modelled as 0 ms; the process pause is modelled.",
		MaxToken: "max token {0}", TTLLegend: "lock's remaining TTL",
		NodeControls: "What the nodes can do", Model: "model", Refused: "refused: the node is down",
		NoTTL: "no TTL (PTTL −1)", Overwritten: "overwritten by {0}", LostData: "lost with the node's data",
		ValidUntil: "valid until {0}", Charges: "charges: {0}", LostReply: "reply lost: {0} never saw it",
		Down: "down", ClockAhead: "clock +{0}", SlowBy: "slow {0}", PrimaryRole: "primary", ReplicaRole: "replica",
		NoCheck:     "no token check",
		AlreadyPaid: "already paid: nothing charged", ChargedTwiceBy: "Charged twice: {0} charged order 42 twice.",
		WrittenBy: "written by {0}", Review: "Review",
		CounterTitle:    "A counterexample from the Lab",
		CounterIntro:    "The Lab's explorer found this schedule for the design shown under Variants. It is not a step of the lesson: it is replayed here on the same simulator, with real Redis replies, so you can look at it and try your own actions from it.",
		CounterSchedule: "The schedule, action by action", CounterBroke: "What broke, and when",
		CounterNone: "Nothing broke in this replay.", CounterWhen: "At {0}, during action {1}: {2}",
		CounterBack: "Back to the Lab result", CounterGuided: "Start this lesson's guided path",
		NodeName: map[string]string{"primary": "primary", "replica": "replica", "zookeeper": "ZooKeeper", "etcd": "etcd", "link": "link"},
		OptionValue: map[string]string{
			"release.lua": "Release with compare-and-delete (Lua)", "release.del": "Release with plain DEL",
			"release.getdel": "GET, then DEL (two commands)", "release.delex": "DELEX key IFEQ value (Redis 8.4+)",
			"fence.on": "Storage checks the token", "fence.off": "Storage ignores the token",
			"fence.strict":  "Storage wants a greater token (refuses a retry)",
			"fence.twostep": "Storage checks the token in two commands (GET, then MSET)",
			"check.none":    "The client writes without asking first", "check.get": "The client asks “still mine?” (GET) before writing",
			"value.unique": "A random value for each acquisition", "value.host": "The host's name as the value",
			"work.short": "The job takes 1 s", "work.long": "The job takes 15 s (longer than the TTL)",
			"acquire.set": "SET key value NX PX (one command)", "acquire.getset": "GET, then SET (two commands)",
			"acquire.setnx": "SETNX, then PEXPIRE (two commands)",
			"ttl.on":        "With a TTL (PX 10000)", "ttl.off": "No TTL",
			"lock.redis": "One Redis key shared by both servers", "lock.local": "A mutex inside each server (model)",
			"idem.key": "Idempotency key (charge once)", "idem.none": "No idempotency key",
			"persist.fsync": "Restart keeps keys (appendfsync always)", "persist.none": "Restart loses keys (no persistence)",
			"wait.on": "WAIT for the replica after acquiring", "wait.off": "Trust the primary's OK at once",
			"svc.zk": "ZooKeeper (model)", "svc.etcd": "etcd (model)",
		},
		KindNote: map[sim.Kind]string{
			sim.KindLocal: "took its in-process mutex (model: no other server sees it)", sim.KindLocalUnlock: "unlocked its in-process mutex",
			sim.KindDrop: "the network will lose the reply to its next command", sim.KindGiveUp: "gave up: it tries only once",
		},
		DropWriteNote: "the network will lose the reply to its next storage write",
		Predict:       "Predict first", Reveal: "Reveal", SkipPredict: "Skip the question",
		YouPredicted: "You predicted:", Right: "Right", Wrong: "Not quite",
		TheAnswer: "The answer:", CheckpointAnswer: "What the checkpoint asked",
		LessonJSON: "Lesson as JSON", DownloadSVG: "Download the timeline as SVG (for slides)", DownloadJSON: "Download as JSON", ShareQR: "QR code of this page's address", QRTooLong: "This timeline's address is too long for a QR code; share the link instead.", DoneLabel: "Finished", ContinueLabel: "Continue where you left off",
		Verb: inLang(actionLabels, langEN), NodeNote: inLang(nodeNotes, langEN),
		OptionLabel: map[string]string{"release": "Release", "fence": "Fencing check", "acquire": "Acquire", "ttl": "TTL",
			"lock": "Lock", "idem": "Charging", "persist": "Persistence", "wait": "Replication", "svc": "Service", "work": "Job",
			"check": "Before writing", "value": "Lock value"},
		ViolationText: map[sim.ViolationKind]string{
			sim.Overlap:       "Exclusion lost: {0} took the lock while {1} still believed it held it.",
			sim.StaleWrite:    "Stale write accepted: {0} no longer held the lock, yet the storage took its write.",
			sim.ForeignDelete: "{0} deleted a lock that was not its own (it was {1}'s).",
			sim.DoubleCharge:  "Charged twice: order 42 was charged by {1} and again by {0}.",
			sim.Orphan:        "Locked forever: {0} crashed and its key has no TTL, so nothing will ever delete it.",
			sim.TwoHolders:    "Two holders: {0} took or renewed the lock while {1}'s lease had not run out.",
			sim.DoubleWrite:   "Both wrote: the storage accepted {0}'s write and {1}'s, both under valid leases.",
			sim.RepeatedWrite: "Double write: {0} resent its write with the same token after the reply was lost, and the storage accepted it again: the total counts the job twice.",
			sim.NotReleased:   "{0} released, but the lock key still holds its value.",
		},
		ErrorText: map[sim.Code]string{
			sim.CodeSyntax:         "“{0}” is not an action. Actions look like a.acquire or wait.10s.",
			sim.CodeUnknownVerb:    "“{0}”: no such action. Clients can {2}; nodes, in the lessons that have them, {3}; wait lets time pass.",
			sim.CodeNotOffered:     "“{0}”: this lesson does not offer {9}. Here clients can {10}; wait lets time pass.",
			codeRepeated:           "The address has “{0}=” more than once. A timeline link has one do= and at most one opt=.",
			sim.CodeUnknownClient:  "“{0}”: this lesson has no client {1}.",
			sim.CodeBadDuration:    "“{0}”: {8} take a whole duration between 1ms and {4}, like wait.500ms or wait.10s; other actions take none.",
			sim.CodeTooMany:        "A timeline holds at most {5} actions.",
			sim.CodeTooLong:        "The address is too long to be a timeline.",
			sim.CodePaused:         "“{0}”: {1} is paused. A paused client can only be resumed (or crash).",
			sim.CodeCrashed:        "“{0}”: {1} has crashed and does nothing any more.",
			sim.CodeNotPaused:      "“{0}”: {1} is not paused.",
			sim.CodeNotHolding:     "“{0}”: {1} has not acquired the lock.",
			sim.CodeBusy:           "“{0}”: {1} is already holding or trying to get the lock.",
			sim.CodeTimeLimit:      "“{0}”: the timeline would grow too long (at most {6} hours of virtual time and {7} events).",
			sim.CodeUnknownOption:  "“{0}” is not a variant of this lesson.",
			sim.CodeBadOption:      "“{0}”: this variant does not take that value.",
			sim.CodeUnknownScene:   "The lesson’s scenario is missing.",
			sim.CodePending:        "“{0}”: {1} stopped between two commands; it can only continue, pause or crash.",
			sim.CodeNothingPending: "“{0}”: {1} is not between two commands.",
			sim.CodeUnknownNode:    "“{0}”: this lesson has no such node.",
			sim.CodeNodeState:      "“{0}”: not possible in the node's or client's present state.",
			sim.CodeTooSlow:        "“{0}”: this timeline took too long to replay; try a shorter one.",
		},
		StateName: map[sim.State]string{
			sim.StateIdle: "idle", sim.StateTrying: "trying", sim.StateHolding: "holding",
			sim.StateWorking: "working", sim.StatePaused: "paused", sim.StateCrashed: "crashed",
			sim.StateChecking: "checked: free", sim.StateWaiting: "waiting for replica",
		},
		Purpose: map[string]string{
			"acquire": "acquire", "retry": "retry", "token": "fencing token", "write": "write", "release": "release",
			"check": "check", "expire": "set the TTL", "extend": "extend", "unlock": "undo on every node",
			"replicate": "replication link", "wait": "wait for the replica", "session": "session",
			"watch": "watch", "notify": "watch fired", "reconnect": "reconnect", "disconnect": "connection lost",
			"timeout": "timed out: nothing heard for the timeout",
			"ttl":     "how long is left?", "ttl-1": "-1: the key exists with no expiry", "ttl-2": "-2: there is no such key",
			"stillmine": "still mine?", "lasttoken": "read the last token",
		},
	},
	"ja": {
		Lang: "ja", OtherLang: "en", SiteName: "Lock Lab", Tagline: "分散ロックを、本物の Redis が動くタイムラインで学ぶ",
		Lessons: "レッスン", LessonListIntro: "ひよこが質問し、ペンギン先生が答えます。答えのあとは、本物の Redis コマンドが動くタイムラインで自分の手で試します。",
		SwitchTo: "Read in English",
		Chick:    "ひよこ", Penguin: "ペンギン先生", Step: "ステップ", Of: "/",
		NextStep: "次へ", Undo: "元に戻す", Reset: "最初から",
		BackToPath: "ガイドの道筋に戻る", OffPath: "自由に操作しています。ガイドはステップ {0} までです。",
		OffPathNone: "ガイドの道筋から外れて、自由に操作しています。",
		Finished:    "このレッスンは最後まで進みました。", NextLesson: "次のレッスン", PrevLesson: "前のレッスン",
		StepsHeading: "ガイドのステップ", Controls: "いまクライアントができること", TimeControls: "時間を進める",
		Options: "バリエーション", Apply: "適用", Timeline: "タイムライン",
		TimelineDesc: "時間は左から右へ進みます。レーンは各クライアントの状態、Redis のロックキー、ストレージです。同じ出来事を下の表にも並べています。",
		EventLog:     "イベントログ", Time: "時刻", Who: "誰", Command: "コマンド", Reply: "応答", Note: "メモ",
		Now: "現在", Lock: "Redis", Storage: "ストレージ", TTLLeft: "残り {0}", Expired: "期限切れ",
		DeletedBy: "{0} が削除", Token: "トークン {0}", Accepted: "受理", Rejected: "拒否",
		Violations: "起きた問題", Scripts: "使っている Lua スクリプト", Legend: "凡例", Paused: "一時停止", Working: "作業中", Crashed: "クラッシュ", OpenJSON: "タイムラインを JSON で見る", Home: "レッスン一覧", SkipToLab: "タイムラインへ移動", Client: "クライアント {0}",
		ErrorTitle: "うまくいきませんでした", NotFound: "ページが見つかりません",
		NotFoundText: "このアドレスにはページがありません。レッスン一覧からやり直してください。",
		BadRequest:   "このタイムラインは再生できません", BadRequestHint: "その手前までは再生できます：",
		LastGood: "最後に実行できた操作までのタイムラインを開く", StartOver: "レッスンを最初から始める",
		InternalText:   "サーバー側で問題が起きました。再読み込みすると多くの場合は直ります。タイムラインはアドレスに入っているので、失われていません。",
		URITooLong:     "このリンクは長すぎて開けません。1 つのタイムラインに入る操作は {0} 個までで、このサイトのリンクが {1} KB を超えることはありません。2 回貼り付けたか、途中で切れてつながったのかもしれません。",
		URITooLongBack: "タイムラインなしでこのページを開く",
		WrongMethod:    "このアドレスは GET リクエストだけに応答します。", HeaderTooLarge: "リクエストのヘッダーが大きすぎます（このアドレスの Cookie が多すぎる・大きすぎることがよくある原因です）。このサイトの Cookie を消してから、もう一度お試しください。",
		Busy:      "サーバーがほかのタイムラインの再生で混み合っています。少し待って同じリンクを開き直してください。何も失われていません。",
		RedisDown: "このサーバーはレッスンを本物の Redis で動かしていますが、その Redis がいま応答していません。Redis が戻ったら同じリンクを開き直してください。タイムラインはアドレスに入っているので、失われていません。",
		Share:     "この瞬間を共有", ShareHint: "スマートフォンで読み取ると、このタイムラインの同じ状態が開きます。リンクをコピーしても共有できます。",
		Play: "▶ 再生", Pause: "❚❚ 一時停止", Speed: "速さ", Theme: "テーマ", ThemeAuto: "システム", ThemeDark: "ダーク", ThemeLight: "ライト", Presenter: "プレゼンターモード", Help: "キーボードショートカット", Close: "閉じる",
		Shortcuts: [][2]string{{"n", "次のステップ（プレゼンターモードでは、まず次の台詞）"}, {"u", "最後の操作を元に戻す"},
			{"p", "時間を再生 / 一時停止"}, {"f", "プレゼンターモードの切り替え"}, {"t", "ライト / ダーク / 自動のテーマ"},
			{"l", "言語の切り替え"}, {"1–3", "表示中のチェックポイントにその番号の選択肢で答える"}, {"?", "このヘルプ"}},
		ExpiredAt: "{0} のロックが期限切れ", Latency: "ネットワーク遅延は 0 ms としてモデル化しています。プロセスの一時停止もモデルです。",
		MaxToken: "最大トークン {0}", TTLLegend: "ロックの残り TTL",
		NodeControls: "ノードにできること", Model: "モデル", Refused: "拒否：ノードが停止中",
		NoTTL: "TTL なし（PTTL −1）", Overwritten: "{0} が上書き", LostData: "ノードのデータと共に消失",
		ValidUntil: "{0} まで有効", Charges: "課金：{0}", LostReply: "応答消失：{0} には届いていない",
		Down: "停止中", ClockAhead: "時計 +{0}", SlowBy: "遅延 {0}", PrimaryRole: "プライマリ", ReplicaRole: "レプリカ",
		NoCheck:     "トークン検査なし",
		AlreadyPaid: "支払い済み：課金しない", ChargedTwiceBy: "二重課金：{0} が注文 42 を 2 回課金した。",
		WrittenBy: "{0} が書いた値", Review: "おさらい",
		CounterTitle:    "実験室が見つけた反例",
		CounterIntro:    "実験室の探索器が、バリエーションに表示している設計について見つけた手順です。レッスンのステップではありません。同じシミュレーターで本物の Redis の応答とともに再生しているので、じっくり眺めたり、ここから自分で操作を続けたりできます。",
		CounterSchedule: "手順（操作ごと）", CounterBroke: "何が、いつ壊れたか",
		CounterNone: "この再生では何も壊れていません。", CounterWhen: "{0}、操作 {1} の途中：{2}",
		CounterBack: "実験室の結果に戻る", CounterGuided: "このレッスンをガイドに沿って始める",
		NodeName: map[string]string{"primary": "プライマリ", "replica": "レプリカ", "zookeeper": "ZooKeeper", "etcd": "etcd", "link": "複製リンク"},
		OptionValue: map[string]string{
			"release.lua": "比較してから削除（Lua）で解放", "release.del": "ただの DEL で解放",
			"release.getdel": "GET してから DEL（2 コマンド）", "release.delex": "DELEX … IFEQ 値（Redis 8.4 以降）",
			"fence.on": "ストレージがトークンを検査する", "fence.off": "ストレージがトークンを無視する",
			"fence.strict":  "ストレージはより大きいトークンだけを受け付ける（再試行も拒否）",
			"fence.twostep": "ストレージが 2 つのコマンドでトークンを検査する（GET してから MSET）",
			"check.none":    "クライアントは確かめずに書く", "check.get": "クライアントが書く前に「まだ自分のもの？」と GET で確かめる",
			"value.unique": "取得のたびに新しいランダムな値", "value.host": "ホスト名を値にする",
			"work.short": "作業は 1 秒", "work.long": "作業は 15 秒（TTL より長い）",
			"acquire.set": "SET … NX PX（1 コマンド）", "acquire.getset": "GET してから SET（2 コマンド）",
			"acquire.setnx": "SETNX してから PEXPIRE（2 コマンド）",
			"ttl.on":        "TTL あり（PX 10000）", "ttl.off": "TTL なし",
			"lock.redis": "両サーバーで共有する Redis のキー", "lock.local": "各サーバー内の mutex（モデル）",
			"idem.key": "冪等キー（一度だけ課金）", "idem.none": "冪等キーなし",
			"persist.fsync": "再起動でもキーが残る（appendfsync always）", "persist.none": "再起動でキーが消える（永続化なし）",
			"wait.on": "取得後に WAIT でレプリカを待つ", "wait.off": "プライマリの OK をすぐ信じる",
			"svc.zk": "ZooKeeper（モデル）", "svc.etcd": "etcd（モデル）",
		},
		KindNote: map[sim.Kind]string{
			sim.KindLocal: "プロセス内の mutex を取った（モデル：他のサーバーからは見えない）", sim.KindLocalUnlock: "プロセス内の mutex を外した",
			sim.KindDrop: "次のコマンドの応答をネットワークが失う", sim.KindGiveUp: "あきらめた：取得は 1 回だけ試す",
		},
		DropWriteNote: "次のストレージ書き込みの応答をネットワークが失う",
		Predict:       "先に予想しよう", Reveal: "答え合わせ", SkipPredict: "答えずに次へ",
		YouPredicted: "あなたの予想は", Right: "正解", Wrong: "残念、不正解",
		TheAnswer: "正解は", CheckpointAnswer: "チェックポイントの答え",
		LessonJSON: "レッスンを JSON で見る", DownloadSVG: "タイムラインを SVG でダウンロード（スライド用）", DownloadJSON: "JSON でダウンロード", ShareQR: "このページのアドレスの QR コード", QRTooLong: "このタイムラインのアドレスは QR コードには長すぎます。リンクを共有してください。", DoneLabel: "修了", ContinueLabel: "続きから",
		Verb: inLang(actionLabels, langJA), NodeNote: inLang(nodeNotes, langJA),
		OptionLabel: map[string]string{"release": "解放の方法", "fence": "フェンシングの検査", "acquire": "取得の方法", "ttl": "TTL",
			"lock": "ロック", "idem": "課金", "persist": "永続化", "wait": "レプリケーション", "svc": "サービス", "work": "作業",
			"check": "書く前の確認", "value": "ロックの値"},
		ViolationText: map[sim.ViolationKind]string{
			sim.Overlap:       "排他が崩れた：{1} がまだロックを持っているつもりのまま、{0} がロックを取った。",
			sim.StaleWrite:    "古い書き込みが通った：{0} はもうロックを持っていないのに、ストレージが書き込みを受け付けた。",
			sim.ForeignDelete: "{0} が自分のものではないロック（{1} のロック）を削除した。",
			sim.DoubleCharge:  "二重課金：注文 42 が {1} と {0} で 2 回課金された。",
			sim.Orphan:        "永遠にロック：{0} がクラッシュし、キーに TTL がないので、もう誰も消せない。",
			sim.TwoHolders:    "保持者が 2 人：{1} のリースが切れていないのに {0} がロックを取得または延長した。",
			sim.DoubleWrite:   "2 台とも書き込んだ：有効なリースを持つ {1} と {0} の書き込みを、ストレージがどちらも受け付けた。",
			sim.RepeatedWrite: "二重の書き込み：応答が失われたので {0} が同じトークンで送り直した書き込みを、ストレージがもう一度受け付けた。合計には作業が 2 回数えられた。",
			sim.NotReleased:   "{0} は解放したが、ロックのキーにはまだ {0} の値が残っている。",
		},
		ErrorText: map[sim.Code]string{
			sim.CodeSyntax:         "「{0}」は操作として読めません。a.acquire や wait.10s のような形です。",
			sim.CodeUnknownVerb:    "「{0}」：そういう操作はありません。クライアントにできるのは {2}、ノードのあるレッスンでノードにできるのは {3} です。時間は wait で進めます。",
			sim.CodeNotOffered:     "「{0}」：このレッスンには {9} の操作がありません。ここでクライアントにできるのは {10} です。時間は wait で進めます。",
			codeRepeated:           "アドレスに「{0}=」が 2 回以上あります。タイムラインのリンクに入る do= は 1 つ、opt= は多くても 1 つです。",
			sim.CodeUnknownClient:  "「{0}」：このレッスンにクライアント {1} はいません。",
			sim.CodeBadDuration:    "「{0}」：{8} には 1ms から {4} までの整数の時間を wait.500ms や wait.10s のように付けます。ほかの操作には付けません。",
			sim.CodeTooMany:        "1 つのタイムラインに入る操作は {5} 個までです。",
			sim.CodeTooLong:        "タイムラインとして扱うにはアドレスが長すぎます。",
			sim.CodePaused:         "「{0}」：{1} は一時停止中です。できるのは再開（またはクラッシュ）だけです。",
			sim.CodeCrashed:        "「{0}」：{1} はクラッシュしていて、もう何もしません。",
			sim.CodeNotPaused:      "「{0}」：{1} は一時停止していません。",
			sim.CodeNotHolding:     "「{0}」：{1} はロックを取得していません。",
			sim.CodeBusy:           "「{0}」：{1} はすでにロックを持っているか、取得を試みています。",
			sim.CodeTimeLimit:      "「{0}」：タイムラインが長くなりすぎます（仮想時間 {6} 時間・イベント {7} 件まで）。",
			sim.CodeUnknownOption:  "「{0}」はこのレッスンのバリエーションではありません。",
			sim.CodeBadOption:      "「{0}」：このバリエーションにその値はありません。",
			sim.CodeUnknownScene:   "レッスンのシナリオが見つかりません。",
			sim.CodePending:        "「{0}」：{1} は 2 つのコマンドの間で止まっています。できるのは続ける・一時停止・クラッシュだけです。",
			sim.CodeNothingPending: "「{0}」：{1} は 2 つのコマンドの間で止まっていません。",
			sim.CodeUnknownNode:    "「{0}」：このレッスンにそのノードはありません。",
			sim.CodeNodeState:      "「{0}」：ノードやクライアントのいまの状態ではできません。",
			sim.CodeTooSlow:        "「{0}」：このタイムラインは再生に時間がかかりすぎます。短くしてください。",
		},
		StateName: map[sim.State]string{
			sim.StateIdle: "待機", sim.StateTrying: "取得待ち", sim.StateHolding: "保持中",
			sim.StateWorking: "作業中", sim.StatePaused: "一時停止", sim.StateCrashed: "クラッシュ",
			sim.StateChecking: "確認済み（空き）", sim.StateWaiting: "レプリカ待ち",
		},
		Purpose: map[string]string{
			"acquire": "取得", "retry": "再試行", "token": "フェンシングトークン", "write": "書き込み", "release": "解放",
			"check": "確認", "expire": "TTL を設定", "extend": "延長", "unlock": "全ノードで取り消し",
			"replicate": "レプリケーション", "wait": "レプリカ待ち", "session": "セッション",
			"watch": "監視", "notify": "監視の通知", "reconnect": "再接続", "disconnect": "接続断",
			"timeout": "タイムアウト：その間なにも届かなかった",
			"ttl":     "残り時間の確認", "ttl-1": "-1：キーはあるが期限がない", "ttl-2": "-2：そのキーは存在しない",
			"stillmine": "まだ自分のもの？", "lasttoken": "最後のトークンを読む",
		},
	},
}

// kindNote is what the timeline says of an event that is not a command.
// A design's drop loses only the reply to the client's next storage
// write, and says so.
func (u *UI) kindNote(e sim.Event) string {
	if e.Kind == sim.KindDrop && e.Text == sim.DropWrite {
		return u.DropWriteNote
	}
	return u.KindNote[e.Kind]
}
