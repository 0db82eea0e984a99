// design_i18n.go holds the design page's strings ("bring your own lock")
// in both languages; TestDesignUIComplete holds them to the rule every
// page follows: each string present in both.
package web

import "locklab/sim"

// DesignUI is every string of the design page and its counterexamples.
type DesignUI struct {
	Title, Intro, HomeHint, LinkText, LinkHint     string
	PieceLabel, PieceHelp, PieceName               map[string]string
	PresetLabel                                    map[string]string // piece.preset
	StartFrom, Current, Own, ThenHelp, NoExtend    string
	TimesLegend, TTLLabel, WorkLabel, Grade        string
	ResultTitle, KindCol, MeaningCol, ClientsCol   string
	NoneFound, StepsOpen, Safe, Broken, Within     string
	Incomplete, Bounds, CodeTitle, CodeNote        string
	BadTitle, BadScript, BadEmpty, BadTooLong      string
	BadParts, BadTTL, BadWork, BadParam, BadPreset string
	BadLink, BadClients, KeptNote, StartOver       string
	RunTitle, RunIntro, BackToGrade, ScriptsUsed   string
	ErrorReplyNote                                 string
	KindName, KindMeaning                          map[sim.ViolationKind]string
	// What the write does: the form's field, its options and help, the
	// sentence the grade's bounds add for it, and a bad value.
	EffectField, EffectHelp, BadEffect string
	EffectLabel, EffectBound           map[string]string // by sim.Effect*
}

// DU returns the design page's strings for lang (English if unknown).
func DU(lang string) *DesignUI {
	if u, ok := designUIs[lang]; ok {
		return u
	}
	return designUIs["en"]
}

