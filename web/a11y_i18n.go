// a11y_i18n.go holds, in both languages, the strings that only assistive
// technology reads: names that tell landmarks apart, the scroll
// containers, and the timeline picture's text alternative. They sit
// beside i18n.go (like the Lab's) so they can grow without touching the
// strings every page shares; TestA11yUIComplete holds them to the same
// rule: every string present in both languages.
package web

// A11yUI is every screen-reader-only string in one language.
type A11yUI struct {
	// landmark names: the breadcrumb trail and the previous/next lesson
	// links are both navigation, so each needs its own name
	Breadcrumb, LessonPager string
	// scroll containers: the timeline picture (it scrolls sideways on a
	// phone), the Lab's findings table and the course end's pitfalls
	// table (each inside a section of its own, so each needs a name of
	// its own)
	PictureRegion, FindingsTable, PitfallTable string
	// the timeline picture's text alternative (timeline_text.go): whole
	// sentences; a step's events joined by Sep, a list's items by ListSep
	PictureAt, ThisStep, NoChange, AndMore                    string
	HoldsOn, HoldsOnLeft, NoHolder, ClientsNow, StorageNow    string
	WentWrong, ClientState, ClientToken, WaitedFor, WorkedFor string
	ResumedBy, CommandTo, ClientNote, VerdictTokenOK          string
	VerdictTokenNo, VerdictOK, VerdictNo, Sep, ListSep        string
}

// AX returns the screen-reader strings for lang (English if unknown).
func AX(lang string) *A11yUI {
	if u, ok := a11yUIs[lang]; ok {
		return u
	}
	return a11yUIs["en"]
}

var a11yUIs = map[string]*A11yUI{
	"en": {
		Breadcrumb: "Breadcrumb", LessonPager: "Previous and next lesson",
		PictureRegion: "Timeline picture", FindingsTable: "Failures found, by kind", PitfallTable: "Table of pitfalls",
		PictureAt: "Timeline at {0}.", ThisStep: "At this step: {0}.", NoChange: "Nothing has happened yet.",
		AndMore: "and {0} more (see the event log)",
		HoldsOn: "{0} holds the lock on {1}.", HoldsOnLeft: "{0} holds the lock on {1}, {2} left.",
		NoHolder: "No one holds the lock.", ClientsNow: "Clients now: {0}.", StorageNow: "Storage: {0}, {1}.",
		WentWrong: "What went wrong: {0}", ClientState: "{0} {1}", ClientToken: "{0} {1} with token {2}",
		WaitedFor: "{0} passed", WorkedFor: "{0} worked for {1}", ResumedBy: "{0} resumed",
		CommandTo: "{0} sent {1} to {2}: {3}", ClientNote: "{0}: {1}",
		VerdictTokenOK: "the storage accepted {0}'s write with token {1}", VerdictTokenNo: "the storage rejected {0}'s write with token {1}",
		VerdictOK: "the storage accepted {0}'s write", VerdictNo: "the storage rejected {0}'s write",
		Sep: "; ", ListSep: ", ",
	},
	"ja": {
		Breadcrumb: "パンくずリスト", LessonPager: "前後のレッスン",
		PictureRegion: "タイムラインの図", FindingsTable: "見つかった失敗（種類別）", PitfallTable: "落とし穴の一覧表",
		PictureAt: "{0} 時点のタイムライン。", ThisStep: "このステップ：{0}。", NoChange: "まだ何も起きていません。",
		AndMore: "ほか {0} 件（イベントログを参照）",
		HoldsOn: "{1} のロックは {0} が保持しています。", HoldsOnLeft: "{1} のロックは {0} が保持しています（残り {2}）。",
		NoHolder: "ロックは誰も持っていません。", ClientsNow: "いまのクライアント：{0}。", StorageNow: "ストレージ：{0}、{1}。",
		WentWrong: "起きた問題：{0}", ClientState: "{0} は{1}", ClientToken: "{0} は{1}（トークン {2}）",
		WaitedFor: "時間が {0} 進んだ", WorkedFor: "{0} が {1} 作業した", ResumedBy: "{0} が再開した",
		CommandTo: "{0} が {2} に {1} を送信 → {3}", ClientNote: "{0}：{1}",
		VerdictTokenOK: "ストレージが {0} のトークン {1} の書き込みを受理した", VerdictTokenNo: "ストレージが {0} のトークン {1} の書き込みを拒否した",
		VerdictOK: "ストレージが {0} の書き込みを受理した", VerdictNo: "ストレージが {0} の書き込みを拒否した",
		Sep: "。", ListSep: "、",
	},
}
