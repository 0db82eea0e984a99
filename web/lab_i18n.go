// lab_i18n.go holds the Lab page's interface strings in both languages. They
// sit beside i18n.go rather than in it so the Lab can grow without touching
// the strings every page shares; TestLabUIComplete holds them to the same
// rule as TestUIComplete: every string present in both languages.
package web

import "locklab/sim"

// LabUI is every string of the Lab page (and the lesson page's link to it)
// in one language.
type LabUI struct {
	Title, HomeHint, Intro, WhatElse, WhatElseHint               string
	LessonLegend, LessonLabel, Load                              string
	DesignLegend, ClientsLegend, ClientsN                        string
	FaultsLegend, Pauses, PauseLengths, Crashes                  string
	NodeFaults, Drops, BoundsLegend, Depth, Explore              string
	FixedNote                                                    string
	ResultTitle, Explored, BreakME, Shortest                     string
	NoneFound, Complete, CompleteCut, Incomplete                 string
	Busy, Budget, StorageSafe, StorageHarmed, Within             string
	StorageUnknown                                               string
	KindCol, MeaningCol, SchedulesCol, ShortestCol               string
	OpenTimeline, StepsOf, CodeTitle, CodeNote, NoCode           string
	BoundsTitle, BoundsText, ModelNote                           string
	BadTitle, BadParam, BadLesson, BadRange, BadLengths, BadOnly string
	KindName, KindMeaning                                        map[sim.ViolationKind]string
}

// L returns the Lab strings for lang (English if unknown).
func L(lang string) *LabUI {
	if u, ok := labUIs[lang]; ok {
		return u
	}
	return labUIs["en"]
}