var designUIs = map[string]*DesignUI{
	"en": {
		Title: "Bring your own lock",
		Intro: "Write the four pieces of a single-node Redis lock as Lua scripts — or start from a preset and change it — " +
			"and let the explorer grade the design. Every script runs with a real EVAL on miniredis; the explorer tries every " +
			"schedule of two and then three clients under the standard fault budget and reports each kind of failure it finds, " +
			"with the shortest counterexample as a timeline you can step through.",
		HomeHint: "Write your own acquire, release, extend and storage scripts; the explorer grades them.",
		LinkText: "Bring your own lock",
		LinkHint: "Write your own scripts for this lock and let the explorer grade them.",
		PieceLabel: map[string]string{
			"acquire": "Acquire", "release": "Release", "extend": "Extend (optional)", "write": "Storage write",
		},
		PieceName: map[string]string{"acquire": "acquire", "release": "release", "extend": "extend", "write": "storage write"},
		PieceHelp: map[string]string{
			"acquire": "KEYS[1] is the lock key, ARGV[1] this acquisition's random value, ARGV[2] the TTL in ms. Success (1 or OK) means the lock is yours; then the client takes a fencing token with INCR.",
			"release": "KEYS[1] is the lock key, ARGV[1] the value the client acquired with.",
			"extend":  "KEYS[1] is the lock key, ARGV[1] the value, ARGV[2] the TTL in ms. With an extend script the client runs it after every half-TTL of work and just before writing; any answer but success tells it the lock is gone, and it stops without writing. Leave it empty for no extending.",
			"write":   "Runs on the storage. KEYS[1] is the record, KEYS[2] the last accepted token, ARGV[1] the client's token, ARGV[2] the value to store (or, when the write adds to a total, 1). Success (1 or OK) means the write was accepted.",
		},
		PresetLabel: map[string]string{
			"acquire.set-nx-px": "SET NX PX", "acquire.setnx-pexpire": "SETNX, then PEXPIRE", "acquire.get-set": "GET, then SET",
			"release.compare-delete": "compare-and-delete", "release.del": "plain DEL", "release.get-del": "GET, then DEL",
			"release.delex": "DELEX IFEQ",
			"extend.none":   "no extending", "extend.compare-pexpire": "compare-and-PEXPIRE", "extend.pexpire": "plain PEXPIRE",
			"write.fenced": "fenced (token not lower)", "write.strict": "fenced (token strictly greater)",
			"write.none": "no check", "write.split": "check and update as two commands",
		},
		StartFrom: "Start from a preset:", Current: "(shown)", Own: "your own script",
		ThenHelp: "A line “-- then” splits a script into separate commands: each part is its own EVAL, and other clients may act in between. " +
			"A part that does not answer success ends the script there. Scripts may use locals, if/elseif/else, comparisons and arithmetic, " +
			"tonumber/tostring, redis.call and redis.pcall on KEYS[i] and ARGV[i]; no loops or functions; at most 2 KB each.",
		NoExtend:    "No extend script: the client never extends its lock.",
		TimesLegend: "Times", TTLLabel: "Lock TTL", WorkLabel: "Work before each write", Grade: "Grade this design",
		ResultTitle: "The grade", KindCol: "Failure", MeaningCol: "What it means", ClientsCol: "{0} clients",
		NoneFound: "none found", StepsOpen: "{0} steps: open the timeline",
		Safe:   "The explorer found none of these failures.",
		Broken: "The explorer broke this design: {0} of the {1} kinds of failure.",
		Within: "That holds within these bounds — it is not a proof. Longer schedules, more faults or other timings could still break it.",
		Incomplete: "With {0} clients the search stopped at its budget of {1} distinct states: it saw every schedule of up to {2} actions, not all longer ones. " +
			"What it found is real; what it did not find is no answer.",
		Bounds: "The bounds: each client runs its program once (acquire; work and write; release). A schedule has at most one pause of {0} (the TTL), " +
			"one crash, and one lost reply to a storage write: the storage applied the write, but its reply never reached the client, which sends " +
			"the same write again with the same token. Schedules of up to {1} actions, at most {2} distinct states per search. {3} " +
			"Every schedule is replayed on miniredis through go-redis clients, on virtual time.",
		CodeTitle:      "This design in Go (go-redis)",
		CodeNote:       "Your scripts as a Go program would send them: each part one EVAL, in the order the simulated clients send them.",
		BadTitle:       "This design cannot run",
		BadScript:      "The {0} script, {1}",
		BadEmpty:       "The {0} script is empty. Only the extend script may be left out.",
		BadTooLong:     "The {0} script is longer than 2 KB.",
		BadParts:       "The {0} script is split into more than three commands.",
		BadTTL:         "The TTL must be a duration from 1s to 60s, like 10s or 1500ms.",
		BadWork:        "The work time must be a duration from 100ms to 60s, like 1s.",
		BadParam:       "“{0}” is not something the design page understands.",
		BadPreset:      "“{0}” is not a preset for {1}. Its presets are {2}.",
		BadLink:        "This design is too long for a link. Shorten the scripts.",
		BadClients:     "Clients must be 2 or 3.",
		KeptNote:       "Your design, as you sent it: fix it and grade again.",
		StartOver:      "Or start again from the safe design",
		RunTitle:       "Counterexample",
		RunIntro:       "The explorer found this schedule. Every command below is your script, run with EVAL; every reply is what Redis answered.",
		BackToGrade:    "Back to the grade",
		ScriptsUsed:    "Scripts used",
		ErrorReplyNote: "A script that fails at run time shows as Redis's error reply on the timeline; the client treats it as a no.",
		KindName: map[sim.ViolationKind]string{
			sim.TwoHolders: "Two holders at once", sim.Harm: "Stale write accepted", sim.ForeignDelete: "Lock deleted by someone else",
			sim.Orphan: "Held forever after a crash", sim.DoubleWrite: "Both holders wrote", sim.RepeatedWrite: "Double write",
			sim.NotReleased: "Release left the lock",
		},
		KindMeaning: map[sim.ViolationKind]string{
			sim.TwoHolders:    "A client got or renewed the lock while another's lease, counted from its own acquire or extend, had not run out.",
			sim.Harm:          "The storage accepted a write of an older holder after a newer holder's write: it went back in time.",
			sim.ForeignDelete: "A client's script deleted or replaced a lock key that held another client's value.",
			sim.Orphan:        "A client crashed holding a key with no TTL: nothing will ever remove it.",
			sim.DoubleWrite:   "Two clients with valid leases both had their writes accepted: the protected work was done twice.",
			sim.RepeatedWrite: "The storage accepted one acquisition's write twice: the client resent it with the same token after its reply was lost, and the write adds to a total, so the job counts twice.",
			sim.NotReleased:   "After the release script ran, the key still held the releasing client's value.",
		},
		EffectField: "What the write does",
		EffectHelp: "Sets the record: ARGV[2] is the value to store, and storing it twice leaves the same record. " +
			"Adds to a total: ARGV[2] is 1, added to the record, and a write applied twice counts the job twice. The write presets follow this choice.",
		BadEffect: "“{0}” is not something the write can do: it sets the record (effect=set) or adds to a total (effect=add).",
		EffectLabel: map[string]string{
			sim.EffectSet: "Sets the record (idempotent)", sim.EffectAdd: "Adds 1 to a total (not idempotent)",
		},
		EffectBound: map[string]string{
			sim.EffectSet: "The write sets the record, so a resent write the storage accepts again only stores what is already there: that is not counted as a double write.",
			sim.EffectAdd: "The write adds to a total, so a resent write the storage accepts again counts twice: a double write.",
		},
	},
	"ja": {
		Title: "自分のロックを試す",
		Intro: "単一ノードの Redis ロックを作る 4 つの部品を Lua スクリプトで書いてください。ひな形から始めて書き換えてもかまいません。" +
			"書いた設計は探索器が採点します。どのスクリプトも miniredis 上で本物の EVAL として動きます。探索器は、クライアント 2 台と 3 台について、" +
			"標準の障害の予算のもとで起こりうる順序をすべて試し、見つけた問題を種類ごとに報告します。最短の反例はタイムラインとして 1 ステップずつたどれます。",
		HomeHint: "取得・解放・延長・ストレージ書き込みのスクリプトを自分で書き、探索器に採点させます。",
		LinkText: "自分のロックを試す",
		LinkHint: "このロックのスクリプトを自分で書き、探索器に採点させます。",
		PieceLabel: map[string]string{
			"acquire": "取得", "release": "解放", "extend": "延長（省略可）", "write": "ストレージへの書き込み",
		},
		PieceName: map[string]string{"acquire": "取得", "release": "解放", "extend": "延長", "write": "ストレージ書き込み"},
		PieceHelp: map[string]string{
			"acquire": "KEYS[1] はロックのキー、ARGV[1] は今回の取得に使うランダムな値、ARGV[2] はミリ秒単位の TTL です。成功（1 か OK）ならロックを得たことになり、クライアントは続けて INCR でフェンシングトークンを受け取ります。",
			"release": "KEYS[1] はロックのキー、ARGV[1] は取得したときの値です。",
			"extend":  "KEYS[1] はロックのキー、ARGV[1] は値、ARGV[2] はミリ秒単位の TTL です。延長スクリプトがあると、クライアントは TTL の半分だけ作業するたびと、書き込む直前にこれを実行します。成功以外の応答なら、ロックを失ったと判断し、書き込まずにやめます。延長しないなら空のままにします。",
			"write":   "ストレージ側で動きます。KEYS[1] はレコード、KEYS[2] は最後に受け付けたトークン、ARGV[1] はクライアントのトークン、ARGV[2] は書き込む値（合計に足す書き込みなら 1）です。成功（1 か OK）なら書き込みが受け付けられたことになります。",
		},
		PresetLabel: map[string]string{
			"acquire.set-nx-px": "SET NX PX", "acquire.setnx-pexpire": "SETNX のあと PEXPIRE", "acquire.get-set": "GET のあと SET",
			"release.compare-delete": "比較して削除", "release.del": "ただの DEL", "release.get-del": "GET のあと DEL",
			"release.delex": "DELEX IFEQ",
			"extend.none":   "延長しない", "extend.compare-pexpire": "比較して PEXPIRE", "extend.pexpire": "ただの PEXPIRE",
			"write.fenced": "フェンシング（トークンが小さくなければ可）", "write.strict": "フェンシング（トークンが大きいときだけ可）",
			"write.none": "検査なし", "write.split": "検査と更新を別々のコマンドで",
		},
		StartFrom: "ひな形から始める：", Current: "（表示中）", Own: "自作のスクリプト",
		ThenHelp: "「-- then」だけの行でスクリプトを別々のコマンドに分けられます。分けた部分はそれぞれ別の EVAL になり、その間にほかのクライアントが動くことがあります。" +
			"成功を返さなかった部分でスクリプトはそこで終わります。使えるのは local 変数、if/elseif/else、比較と算術、tonumber/tostring、" +
			"KEYS[i] と ARGV[i] を対象にした redis.call と redis.pcall です。ループや関数は使えず、1 つのスクリプトは 2 KB までです。",
		NoExtend:    "延長スクリプトなし：クライアントはロックを延長しません。",
		TimesLegend: "時間", TTLLabel: "ロックの TTL", WorkLabel: "書き込み前の作業時間", Grade: "この設計を採点する",
		ResultTitle: "採点結果", KindCol: "問題", MeaningCol: "意味", ClientsCol: "{0} 台",
		NoneFound: "見つからず", StepsOpen: "{0} ステップ：タイムラインで開く",
		Safe:   "探索器はこれらの問題をどれも見つけませんでした。",
		Broken: "探索器はこの設計を破りました：{1} 種類のうち {0} 種類の問題が見つかりました。",
		Within: "これはこの範囲での話で、証明ではありません。もっと長い順序、もっと多い障害、別のタイミングなら壊れるかもしれません。",
		Incomplete: "クライアント {0} 台の探索は、異なる状態 {1} 個という予算で止まりました。{2} 操作までの順序はすべて見ましたが、それより長い順序はすべては見ていません。" +
			"見つかった問題は本物ですが、見つからなかったことは答えになりません。",
		Bounds: "範囲：各クライアントはプログラム（取得、作業して書き込み、解放）を 1 回だけ実行します。1 つの順序に含まれるのは、{0}（TTL と同じ長さ）の一時停止 1 回、" +
			"クラッシュ 1 回、ストレージ書き込みの応答の消失 1 回までです。応答の消失とは、ストレージは書き込みを反映したのに応答がクライアントに届かず、" +
			"クライアントが同じトークンで同じ書き込みをもう一度送ることです。順序は最大 {1} 操作、1 回の探索で異なる状態は最大 {2} 個です。{3}" +
			"どの順序も、miniredis に go-redis クライアントからコマンドを送り、仮想時間で再生しています。",
		CodeTitle:      "この設計を Go で（go-redis）",
		CodeNote:       "あなたのスクリプトを、Go のプログラムが送るとおりに書いたものです。分けた部分はそれぞれ 1 回の EVAL で、シミュレーターのクライアントと同じ順に送ります。",
		BadTitle:       "この設計は実行できません",
		BadScript:      "{0}スクリプトの {1}",
		BadEmpty:       "{0}スクリプトが空です。省略できるのは延長スクリプトだけです。",
		BadTooLong:     "{0}スクリプトが 2 KB を超えています。",
		BadParts:       "{0}スクリプトが 3 つより多いコマンドに分かれています（最大 3 つまでです）。",
		BadTTL:         "TTL は 1s から 60s までの長さで指定してください（例：10s、1500ms）。",
		BadWork:        "作業時間は 100ms から 60s までの長さで指定してください（例：1s）。",
		BadParam:       "「{0}」は、この設計ページでは使えません。",
		BadPreset:      "「{0}」は {1} のひな形ではありません。ひな形は {2} です。",
		BadLink:        "この設計はリンクにするには長すぎます。スクリプトを短くしてください。",
		BadClients:     "クライアントの数は 2 か 3 です。",
		KeptNote:       "送った設計はそのまま残しています。直してからもう一度採点してください。",
		StartOver:      "安全な設計からやり直す",
		RunTitle:       "反例",
		RunIntro:       "探索器が見つけた順序です。下のコマンドはすべてあなたのスクリプトを EVAL で実行したもので、応答はすべて Redis が返したものです。",
		BackToGrade:    "採点結果に戻る",
		ScriptsUsed:    "使ったスクリプト",
		ErrorReplyNote: "実行時にエラーになったスクリプトは、Redis が返したエラー応答としてタイムラインに出ます。クライアントはそれを失敗として扱います。",
		KindName: map[sim.ViolationKind]string{
			sim.TwoHolders: "ロックの保持者が同時に 2 人", sim.Harm: "古い書き込みが通った", sim.ForeignDelete: "他人にロックを消された",
			sim.Orphan: "クラッシュ後もロックが永遠に残る", sim.DoubleWrite: "2 台とも書き込んだ", sim.RepeatedWrite: "二重の書き込み",
			sim.NotReleased: "解放してもロックが残った",
		},
		KindMeaning: map[sim.ViolationKind]string{
			sim.TwoHolders:    "別のクライアントのリース（そのクライアント自身が取得または延長した時刻から数えたもの）が切れていないのに、ロックを取得または延長できた。",
			sim.Harm:          "新しい保持者の書き込みのあとに、古い保持者の書き込みをストレージが受け付けた。時間が巻き戻った。",
			sim.ForeignDelete: "あるクライアントのスクリプトが、別のクライアントの値を持つロックのキーを消したか、書き換えた。",
			sim.Orphan:        "TTL のないキーを持ったままクライアントがクラッシュし、もう誰も消せない。",
			sim.DoubleWrite:   "有効なリースを持つ 2 台のクライアントの書き込みが、どちらも受け付けられた。守りたい処理が 2 回行われた。",
			sim.RepeatedWrite: "1 回の取得での書き込みを、ストレージが 2 回受け付けた。応答が失われたのでクライアントが同じトークンで送り直し、書き込みは合計に足すものなので、作業が 2 回数えられた。",
			sim.NotReleased:   "解放スクリプトを実行したあとも、キーには解放したクライアントの値が残っていた。",
		},
		EffectField: "書き込みが何をするか",
		EffectHelp: "レコードを上書きする：ARGV[2] は保存する値で、2 回書いてもレコードは同じです。" +
			"合計に足す：ARGV[2] は 1 で、レコードに足されます。2 回反映されると作業が 2 回数えられます。書き込みのひな形はこの選択に合わせて変わります。",
		BadEffect: "「{0}」は書き込みの種類として使えません。レコードを上書きする（effect=set）か、合計に足す（effect=add）のどちらかです。",
		EffectLabel: map[string]string{
			sim.EffectSet: "レコードを上書きする（冪等）", sim.EffectAdd: "合計に 1 を足す（冪等ではない）",
		},
		EffectBound: map[string]string{
			sim.EffectSet: "書き込みはレコードを上書きするので、送り直した書き込みをストレージがもう一度受け付けても、同じ内容が書かれるだけです。二重の書き込みには数えません。",
			sim.EffectAdd: "書き込みは合計に足すので、送り直した書き込みをストレージがもう一度受け付けると、2 回数えられます。これは二重の書き込みです。",
		},
	},
}