var labUIs = map[string]*LabUI{
	"en": {
		Title:    "The Lab",
		HomeHint: "Choose a lock design and a budget of faults; the explorer tries every schedule and shows the shortest way it breaks.",
		Intro: "Pick a lock design and a budget of faults. The explorer then tries every order in which the clients' commands " +
			"and the faults can happen, up to the bounds you set, each one on the same simulator as the lessons: real go-redis " +
			"clients, real Redis replies. It reports what broke and the shortest way to break it.",
		WhatElse:     "What else could go wrong?",
		WhatElseHint: "Let the explorer try every schedule of this design.",
		LessonLegend: "Start from a lesson", LessonLabel: "Lesson", Load: "Load its design",
		DesignLegend: "Design", ClientsLegend: "Clients", ClientsN: "{0} clients",
		FaultsLegend: "Fault budget", Pauses: "Pauses (a client freezes, then time passes)",
		PauseLengths: "Each pause lasts (up to {0} lengths)", Crashes: "Client crashes", NodeFaults: "Node faults (restart or down)",
		Drops: "Lost replies", BoundsLegend: "Bounds", Depth: "At most this many actions per schedule", Explore: "Explore",
		FixedNote:   "Fixed by the lesson: lock TTL {0}, work before each write {1}, retry every {2}.",
		ResultTitle: "What the explorer found",
		Explored:    "Explored {0} schedules ({1} distinct states).",
		BreakME:     "{0} break mutual exclusion.",
		Shortest:    "Shortest counterexample: {0} steps ({1}).",
		NoneFound:   "None of them breaks anything the checks look for.",
		Complete:    "Every schedule within these bounds was explored.",
		CompleteCut: "Every schedule of up to {0} actions was explored. Some go on longer and were cut there: raise the bound to see further.",
		Incomplete: "Incomplete: the explorer used up its budget of {0} distinct states before it had seen every schedule. " +
			"It did see every schedule of up to {1} actions, and some of {2}. What it found is real; what it did not find is no answer. " +
			"For a complete answer, lower the number of actions per schedule or the fault budget.",
		Busy: "The server is too busy to finish this exploration now. A search cut short by the clock gives no verdict, " +
			"so none is shown: try the same link again in a moment.",
		Budget:         "Budget of one exploration: at most {0} distinct states, schedules of up to {1} actions; if the server is too busy to finish within {2} s, it says so and shows no verdict.",
		StorageUnknown: "No harm to the storage in any schedule of up to {0} actions; longer ones were not all explored.",
		StorageSafe:    "The storage was never harmed: no write of an older lock holder landed after a newer holder's, and no order was charged twice.",
		StorageHarmed:  "The storage was harmed in {0} schedules: the shortest takes {1} steps.",
		Within:         "That holds within these bounds — it is not a proof. A longer schedule, another fault or other timings could still break it.",
		KindCol:        "Failure", MeaningCol: "What it means", SchedulesCol: "Schedules", ShortestCol: "Shortest",
		OpenTimeline: "Open as a timeline", StepsOf: "{0} steps",
		CodeTitle:   "This design in Go (go-redis)",
		CodeNote:    "The same commands the simulated clients send, as a Go program would send them. The test suite runs every variant shown here against miniredis, on the lessons' schedules, and checks that it sends what the simulated clients send.",
		NoCode:      "This lesson's lock lives in a modelled service (ZooKeeper or etcd), not in Redis, so there is no go-redis code to show. The storage's fencing check is the same as in lesson 5.",
		BoundsTitle: "What the bounds mean",
		BoundsText: "Each client runs its program once: acquire, work and write, release. Time passes only while clients work and " +
			"during the pauses you allow; a pause is: the client freezes, one wait of the pause's length, the client resumes. " +
			"Two schedules that reach the same state (the same keys, TTLs, clients and timers) are explored once, and so are " +
			"schedules that differ only by which client is which.",
		ModelNote:  "Every schedule is replayed on embedded miniredis servers through go-redis clients, on virtual time. Pauses, crashes and node faults are modelled, as in the lessons.",
		BadTitle:   "The Lab cannot run this",
		BadParam:   "“{0}” is not a value the Lab understands for {1}.",
		BadLesson:  "There is no lesson “{0}”.",
		BadRange:   "{0} must be between {1} and {2}.",
		BadOnly:    "This lesson allows only {0}={1}.",
		BadLengths: "Choose at least one length for the pauses, and at most {0}.",
		KindName: map[sim.ViolationKind]string{
			sim.Overlap: "Mutual exclusion broken", sim.StaleWrite: "Stale write accepted", sim.ForeignDelete: "Someone else's lock deleted",
			sim.DoubleCharge: "Charged twice", sim.Orphan: "Locked forever", sim.Harm: "Storage harmed",
		},
		KindMeaning: map[sim.ViolationKind]string{
			sim.Overlap:       "Two clients believed they held the lock at once.",
			sim.StaleWrite:    "The storage took a write from a client whose lock was gone.",
			sim.ForeignDelete: "A release removed a lock that belonged to another client.",
			sim.DoubleCharge:  "The order was charged more than once.",
			sim.Orphan:        "A crashed client left a key with no TTL: nothing will ever remove it.",
			sim.Harm:          "An older holder's write landed after a newer holder's, or an order was charged twice.",
		},
	},
	"ja": {
		Title:    "実験室",
		HomeHint: "ロックの設計と障害の数を選ぶと、探索器があらゆる順序を試し、壊れる最短の手順を見せます。",
		Intro: "ロックの設計と、起こしてよい障害の数を選んでください。探索器は、クライアントのコマンドと障害が起こりうる順序を、" +
			"決めた範囲ですべて試します。どの順序もレッスンと同じシミュレーターで動きます（本物の go-redis クライアントと本物の Redis の応答）。" +
			"何が壊れたか、そして壊れる最短の手順を報告します。",
		WhatElse:     "ほかに何が起こりうる？",
		WhatElseHint: "この設計のあらゆる順序を探索器に試させます。",
		LessonLegend: "レッスンから始める", LessonLabel: "レッスン", Load: "この設計を読み込む",
		DesignLegend: "設計", ClientsLegend: "クライアント", ClientsN: "{0} 台",
		FaultsLegend: "障害の予算", Pauses: "一時停止（クライアントが止まり、時間が進む）",
		PauseLengths: "一時停止の長さ（{0} つまで）", Crashes: "クライアントのクラッシュ", NodeFaults: "ノードの障害（再起動・停止）",
		Drops: "失われる応答", BoundsLegend: "範囲", Depth: "1 つの順序に含める操作の上限", Explore: "探索する",
		FixedNote:   "レッスンで固定：ロックの TTL {0}、書き込み前の作業 {1}、再試行の間隔 {2}。",
		ResultTitle: "探索の結果",
		Explored:    "{0} 通りの順序を試しました（異なる状態は {1} 個）。",
		BreakME:     "そのうち {0} 通りで排他が崩れました。",
		Shortest:    "最短の反例：{0} ステップ（{1}）。",
		NoneFound:   "検査で見つかる問題は、どの順序でも起きませんでした。",
		Complete:    "この範囲の順序はすべて試しました。",
		CompleteCut: "{0} 操作までの順序はすべて試しました。それより長く続く順序はそこで打ち切っています。上限を上げると先まで見られます。",
		Incomplete: "探索は終わっていません：すべての順序を見る前に、異なる状態 {0} 個という予算を使い切りました。" +
			"{1} 操作までの順序はすべて、{2} 操作の順序は一部だけ試しています。見つかった問題は本物ですが、見つからなかったことは答えになりません。" +
			"最後まで調べるには、1 つの順序の操作数か、障害の予算を減らしてください。",
		Busy: "サーバーが混み合っていて、この探索を終えられませんでした。時間切れで途中までしか調べていない結果は判定にならないため、表示しません。" +
			"少し待ってから同じリンクをもう一度開いてください。",
		Budget:         "1 回の探索の予算：異なる状態は最大 {0} 個、1 つの順序は最大 {1} 操作。サーバーが混んでいて {2} 秒以内に終わらないときは、判定を出さずにそう伝えます。",
		StorageUnknown: "{0} 操作までのどの順序でも、ストレージは壊れませんでした。それより長い順序はすべては調べていません。",
		StorageSafe:    "ストレージは一度も壊れませんでした：古い保持者の書き込みが新しい保持者の書き込みのあとに通ることはなく、二重課金もありませんでした。",
		StorageHarmed:  "{0} 通りの順序でストレージが壊れました：最短は {1} ステップです。",
		Within:         "これはこの範囲での話で、証明ではありません。もっと長い順序、別の障害、別のタイミングなら壊れるかもしれません。",
		KindCol:        "問題", MeaningCol: "意味", SchedulesCol: "順序の数", ShortestCol: "最短",
		OpenTimeline: "タイムラインで開く", StepsOf: "{0} ステップ",
		CodeTitle:   "この設計を Go で（go-redis）",
		CodeNote:    "シミュレーターのクライアントが送るのと同じコマンドを、Go のプログラムとして書いたものです。ここに出るすべてのバリエーションをテストで miniredis に対して実際に動かし、レッスンと同じ手順でシミュレーターと同じコマンドを送ることを確かめています。",
		NoCode:      "このレッスンのロックは Redis ではなく、モデル化したサービス（ZooKeeper または etcd）にあるため、go-redis のコードはありません。ストレージのフェンシング検査はレッスン 5 と同じです。",
		BoundsTitle: "範囲の意味",
		BoundsText: "各クライアントはプログラムを 1 回だけ実行します：取得、作業して書き込み、解放。時間が進むのは、クライアントの作業中と、" +
			"許した一時停止の間だけです。一時停止とは、クライアントが止まり、その長さだけ待ち、再開することです。" +
			"同じ状態（同じキー、TTL、クライアント、タイマー）に行き着く順序は 1 回だけ、クライアントの入れ替えだけが違う順序も 1 回だけ探索します。",
		ModelNote:  "どの順序も、組み込みの miniredis に go-redis クライアントからコマンドを送り、仮想時間で再生しています。一時停止・クラッシュ・ノード障害はレッスンと同じくモデルです。",
		BadTitle:   "この条件では実験できません",
		BadParam:   "「{0}」は {1} の値として使えません。",
		BadLesson:  "レッスン「{0}」はありません。",
		BadRange:   "{0} は {1} から {2} の間で指定してください。",
		BadOnly:    "このレッスンで指定できるのは {0}={1} だけです。",
		BadLengths: "一時停止の長さを 1 つ以上、{0} つまで選んでください。",
		KindName: map[sim.ViolationKind]string{
			sim.Overlap: "排他が崩れた", sim.StaleWrite: "古い書き込みが通った", sim.ForeignDelete: "他人のロックを削除",
			sim.DoubleCharge: "二重課金", sim.Orphan: "永遠にロック", sim.Harm: "ストレージが壊れた",
		},
		KindMeaning: map[sim.ViolationKind]string{
			sim.Overlap:       "2 つのクライアントが同時に、自分がロックを持っていると思っていた。",
			sim.StaleWrite:    "ロックを失ったクライアントの書き込みを、ストレージが受け付けた。",
			sim.ForeignDelete: "解放が、別のクライアントのロックを消した。",
			sim.DoubleCharge:  "注文が 2 回以上課金された。",
			sim.Orphan:        "クラッシュしたクライアントのキーに TTL がなく、誰も消せない。",
			sim.Harm:          "古い保持者の書き込みが新しい保持者の書き込みのあとに通った、または二重課金が起きた。",
		},
	},
}
