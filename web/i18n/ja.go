// ja.go is the Japanese catalog: every interface string of the site in Japanese.
// Lesson text lives in lessons/ja/, not here.

package i18n

import (
	"locklab/sim"
	"locklab/sim/lockdesign"
	"locklab/sim/luacheck"
)

// japanese is the Japanese.
var japanese = &UI{
	SiteName: "Lock Lab", Tagline: "分散ロックを、Redis のコマンドが動くタイムラインで学ぶ",
	LanguageMenu: "言語",
	Lessons:      "レッスン", LessonListIntro: "ひよこが質問し、ペンギン先生が答えます。答えのあとは、タイムラインで自分の手で試します。クライアントは本物の Redis コマンドを miniredis（Go で書かれた Redis 互換サーバー）に送り、その応答をそのまま表示します。",
	ReadIn: "日本語で読む",
	Chick:  "ひよこ", Penguin: "ペンギン先生", Step: "ステップ", Of: "/",
	NextStep: "次へ", Undo: "元に戻す", Reset: "最初から",
	BackToPath: "ガイドの道筋に戻る", OffPath: "自由に操作しています。ガイドはステップ {0} までです。",
	OffPathNone: "ガイドの道筋から外れて、自由に操作しています。",
	Finished:    "このレッスンは最後まで進みました。", NextLesson: "次のレッスン", PrevLesson: "前のレッスン",
	StepsHeading: "ガイドのステップ", Controls: "いまクライアントができること", TimeControls: "時間を進める",
	Options: "バリエーション", Apply: "適用", Timeline: "タイムライン",
	EventLog: "イベントログ", Time: "時刻", Who: "誰", Command: "コマンド", Reply: "応答", Note: "メモ",
	You:          "あなた",
	TooManyTitle: "このアドレスからのリクエストが多すぎます",
	TooMany:      "このサーバーは探索器とクラスを使う人みんなで分け合っています。あなたのアドレスは、いまはその持ち分を使い切りました。{0} 秒後にもう一度試してください。入力した内容は失われていません。",
	CLI: &CLIUI{
		Title: "あなたのコマンドライン",
		Hint:  "本物の Redis コマンドを、あなた自身として、タイムラインのこの瞬間に、{0}へ送れます。たとえば {1}。ほかの操作と同じくアドレスに入り、「元に戻す」で取り消せて、その効果はチェッカーにも見えます。",
		ToOne: "クライアントと同じサーバー", ToMany: "クライアントが使うサーバーのどれか（「送り先」で選びます）",
		ToStorage: "ストレージ（ここで動いている Redis はこれだけです）",
		Label:     "コマンド", SendTo: "送り先", Send: "送る",
		ModelNote:   "このレッスンのロックサービスはモデルです。動かしているサーバーがないので、そこへはコマンドを打てません。ストレージは本物の Redis なので、コマンドを受け付けます。",
		HistoryHint: "上下の矢印キーで、このタイムラインで打ったコマンドを呼び出せます。",
	},
	Now: "現在", Lock: "Redis", Storage: "ストレージ", TTLLeft: "残り {0}", Since: "{0} から", Expired: "期限切れ",
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
	Share:     "この瞬間を共有", ShareHint: "QR コードをスマートフォンで読み取ると、タイムラインのこの状態がそのまま開きます。リンクをコピーしても共有できます。",
	ShareDesign: "この設計を共有", ShareDesignHint: "QR コードをスマートフォンで読み取ると、この設計とその採点結果が開きます。リンクをコピーしても共有できます。",
	ResumeOffer:   "前回はステップ {0}「{1}」まで進んでいました。そこから続ける →",
	ShareLoopback: "このリンクと QR コードは {0}（このコンピューター自身のアドレス）を指しているので、ここでしか開けません。共有するには、ほかの人から届くアドレスを -public-url に指定して Lock Lab を起動してください。",
	Menu:          "メニュー",
	Play:          "▶ 再生", Pause: "❚❚ 一時停止", Speed: "速さ", Theme: "テーマ", ThemeAuto: "システム", ThemeDark: "ダーク", ThemeLight: "ライト", Presenter: "プレゼンターモード", NextLine: "次の台詞（あと {0}）", Help: "キーボードショートカット", Close: "閉じる",
	Shortcuts: [][2]string{{"n", "次のステップ（プレゼンターモードでは、まず次の台詞）"}, {"→ PageDown Space", "プレゼンターモードで n と同じ（プレゼン用リモコンが送るキー）"},
		{"← PageUp", "プレゼンターモードで 1 台詞戻る。台詞がなければ 1 ステップ戻る"}, {"u", "最後の操作を元に戻す"},
		{"p", "時間を再生 / 一時停止"}, {"f", "プレゼンターモードの切り替え"}, {"t", "ライト / ダーク / 自動のテーマ"},
		{"l", "言語の切り替え"}, {"1–3", "表示中のチェックポイントにその番号の選択肢で答える"}, {"?", "このヘルプ"}},
	ExpiredAt:  "{0} のロックが期限切れ",
	TTLLegend:  "ロックの残り TTL",
	TokenKeyIs: "保存済みトークン：{0}", NoTokenYet: "トークン未保存",
	NodeControls: "ノードにできること", Model: "モデル", Refused: "拒否：ノードに届かない",
	NoTTL: "TTL なし（PTTL −1）", Overwritten: "{0} が上書き", LostData: "ノードのデータと共に消失",
	ValidEnded: "有効時間は {0} に終了",
	ValidUntil: "{0} まで有効", Charges: "課金：{0}", LostReply: "応答消失：{0} には届いていない",
	Down: "切断中", ClockAhead: "時計 +{0}", SlowBy: "遅延 {0}", PrimaryRole: "プライマリ", ReplicaRole: "レプリカ",
	NoCheck:     "トークン検査なし",
	AlreadyPaid: "支払い済み：課金しない", ChargedTwiceBy: "二重課金：{0} が注文 42 に 2 回課金した。",
	Review:          "おさらい",
	CounterTitle:    "実験室が見つけた反例",
	CounterIntro:    "実験室の探索器が、バリエーションに表示している設計について見つけた手順です。レッスンのステップではありません。同じシミュレーターで本物の Redis の応答とともに再生しているので、じっくり眺めたり、ここから自分で操作を続けたりできます。",
	CounterSchedule: "手順（操作ごと）", CounterBroke: "何が、いつ壊れたか",
	CounterAllowedTitle: "実験室が見つけた順序", CounterHappened: "何が、いつ起きたか",
	CounterNone: "この再生では何も壊れていません。", CounterWhen: "{0}、操作 {1} の途中：{2}",
	CounterBack: "実験室の結果に戻る", CounterGuided: "このレッスンをガイドに沿って始める",
	NodeName: map[string]string{"primary": "プライマリ", "replica": "レプリカ", "zookeeper": "ZooKeeper", "etcd": "etcd", "link": "複製リンク",
		"promoted": "昇格したレプリカ"},
	OptionValue: map[string]string{
		"release.lua": "比較付き削除（Lua）で解放", "release.del": "ただの DEL で解放",
		"release.getdel": "GET してから DEL（2 コマンド）", "release.delex": "DELEX … IFEQ 値（Redis 8.4 以降）",
		"fence.on": "ストレージがトークンを検査する", "fence.off": "ストレージがトークンを無視する",
		"fence.strict":  "ストレージはより大きいトークンだけを受け付ける（再試行も拒否）",
		"fence.twostep": "ストレージが 2 つのコマンドでトークンを検査する（GET してから MSET）",
		"check.none":    "クライアントは確かめずに書く", "check.get": "クライアントが書く前に、まだ自分のものか GET で確かめる",
		"value.unique": "取得のたびに新しいランダムな値", "value.host": "ホスト名を値にする",
		"work.short": "作業は 1 秒", "work.long": "作業は 15 秒（TTL より長い）",
		"acquire.set": "SET … NX PX（1 コマンド）", "acquire.getset": "GET してから SET（2 コマンド）",
		"acquire.setnx": "SETNX してから PEXPIRE（2 コマンド）",
		"ttl.on":        "TTL あり（PX 10000）", "ttl.off": "TTL なし",
		"lock.redis": "両サーバーで共有する Redis のキー", "lock.local": "各サーバー内のミューテックス（モデル）",
		"idem.key": "冪等キー（一度だけ課金）", "idem.none": "冪等キーなし",
		"persist.fsync": "再起動でもキーが残る（appendfsync always）", "persist.none": "再起動でキーが消える（永続化なし）",
		"wait.on": "取得後に WAIT でレプリカを待つ", "wait.off": "プライマリの OK をすぐ信じる",
		"svc.zk": "ZooKeeper（モデル）", "svc.etcd": "etcd（モデル）",
	},
	KindNote: map[sim.Kind]string{
		sim.KindLocal: "プロセス内のミューテックスを取った（ほかのサーバーからは見えない）", sim.KindLocalUnlock: "プロセス内のミューテックスを外した",
		sim.KindDrop: "次のコマンドの応答をネットワークが失う", sim.KindGiveUp: "あきらめた（取得は 1 回だけ試す）",
	},
	DropWriteNote: "次のストレージ書き込みの応答をネットワークが失う",
	Predict:       "先に予想しよう", Reveal: "答え合わせ", SkipPredict: "答えずに次へ", AnswerBelow: "問題に答える",
	YouPredicted: "あなたの予想は「{0}」でした。", Right: "正解", Wrong: "残念、不正解",
	TheAnswer: "正解は「{0}」です。", CheckpointAnswer: "チェックポイントの答え",
	LessonJSON: "レッスンを JSON で見る", DownloadSVG: "タイムラインを SVG でダウンロード（スライド用）", DownloadJSON: "JSON でダウンロード", ShareQR: "このページのアドレスの QR コード", QRTooLong: "このタイムラインのアドレスは QR コードには長すぎます。リンクを共有してください。", DoneLabel: "修了", ContinueLabel: "続きから", ResumeLabel: "続きから：レッスン {0}、ステップ {1}「{2}」",
	OptionLabel: map[string]string{"release": "解放の方法", "fence": "フェンシングの検査", "acquire": "取得の方法", "ttl": "TTL",
		"lock": "ロック", "idem": "課金", "persist": "永続化", "wait": "レプリケーション", "svc": "サービス", "work": "作業",
		"check": "書く前の確認", "value": "ロックの値"},
	ViolationText: map[sim.ViolationKind]string{
		sim.StaleWrite:                    "古い書き込みが通った：{1} のほうがあとでロックを取ったのに、{0} の書き込みが {1} の書き込みのあとに通った。新しい結果が失われた。",
		sim.DoubleCharge:                  "二重課金：注文 42 に {1} が課金し、{0} がもう一度課金した。",
		sim.DoubleWrite:                   "2 人とも書き込んだ：どちらのリースも有効なあいだに、ストレージが {1} の書き込みを受け付け、続いて {0} の書き込みも受け付けた。処理が 2 回行われた。",
		sim.RepeatedWrite:                 "書き込みが 2 回反映された：応答が失われたので {0} が同じトークンで送り直した書き込みを、ストレージがもう一度受け付けた。合計には作業が 2 回数えられた。",
		sim.TwoHolders:                    "保持者が同時に 2 人：{1} のロックの期限がまだ切れていないのに、{0} がロックを取った。",
		"two-holders/no-ttl":              "保持者が同時に 2 人：{1} が持っているのに、{0} がロックを取った。{1} のキーには TTL がないので、保持が切れることはない。",
		"two-holders/mutex":               "保持者が同時に 2 人：{1} が自分のミューテックスを持ったまま、{0} も自分のミューテックスを取った。どちらのサーバーのミューテックスも、もう一方からは見えない。",
		"two-holders/validity":            "保持者が同時に 2 人：{1} の Redlock の有効時間が残っているのに、{0} がロックを取った。",
		"two-holders/session":             "保持者が同時に 2 人：{1} の ZooKeeper のセッションが生きているのに、{0} がロックを取った。",
		"two-holders/lease":               "保持者が同時に 2 人：{1} の etcd のリースが生きているのに、{0} がロックを取った。",
		"two-holders/renewed":             "保持者が同時に 2 人：{1} のロックの期限がまだ切れていないのに、{0} がロックを延長した。",
		sim.ForeignDelete:                 "他人のロックを削除：{1} が持っているロックを、{0} が削除した。",
		"foreign-delete/deleted":          "他人のロックを削除：{1} が持っているロックを、{0} が削除した。",
		"foreign-delete/replaced":         "他人のロックを削除：{1} がロックを持っているのに、{0} がキーを別の値に書き換えた。",
		"foreign-delete/hand/deleted":     "他人のロックを削除：{1} がまだ持っているロックを、あなたが手で削除した。",
		"foreign-delete/hand/replaced":    "他人のロックを削除：{1} がまだ持っているのに、あなたが手でロックのキーを別の値に書き換えた。",
		"foreign-delete/hand/shortened":   "他人のロックを削除：あなたが手で設定した TTL が、{1} が見込んでいたロックの期限より先に切れたため、{1} がまだロックを持っているつもりのうちにキーが期限切れになった。",
		"foreign-delete/of-hand/deleted":  "他人のロックを削除：{0} が、自分で設定していない値（あなたが手で設定した値）をロックのキーから削除した。",
		"foreign-delete/of-hand/replaced": "他人のロックを削除：あなたが手でロックのキーに設定した値を、{0} が別の値に書き換えた。",
		sim.NotReleased:                   "{0} は解放したが、ロックのキーにはまだ {0} の値が残っている。",
		sim.Orphan:                        "永遠に残るロック：{0} がクラッシュし、キーに TTL がない。誰かが手でキーを消さない限り、このロックは終わらない。",
		"orphan/ended":                    "置き去りのロック（TTL なし）：{0} がクラッシュし、キーに TTL がなかった。{2} に {1} がキーを消すまで、ロックは残り続けた。",
		"orphan/ended/ttl":                "置き去りのロック（TTL なし）：{0} がクラッシュし、キーに TTL がなかった。{2} に {1} がキーに TTL を付けるまで、ロックは残り続けた。",
		sim.Overlap:                       "排他が崩れた：{1} のリースが切れたあと、{1} がまだ自分を保持者だと思っているうちに、{0} がロックを取った。",
		"overlap/validity":                "排他が崩れた：{1} の Redlock の有効時間が切れたあと、{1} がまだ自分を保持者だと思っているうちに、{0} がロックを取った。",
		"overlap/session":                 "排他が崩れた：{1} の ZooKeeper のセッションが切れたあと、{1} がまだ自分を保持者だと思っているうちに、{0} がロックを取った。",
		"overlap/lease":                   "排他が崩れた：{1} の etcd のリースが切れたあと、{1} がまだ自分を保持者だと思っているうちに、{0} がロックを取った。",
		"overlap+paused":                  "{1} は一時停止していたので、気づけなかった。",
		"overlap+cut-off":                 "{1} はサービスとの接続が切れていたので、つなぎ直すまで知りようがない。",
		"overlap+unaware":                 "{1} は動いていて、自分で数えた時間では保持はもう終わっていた。気づいて止まることができたはずだ。",
		sim.LateWrite:                     "遅れた書き込みが通った：{0} のリースは切れていたのに、ストレージが書き込みを受け付けた。",
		"late-write/validity":             "遅れた書き込みが通った：{0} の Redlock の有効時間は切れていたのに、ストレージが書き込みを受け付けた。",
		"late-write/session":              "遅れた書き込みが通った：{0} の ZooKeeper のセッションは切れていたのに、ストレージが書き込みを受け付けた。",
		"late-write/lease":                "遅れた書き込みが通った：{0} の etcd のリースは切れていたのに、ストレージが書き込みを受け付けた。",
		"late-write+none":                 "期限が切れてから誰もロックを取っていないので、上書きされた新しい結果はない。",
		"late-write+newer":                "期限が切れたあとで {1} がロックを取っていたが、まだ書いていなかったので、上書きされた新しい結果はない。",
		"late-write+newer-wrote":          "期限が切れたあとで {1} がロックを取り、もう書き込んでいた。書き込みは合計に足すものなので、両方が数えられ、失われたものはない。",
	},
	Failures: map[sim.ViolationKind]Failure{
		sim.StaleWrite:    {"古い書き込みが通った", "新しい保持者の書き込みのあとに、古い保持者の書き込みをストレージが受け付けた。時間が巻き戻り、新しい結果が失われた。"},
		sim.DoubleCharge:  {"二重課金", "注文が 2 回以上課金された。"},
		sim.DoubleWrite:   {"2 人とも書き込んだ", "リースがどちらも有効な 2 台のクライアントの書き込みが、ロックを渡した順にどちらも受け付けられた。レコードには新しいほうが残るが、1 回だけのはずの処理が 2 回行われた。"},
		sim.RepeatedWrite: {"書き込みが 2 回反映された", "1 回の取得での書き込みを、ストレージが 2 回受け付けた。応答が失われたのでクライアントが同じトークンで送り直し、書き込みは合計に足すものなので、作業が 2 回数えられた。"},
		sim.TwoHolders:    {"保持者が同時に 2 人", "別のクライアントの保持（リース、TTL のないキー、自分のミューテックス、セッション）が終わっていないのに、ロックを取得または延長できた。ロックそのものが失敗した。"},
		sim.ForeignDelete: {"他人のロックを削除", "解放・延長、または手で打ったコマンドが、別のクライアントがまだ持っているロックを消したか書き換えた。"},
		sim.NotReleased:   {"解放してもロックが残った", "解放を実行したあとも、キーには解放したクライアントの値が残っていた。"},
		sim.Orphan:        {"永遠に残るロック", "TTL のないキーを持ったままクライアントがクラッシュした。誰かが手で消さない限り、キーは残り続ける。"},
		sim.Overlap:       {"排他が崩れた", "別のクライアントのリースが切れたあと、そのクライアントがまだ自分を保持者だと思っているうちに、ロックが取られた（そのクライアントは一時停止していたか、サービスから切り離されていたか、自分で数えた期限を過ぎても動き続けていた）。TTL のあるロックならどれでも起こりうることで、それを害にしないのがストレージ側の検査の役目。"},
		sim.LateWrite:     {"遅れた書き込みが通った", "リースの切れたクライアントの書き込みを、ストレージが受け付けた。ただし新しい結果は失われていない（新しい保持者がまだいないか、いてもまだ書いていないか、書き込みが合計に足すもので両方が数えられた）。フェンシングの検査がこの書き込みを拒めるのは、新しいトークンがストレージに届いてからだ。"},
	},
	Verdict: &VerdictUI{
		ClassCol: "深刻さ", ClassNote: "（{0}）",
		Class:  map[sim.Class]string{sim.ClassHarm: "データが壊れた", sim.ClassBroken: "ロックが失敗した", sim.ClassAllowed: "リースなら起こりうる"},
		Harm:   "害が見つかりました：{0}。守りたいデータがおかしくなりました。各行から、それが起きる最短の順序を開けます。",
		Broken: "データへの害は見つかりませんでしたが、ロックそのものが失敗しました：{0}。",
		Allowed: "データへの害も、ロックの失敗もありませんでした。表にあるのは、TTL のあるロックならどれでも起こりうること（リースより長生きした保持者）で、" +
			"ここではそれが害になりませんでした。",
		None:    "何も起きませんでした。害もロックの失敗もなく、リースより長生きした保持者もいません。",
		Unknown: "{0} 操作までのどの順序でも、害もロックの失敗もありませんでした。それより長い順序はすべては調べていません。",
		Within:  "これはこの範囲での話で、証明ではありません。もっと長い順序、別の障害、別のタイミングなら壊れるかもしれません。",
	},
	ErrorText: map[sim.Code]string{
		sim.CodeSyntax:         "「{0}」は操作として読めません。a.acquire や wait.10s のような形です。",
		sim.CodeUnknownVerb:    "「{0}」：そういう操作はありません。クライアントにできるのは {2}、ノードのあるレッスンでノードにできるのは {3} です。時間は wait で進めます。",
		sim.CodeNotOffered:     "「{0}」：このレッスンには {9} の操作がありません。ここでクライアントにできるのは {10} です。時間は wait で進めます。",
		sim.CodeCmdSyntax:      "「{0}」は redis-cli が読めるコマンドではありません。引用符を確かめてください。引用符で囲んだ引数は、閉じる引用符のあとに空白か行末が必要です。",
		sim.CodeCmdTooLong:     "「{0}」はコマンドラインには長すぎます。引数は 16 個まで、全体で 512 バイトまでです。",
		sim.CodeCmdBlocking:    "{1} はいつまでも待ち続けることがあるので、コマンドラインからは送りません。ここではどのコマンドもすぐに答えます。",
		sim.CodeCmdMode:        "{1} を送ると、接続がトランザクションや購読、別のデータベースといった特別な状態のまま残るので、コマンドラインからは送りません。",
		sim.CodeCmdAdmin:       "{1} はサーバーそのものを管理するコマンドなので、コマンドラインからは送りません。",
		sim.CodeCmdNotOffered:  "コマンドラインは {1} を送りません。送れるのは、キーの読み書きと削除（GET、SET、DEL、MGET など）、TTL（PTTL、TTL、PEXPIRE、PERSIST）、カウンター、リスト、そして簡単なスクリプトの EVAL です。",
		sim.CodeCmdScript:      "「{0}」：ここで打てるスクリプトは、設計ページが受け付けるものだけです。ループや関数は使えず、キーは KEYS[i] だけ、全体で 2 KB まで、引数は 256 バイトまでです。",
		sim.CodeCmdNode:        "「{0}」：このレッスンには、送り先の Redis サーバー {1} がありません。",
		CodeRepeated:           "アドレスに「{0}=」が 2 回以上あります。タイムラインのリンクに入る do= は 1 つ、opt= は多くても 1 つです。",
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
		"check": "確認", "expire": "TTL を設定", "extend": "延長", "unlock": "全ノードで解放",
		"replicate": "変更の複製", "wait": "レプリカ待ち", "session": "セッション",
		"watch": "ウォッチ", "notify": "ウォッチの通知", "reconnect": "再接続", "disconnect": "接続断",
		"timeout": "タイムアウト：その間なにも届かなかった",
		"ttl":     "残り時間の確認", "ttl-1": "-1：キーはあるが期限がない", "ttl-2": "-2：そのキーは存在しない",
		"stillmine": "まだ自分のもの？", "lasttoken": "最後のトークンを読む",
	},
	Verb: map[string]string{
		sim.VerbAcquire:                       "取得",
		sim.VerbNext:                          "続ける：{0}",
		sim.VerbWrite:                         "作業して書き込み",
		sim.VerbExtend:                        "延長",
		sim.VerbTTL:                           "PTTL で確認",
		sim.VerbRelease:                       "解放",
		sim.VerbPause:                         "一時停止",
		sim.VerbResume:                        "再開",
		sim.VerbDisconnect:                    "接続断",
		sim.VerbReconnect:                     "再接続",
		sim.VerbDrop:                          "次の応答を失う",
		sim.VerbCrash:                         "クラッシュ",
		sim.NodeDown:                          "切断",
		sim.NodeDown + "/" + sim.NodeLostData: "クラッシュ",
		sim.NodeUp:                            "再接続",
		sim.NodeUp + "/" + sim.NodeLostData:   "復帰",
		sim.NodeRestart:                       "再起動",
		sim.NodeJump:                          "時計を +{0}",
		sim.NodeSlow:                          "遅延 {0}",
		sim.NodePromote:                       "昇格",
		sim.VerbWait:                          "{0} 待つ",
	},
	NodeNote: map[string]string{
		sim.NodeDown:                          "{0} に届かなくなった（キーは持ったまま）",
		sim.NodeUp:                            "{0} にまた届くようになった（データは元のまま）",
		sim.NodeDown + "/" + sim.NodeLostData: "{0} がクラッシュした（メモリにあったものは消えた）",
		sim.NodeUp + "/" + sim.NodeLostData:   "{0} が空のまま復帰した（何も永続化していない）",
		sim.NodeRestart:                       "{0} が再起動",
		sim.NodeJump:                          "{0} の時計が {1} 進んだ",
		sim.NodeSlow:                          "{0} へのコマンドは {1} かかる",
		sim.NodePromote:                       "{0} がプライマリになった",
	},
	Lab: &LabUI{
		Title:    "実験室",
		HomeHint: "ロックの設計と障害の数を選ぶと、探索器が決めた範囲のあらゆる順序を試し、壊れる最短の手順を見せます。",
		Intro: "ロックの設計と、起こしてよい障害の数を選んでください。探索器は、クライアントのコマンドと障害が起こりうる順序を、" +
			"決めた範囲ですべて試します。どの順序もレッスンと同じシミュレーターで動きます（go-redis のクライアントが本物のコマンドを miniredis に送り、その応答を使います）。" +
			"何が壊れたか、そして壊れる最短の手順を報告します。",
		WhatElse:     "ほかに何が起こりうる？",
		WhatElseHint: "決めた範囲で、この設計のあらゆる順序を探索器に試させます。",
		LessonLegend: "レッスンから始める", LessonLabel: "レッスン", Load: "この設計を読み込む",
		DesignLegend: "設計", ClientsLegend: "クライアント", ClientsN: "{0} 台",
		FaultsLegend: "障害の予算", Pauses: "一時停止（クライアントが止まり、時間が進む）",
		PauseLengths: "一時停止の長さ（{0} つまで）", Crashes: "クライアントのクラッシュ", NodeFaults: "ノードの障害（{0}）",
		Drops: "失われる応答", BoundsLegend: "範囲", Depth: "1 つの順序に含める操作の上限", Explore: "探索する",
		FixedNote: "レッスンで固定：{0}。",
		Fixed: map[string]string{"ttl": "ロックの TTL {0}", "no-ttl": "TTL なし", "mutex": "各サーバー内のミューテックス（TTL なし）",
			"session": "ZooKeeper のセッションタイムアウト {0}", "lease": "etcd のリースの TTL {0}", "work": "書き込み前の作業 {0}",
			"retry": "再試行の間隔 {0}", "once": "各クライアントは 1 回だけ試す"},
		ShortestAllowed: "問題が起きる最短の手順：{0} ステップ（{1}。TTL のあるロックならどれでも起こりうることで、それだけでは失敗ではない）。",
		Limits: map[string]string{
			"failover": "このモデルのレプリカは 1 台で、リンクは 2 秒後に届けます。レプリカが複数あるとき WAIT が防げないこと（昇格するのがキーを持っていたレプリカとは限らない）は、ここでは起こせません。レッスンがこの設計を「より安全、でも安全ではない」と呼ぶのはそのためです。",
		},
		ResultTitle: "探索の結果",
		Explored:    "{0} 通りの順序を試しました（異なる状態は {1} 個）。",
		Shortest:    "最短の反例：{0} ステップ（{1}）。",
		NoneFound:   "検査で見つかる問題は、どの順序でも起きませんでした。",
		Complete:    "この範囲の順序はすべて試しました。",
		CompleteCut: "{0} 操作までの順序はすべて試しました。それより長く続く順序はそこで打ち切っています。上限を上げると先まで見られます。",
		Incomplete: "探索は終わっていません：すべての順序を見る前に、異なる状態 {0} 個という予算を使い切りました。" +
			"{1} 操作までの順序はすべて、{2} 操作の順序は一部だけ試しています。見つかった問題は本物ですが、見つからなかったことは答えになりません。" +
			"最後まで調べるには、1 つの順序の操作数か、障害の予算を減らしてください。",
		Busy: "サーバーが混み合っていて、この探索を終えられませんでした。時間切れで途中までしか調べていない結果は判定にならないため、表示しません。" +
			"少し待ってから同じリンクをもう一度開いてください。",
		Budget:  "1 回の探索の予算：異なる状態は最大 {0} 個、1 つの順序は最大 {1} 操作。サーバーが混んでいて {2} 秒以内に終わらないときは、判定を出さずにそう伝えます。",
		KindCol: "問題", MeaningCol: "意味", SchedulesCol: "順序の数", ShortestCol: "最短",
		OpenTimeline: "タイムラインで開く", StepsOf: "{0} ステップ",
		CodeTitle:   "この設計を Go で（go-redis）",
		CodeNote:    "シミュレーターのクライアントが送るのと同じコマンドを、Go のプログラムとして書いたものです。通信上の違いは 1 つだけで、go-redis は秒単位ちょうどの TTL を、クライアントの PX 10000 の代わりに EX 10 と書きます。期限は同じです。ここに出るすべてのバリエーションをテストで miniredis に対して実際に動かし、レッスンと同じ手順でシミュレーターと同じコマンドを送ることを確かめています（EX は PX に読み替えて比べます）。",
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
	},
	Class: &ClassUI{
		TeachLive: "このステップから授業をする",
		TeachHint: "授業を始めると、生徒は自分のスマートフォンであなたの操作を追いかけ、チェックポイントの答えを表示する前に予想を送れます。",
		BarLabel:  "ライブ授業",
		JoinAt:    "生徒の参加先",
		CodeLabel: "授業コード",
		QRAlt:     "この授業に参加するアドレスの QR コード",
		Connected: "{0} 人が接続中",
		ConnectedHint: "この授業を画面に開いている生徒の数です（ひとりを一度だけ数えます）。" +
			"JavaScript が動かないページは、最後に読み込んでから {0} 分間数えます。",
		Answers:      "{0} 人が回答",
		Votes:        "{0} 票",
		Vote:         "{0} 票",
		Mine:         "（あなたの回答）",
		CorrectNote:  "（正解）",
		NextQ:        "次の問題",
		RevealBtn:    "答えを表示する",
		EndBtn:       "授業を終える",
		ClassSees:    "生徒の画面：ステップ {0}「{1}」",
		ClassOff:     "生徒の画面：あなたのタイムライン（ガイドの道筋から外れています）",
		NoQuestion:   "いま受け付けている問題はありません。チェックポイントのあるステップに来ると、ここに回答が集まります。",
		ShowClass:    "このステップを生徒に表示",
		JoinTitle:    "授業に参加する",
		JoinIntro:    "先生が表示しているコード（英数字 8 文字）を入力してください。",
		JoinButton:   "参加する",
		WaitingStart: "授業はまだ始まっていません。先生が「授業を開始」を押すと、この画面が先生の画面についていきます。",
		Following:    "ライブ授業 {0}：先生が見せている画面を表示しています。",
		Refresh:      "最新の状態にする",
		RefreshHint: "このページは開いている間、先生の操作に自動で追従します。" +
			"止まったときや、ブラウザーでスクリプトが動かないときは「最新の状態にする」を押してください。",
		Explore:         "ここから自由に試す",
		ExploreHint:     "（この瞬間を通常のレッスンとして新しいタブで開き、ひとりで操作できます）",
		Question:        "あなたの予想",
		SendAnswer:      "回答を送る",
		YourAnswer:      "あなたの回答は",
		Waiting:         "先生が答えを表示するまでお待ちください。",
		ClassVoted:      "クラスの回答",
		NoAnswer:        "この問題には回答していません。",
		Closed:          "この問題の答えはすでに表示されたので、回答は締め切りました。",
		LiveOn:          "ライブ",
		LiveOff:         "再接続中…",
		Ended:           "授業は終了しました。",
		EndedTitle:      "この授業は終了しました",
		EndedText:       "先生が授業を終了しました。レッスンはこのまま使えます。授業が止まったステップから、自分で続けてみましょう。",
		EndedGoOn:       "授業が止まったところから続ける",
		NoRoomTitle:     "このコードの授業は見つかりません",
		NoRoomText:      "コードの入力ミスか、授業がすでに終わっています。先生が表示しているコードを確かめて、もう一度入力してください。",
		FullTitle:       "この授業は満員です",
		FullText:        "ひとつの授業に参加できるのは {0} 人までで、すでに満員です。先生に別の授業を始めてもらってください。",
		RoomsTitle:      "開かれている授業が多すぎます",
		RoomsText:       "このサーバーで同時に開ける授業の数が上限に達しています。どれかの授業が終わってから、もう一度お試しください。",
		StreamsTitle:    "接続が多すぎます",
		StreamsText:     "このサーバーが保てるライブ接続の数が上限に達しています。ページはそのまま使えます。「最新の状態にする」を押すと、先生の画面に追いつきます。",
		NotOpenTitle:    "この問題は締め切られました",
		NotOpenText:     "先生が先に進んだため、この回答は数えられませんでした。",
		TooBigTitle:     "送信されたデータが大きすぎます",
		TooBigText:      "このページが送る量よりはるかに多いデータが届いたため、読み取りませんでした。",
		BadFormTitle:    "フォームを読み取れませんでした",
		BadFormText:     "送信内容に足りないものがあるか、選択肢にない値です。授業のページに戻って、もう一度お試しください。",
		OriginTitle:     "別のサイトから送信されました",
		OriginText:      "授業を守るため、フォームはこのサイトのページから送られたものだけを受け付けます。",
		NotTeacherTitle: "この操作は先生だけができます",
		NotTeacherText:  "このブラウザーで始めた授業ではないため、画面を進めることも、答えを表示することも、授業を終えることもできません。",
		CookieTitle:     "回答には Cookie が必要です",
		CookieText:      "回答は、Cookie に入れたランダムな番号（あなたについての情報は含みません）に結びつけて、一度だけ数えます。このサイトの Cookie を許可して、授業を開き直してください。",
		BackToClass:     "授業に戻る",
		Unavailable:     "このサーバーではライブ授業を利用できません。",
		LobbyHint:       "生徒は QR コードを読み取るかアドレスを開き、求められたらコードを入力します。「授業を開始」を押すまで生徒のスマートフォンはここで待ち、そのあとはあなたが見せるステップに合わせて進みます。",
		StartBtn:        "授業を開始",
		QRShow:          "QR コード",
		AnsweredOf:      "{1} 人中 {0} 人が回答",
		WarnMissing:     "ここにいる {1} 人のうち、回答したのは {0} 人だけです。このまま答えを見せるか、少し待ってください。",
		RevealAnyway:    "このまま答えを表示する",
		LastQ:           "このステップの問題へのクラスの回答",
		ChangeAnswer:    "回答を変える",
		CanChange:       "先生が答えを見せるまでは変えられます。",
		NextLessonBtn:   "レッスン {0}「{1}」で授業を続ける",
		NextLessonHint:  "コードも生徒も同じまま。生徒のスマートフォンも一緒に進みます。",
		EndAsk:          "授業を終える…",
		EndConfirm:      "すべてのスマートフォンで授業が終わり、授業のまとめが表示されます。",
		EndNow:          "今すぐ授業を終える",
		SummaryTitle:    "授業のまとめ",
		SummaryIntro:    "出した問題ごとのクラスの回答です。答えを見せたとき、または次へ進んだときの数です。名前は残りません。スマートフォンごとにランダムな番号があるだけで、このまとめの期限が切れると回答も消えます。",
		SummaryCSV:      "CSV でダウンロード",
		SummaryNone:     "この授業では問題を出していません。",
		SummaryBack:     "レッスン一覧へ",
		SummaryLesson:   "レッスン",
		SummaryStep:     "ステップ",
		SummaryQuestion: "問題",
		SummaryAnswer:   "選択肢",
		SummaryChosen:   "選んだ人数",
		SummaryRight:    "{1} 人中 {0} 人が正解",
		CSVVotes:        "選んだ人数", CSVRight: "正誤（1＝正解、0＝不正解）", CSVAnswered: "回答者数",
		SummaryKeep:       "このまとめは授業終了後 {0} 時間保存され、授業を始めたこのブラウザーでしか開けません。残しておくには CSV をダウンロードしてください。",
		Loopback:          "スマートフォンからは {0}（このコンピューター自身のアドレス）を開けません。{1} で参加してもらうか（同じネットワークにつないだスマートフォンから）、届くアドレスを -public-url に指定して起動してください。",
		LoopbackNoLAN:     "スマートフォンからは {0}（このコンピューター自身のアドレス）を開けません。-addr :8080 と、スマートフォンから届くアドレスを指定した -public-url で Lock Lab を起動してください。",
		TeachLink:         "授業をする",
		JoinLink:          "授業に参加",
		TeachingTitle:     "Lock Lab で教える",
		TeachingTable:     "授業でのレッスン",
		TeachingSteps:     "ステップ",
		TeachingQuestions: "問題",
		TeachingMinutes:   "授業での時間",
		TeachingAbout:     "約 {0} 分",
		TeachingHTML:      "<p>Lock Lab ではレッスンをライブで進められます。あなたの画面（プロジェクター）にレッスンを映し、生徒は自分のスマートフォンでついてきます。チェックポイントごとに、答えを見せる前にクラス全員が予想します。</p>\n<h2>授業の前に</h2>\n<ul>\n<li>生徒のスマートフォンから、Lock Lab を動かしているコンピューターに届く必要があります。教室のネットワークでは <code>go run . -addr :8080 -public-url http://&lt;このコンピューターのアドレス&gt;:8080</code> で起動してください。参加用アドレスがスマートフォンから開けないものなら、授業バーが警告します。</li>\n<li>生徒は何もインストールせず、アカウントも要りません。QR コードか 8 文字のコードで参加します。スマートフォンごとに Cookie のランダムな番号があるだけで、名前は残りません。</li>\n</ul>\n<h2>授業の流れ</h2>\n<ol>\n<li>どのレッスンのページでも、上部の「<strong>授業をする</strong>」を押します（プレゼンターモードでは、タイムラインの下の「<strong>このステップから授業をする</strong>」からも始められます）。授業はそのとき開いているステップから始まります。ロビーに QR コード、アドレス、コードが大きく出て、参加したスマートフォンの数も表示されます。</li>\n<li>「<strong>授業を開始</strong>」を押します。そこから先は、あなたが見せるステップがすべてのスマートフォンに届きます（あなたのブラウザーで JavaScript が動いていないときは、ステップごとに「<strong>このステップを生徒に表示</strong>」を押してください）。参加用の行は上に 1 行だけ残り、「<strong>QR コード</strong>」（または <kbd>q</kbd> キー）で遅れてきた人に再表示できます。</li>\n<li>プレゼンターモード（<kbd>f</kbd>）では台詞が 1 つずつ出て、スマートフォンにも教室で出た台詞だけが表示されます。</li>\n<li>チェックポイントではスマートフォンに問題が出ます。あなたの画面には回答した人数だけが出て、何を選んだかは出ません。多数派につられないためです。答えを見せるまで、生徒は回答を変えられます。</li>\n<li>「<strong>答えを表示する</strong>」で、集計、正解、その理由があなたの画面とすべてのスマートフォンに出ます（生徒には自分の回答が最初に出ます）。まだ答えていない人がいれば、その人数を示してもう一度確かめるので、そのまま進めるなら「<strong>このまま答えを表示する</strong>」を押します。話し合ったら「<strong>次へ</strong>」を押します。</li>\n<li>レッスンの最後のステップでは「<strong>レッスン N「…」で授業を続ける</strong>」で、同じコード、同じ生徒のまま次へ進めます。</li>\n<li>「<strong>授業を終える…</strong>」を開いて「<strong>今すぐ授業を終える</strong>」を押すと、すべてのスマートフォンで授業を終え、まとめ（問題ごとの集計、CSV でダウンロード可）を表示します。</li>\n</ol>\n<h2>キー</h2>\n<ul>\n<li><kbd>n</kbd>、<kbd>→</kbd>、<kbd>PageDown</kbd>、<kbd>Space</kbd>（プレゼン用リモコンが送るキー）：プレゼンターモードで次の台詞、その次はステップ。</li>\n<li><kbd>←</kbd>、<kbd>PageUp</kbd>：1 台詞戻り、その次は 1 ステップ戻る。<kbd>u</kbd> は最後の操作を元に戻します。</li>\n<li><kbd>f</kbd> プレゼンターモード、<kbd>p</kbd> 時間を再生 / 一時停止、<kbd>q</kbd> QR コード、<kbd>?</kbd> すべてのキー。</li>\n</ul>\n<h2>レッスンごとの時間</h2>\n<p>計画のための目安です。1 ステップに約 1 分、1 問に約 3 分（回答、答え合わせ、話し合い）。</p>",
	},
	Design: &DesignUI{
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
			"extend":  "KEYS[1] はロックのキー、ARGV[1] は値、ARGV[2] はミリ秒単位の TTL です。延長スクリプトがあると、クライアントは TTL の半分だけ作業するたび（レッスン 3 で紹介した、本物のクライアントでよく使われる「TTL の 3 分の 1 ごと」より遅いので、余裕はそのぶん少なくなります）と、各書き込みの最初の送信の直前にこれを実行します（応答が失われて送り直す書き込みの前には延長しません）。成功以外の応答なら、ロックを失ったと判断し、書き込まずにやめます。延長しないなら空のままにします。",
			"write":   "ストレージ側で動きます。KEYS[1] はレコード、KEYS[2] は最後に受け付けたトークン、ARGV[1] はクライアントのトークン、ARGV[2] は書き込む値（合計に足す書き込みなら 1）です。成功（1 か OK）なら書き込みが受け付けられたことになります。",
		},
		PresetLabel: map[string]string{
			"acquire.set-nx-px": "SET NX PX", "acquire.setnx-pexpire": "SETNX のあと PEXPIRE", "acquire.get-set": "GET のあと SET",
			"release.compare-delete": "比較付き削除", "release.del": "ただの DEL", "release.get-del": "GET のあと DEL",
			"release.delex": "DELEX IFEQ",
			"extend.none":   "延長しない", "extend.compare-pexpire": "比較付き PEXPIRE", "extend.pexpire": "ただの PEXPIRE",
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
		Incomplete: "クライアント {0} 台の探索は、異なる状態 {1} 個という予算で止まりました。{2} 操作までの順序はすべて見ましたが、それより長い順序はすべては見ていません。" +
			"見つかった問題は本物ですが、見つからなかったことは答えになりません。",
		Bounds: "範囲：各クライアントはプログラム（取得、作業して書き込み、解放）を 1 回だけ実行します。1 つの順序に含まれるのは、{0}（TTL と同じ長さ）の一時停止 1 回、" +
			"クラッシュ 1 回、ストレージ書き込みの応答の消失 1 回までです。応答の消失とは、ストレージは書き込みを反映したのに応答がクライアントに届かず、" +
			"クライアントが同じトークンで同じ書き込みをもう一度送ることです。順序は最大 {1} 操作、1 回の探索で異なる状態は最大 {2} 個です。{3}" +
			"どの順序も、miniredis に go-redis クライアントからコマンドを送り、仮想時間で再生しています。",
		CodeTitle:       "この設計を Go で（go-redis）",
		CodeNote:        "あなたのスクリプトを、Go のプログラムが送るとおりに書いたものです。分けた部分はそれぞれ 1 回の EVAL で、シミュレーターのクライアントと同じ順に送ります。",
		BadTitle:        "この設計は実行できません",
		BadScript:       "{0}スクリプトの {1}",
		BadEmpty:        "{0}スクリプトが空です。省略できるのは延長スクリプトだけです。",
		BadTooLong:      "{0}スクリプトが 2 KB を超えています。",
		BadParts:        "{0}スクリプトが 3 つより多いコマンドに分かれています（最大 3 つまでです）。",
		BadTTL:          "TTL は 1s から 60s までの長さで指定してください（例：10s、1500ms）。",
		BadWork:         "作業時間は 100ms から 60s までの長さで指定してください（例：1s）。",
		BadParam:        "「{0}」は、この設計ページでは使えません。",
		BadPreset:       "「{0}」は {1} のひな形ではありません。ひな形は {2} です。",
		BadLink:         "この設計はリンクにするには長すぎます。スクリプトを短くしてください。",
		BadClients:      "クライアントの数は 2 か 3 です。",
		KeptNote:        "送った設計はそのまま残しています。直してからもう一度採点してください。",
		StartOver:       "安全な設計からやり直す",
		RunTitle:        "反例",
		RunAllowedTitle: "実行の順序",
		RunIntro:        "探索器が見つけた順序です。下のコマンドは、あなたのスクリプトを EVAL で実行したものと、各クライアントがフェンシングトークンを取る INCR です。応答はすべて Redis が返したものです。",
		BackToGrade:     "採点結果に戻る",
		WorkPastTTL:     "時間に注意：書き込み前の作業（{0}）がロックの TTL（{1}）より短くなく、延長もしないので、どの書き込みも書き手自身のリースが切れたあとに届きます。採点はサーバーが何をしたかについてのものです。レッスン 3 は、このような TTL をクライアントのバグと呼んでいます。",
		Stale:           "この採点は古くなっています。採点したあとで設計が変わりました。いまの設計を採点するには「この設計を採点する」を押してください。",
		ScriptsUsed:     "使ったスクリプト",
		ErrorReplyNote:  "実行時にエラーになったスクリプトは、Redis が返したエラー応答としてタイムラインに出ます。クライアントはそれを失敗として扱います。",
		EffectField:     "書き込みが何をするか",
		EffectHelp: "レコードを上書きする：ARGV[2] は保存する値で、2 回書いてもレコードは同じです。" +
			"合計に足す：ARGV[2] は 1 で、レコードに足されます。2 回反映されると作業が 2 回数えられます。書き込みのひな形はこの選択に合わせて変わります。",
		BadEffect: "「{0}」は書き込みの種類として使えません。レコードを上書きする（effect=set）か、合計に足す（effect=add）のどちらかです。",
		EffectLabel: map[string]string{
			lockdesign.EffectSet: "レコードを上書きする（冪等）", lockdesign.EffectAdd: "合計に 1 を足す（冪等ではない）",
		},
		EffectBound: map[string]string{
			lockdesign.EffectSet: "書き込みはレコードを上書きするので、送り直した書き込みをストレージがもう一度受け付けても、同じ内容が書かれるだけです。「書き込みが 2 回反映された」には数えません。",
			lockdesign.EffectAdd: "書き込みは合計に足すので、送り直した書き込みをストレージがもう一度受け付けると、2 回数えられます。これが「書き込みが 2 回反映された」です。",
		},
	},
	A11y: &A11yUI{
		Breadcrumb: "パンくずリスト", LessonPager: "前後のレッスン",
		PictureRegion: "タイムラインの図", FindingsTable: "見つかった失敗（種類別）", PitfallTable: "落とし穴の一覧表",
		PictureAt: "{0} 時点のタイムライン。", ThisStep: "直前の操作では、{0}。", ThisSpan: "直前の操作（{0}〜{1}）では、{2}。", NoChange: "まだ何も起きていません。",
		AndMore: "ほか {0} 件（イベントログを参照）",
		HoldsOn: "{1} のロックは {0} が保持しています。", HoldsOnLeft: "{1} のロックは {0} が保持しています（残り {2}）。",
		NoHolder: "ロックは誰も持っていません。", ClientsNow: "いまのクライアント：{0}。", StorageNow: "ストレージ：{0}、{1}。",
		WentWrong: "起きた問題：{0}", ClientState: "{0} は{1}", ClientToken: "{0} は{1}（トークン {2}）",
		WaitedFor: "時間が {0} 進んだ", WorkedFor: "{0} が {1} 作業した", ResumedBy: "{0} が再開した",
		CommandTo: "{0} が {2} に {1} を送信 → {3}", ClientNote: "{0}：{1}", RedlockCount: "{0} の判定：{1}",
		VerdictTokenOK: "ストレージが {0} のトークン {1} の書き込みを受理した", VerdictTokenNo: "ストレージが {0} のトークン {1} の書き込みを拒否した",
		VerdictNoOp: "ストレージは注文 42 がもう課金済み（冪等キーが設定済み）と判断し、{0} の書き込みでは何も変えなかった", Happened: "{0}：{1} → {2}",
		NoHolderBelieved: "いまロックは誰も持っていないが、{0} はまだ自分が持っているつもりで動いている。",
		HandHeld:         "{0} のロックキーには、あなたが打った値が入っています。どのクライアントも持っていません。",
		CrashedKey:       "{0} はクラッシュしましたが、{1} には {0} のキーがまだ残っています。", CrashedKeyLeft: "{0} はクラッシュしましたが、{1} には {0} のキーがまだ残っています（残り {2}）。",
		MutexHeld: "ロックのキーはありません。自分のプロセスのミューテックスを持っているのは {0} です。",
		VerdictOK: "ストレージが {0} の書き込みを受理した", VerdictNo: "ストレージが {0} の書き込みを拒否した",
		Sep: "。", ListSep: "、", ClientSep: "、",
		Lanes:       "時間は左から右へ進みます。レーンは{0}です。同じ出来事を下の表にも並べています。",
		LaneClients: "各クライアントの状態", LaneYou: "あなたが打ったコマンド", LaneRedis: "Redis のロックキー",
		LanePair: "プライマリとレプリカそれぞれのロックキー", LaneRedlock: "{0} 台の Redis ノードそれぞれのロックキー",
		LaneZK: "ZooKeeper のモデルの中のロック", LaneEtcd: "etcd のモデルの中のロック", LaneStorage: "ストレージ",
		NoLatency:  "ネットワーク遅延は 0 ms としてモデル化しています。",
		SlowNodes:  "{0} へのコマンドは、届くまでに {1} かかります（あなたが遅くしました）。ほかのノードへは 0 ms です。",
		LinkLag:    "複製リンク（モデル）は、プライマリでの変更を {0} 後にレプリカへ届けます。",
		PauseModel: "プロセスの一時停止もモデルです。プロセスは止まって何も送らず、サーバーからは沈黙しか見えません。",
	},
	Picture: &PicUI{
		NodeMark: map[string]string{"down": "切断", "down/lost": "クラッシュ", "up": "再接続", "up/lost": "復帰", "restart": "再起動", "jump": "時計 +{0}", "slow": "遅延 {0}", "promote": "昇格"},
		Instant:  "同じ瞬間（起きた順に並べて表示）", Break: "何も起きない区間を縮めて表示",
		Expired: "キーの期限切れ", Deleted: "キーの削除", Foreign: "他人のロックを削除",
		New: "このステップで起きたこと", Now: "現在",
		ScrollHint: "横にスワイプすると、タイムライン全体が見えます。",
	},
	End: &EndUI{
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
		LabText:  "実験室は、どのレッスンの設計でも受け取って、クライアントのコマンドと許した障害が起こりうる順序を決めた範囲ですべて試し、壊れる最短の手順を見せてくれます。信頼している設計から始めて、持ちこたえるか確かめてみましょう。",
		LabLink:  "実験室を開く",
		Again:    "レッスン一覧に戻る",
		Rows: []EndRow{
			{"各アプリサーバーの中のミューテックス", "どちらのサーバーも中に入り、注文が 2 回課金される。お互いのミューテックスは見えない。", "すべてのサーバーが共有する 1 つのロック（たとえば Redis のキー）。", "two-servers"},
			{"`GET` して、空いていたら `SET`", "2 つのクライアントがどちらも空きを見て、どちらも取る。", "アトミックな `SET key value NX PX` を 1 回。", "atomic-acquire"},
			{"`SETNX` のあとに `EXPIRE`", "2 つの間でクラッシュすると TTL のないキーが残り、永遠にロックされる（`PTTL` は `-1` を返す）。", "TTL も同じコマンドで付ける：`SET … NX PX`。", "atomic-acquire"},
			{"TTL のないロック", "保持者がクラッシュすると、二度と解放されない。", "必ず TTL を付け、作業が続くあいだは延長する。", "ttl"},
			{"遅い保持者や止まった保持者を TTL が止めてくれると思う", "保持者がまだ作業しているうちにキーが期限切れになり、2 つ目のクライアントが入ってくる。", "作業中は延長し、ストレージにフェンシングトークンを検査させる。", "ttl"},
			{"ただの `DEL` で解放する", "ロックが期限切れになった保持者が、次の保持者のロックを消す。", "取得ごとに一意な値を使った比較付き削除（Lua、または `DELEX … IFEQ`）。", "safe-release"},
			{"ホスト名（やホスト名とプロセス ID）をロックの値にする", "2 つの取得が同じ値になり、古い保持者の比較付き削除で値が一致して、新しいロックを消してしまう。", "ホストやプロセスごとではなく、取得のたびに新しいランダムな値。", "safe-release"},
			{"ロックがデータを守ってくれると思う", "止まっていた保持者が目を覚まし、新しいデータを上書きする。", "増える一方のフェンシングトークンを、ストレージが 1 つのアトミックな手順で検査して書き込む。", "fencing"},
			{"書く直前に「ロックはまだ自分のもの？」と確かめる", "答えと書き込みの間で保持者が止まり、ロックが移ったあとで書き込む。", "クライアント側では直せない。ストレージがフェンシングトークンを検査する。", "fencing"},
			{"ストレージが `GET` でトークンを確かめてから `SET` で書く", "2 人の書き手が同じ古いトークンを読み、古いほうの書き込みが最後に着く。", "検査と更新を 1 つのアトミックな手順で行う（スクリプト、トランザクション、条件付き更新）。", "fencing"},
			{"非同期レプリカ付きの Redis 1 台", "ロックが複製される前にプライマリが落ち、昇格したレプリカが 2 つ目のクライアントにロックを渡す。", "`WAIT` は隙間を狭めるが、ふさぎはしない。フェイルオーバーでも失われないカウンター（etcd のリビジョンなど）からフェンシングトークンを取り、ストレージに検査させる。", "failover"},
			{"Redlock を正しさのためのロックとして使う", "永続化なしの再起動や時計の飛びで、2 つのクライアントが過半数を持つ。長い停止では、キーが期限切れになったクライアントがまだ過半数を持っているつもりでいる。", "永続化か再起動の遅延、そしてフェンシングトークン（Redlock の値は増えていかないので、etcd のリビジョンのような合意に基づく仕組みから取る）。それができないなら効率のためだけに使う。", "redlock"},
			{"接続が切れてもロックは持っていると考える", "沈黙のあいだにセッションが期限切れになり、前の保持者がまだ動いているのに別のクライアントが引き継ぐ。", "セッションが確かめられるまで副作用を止める。czxid やリビジョンをトークンにして、ストレージに検査させる。", "zookeeper-etcd"},
			{"ロックで exactly-once になると思う", "応答が失われて保持者がやり直し、注文が 2 回課金される。", "リソース側の冪等キーや一意制約。", "exactly-once"},
		},
	},
	ScriptErrors: map[string]string{
		luacheck.CodeTooLong:     "ここで上限の 2048 バイトを超えています（スクリプト全体で {0} バイト）",
		luacheck.CodeUTF8:        "UTF-8 として正しくない文字があります",
		luacheck.CodeNUL:         "NUL 文字はスクリプトのどこにも使えません",
		luacheck.CodeControl:     "制御文字 {0} は使えません（使えるのはタブと改行だけです）",
		luacheck.CodeBidi:        "双方向制御文字 {0} は、コメントの中でも使えません（見た目と実際の動きが食い違うコードを書けてしまうためです）",
		luacheck.CodeInvisible:   "目に見えない文字 {0} は使えません",
		luacheck.CodeSyntax:      "Lua として読めません（「{0}」のあたり）",
		luacheck.CodeSyntaxEnd:   "スクリプトが途中で終わっています（if・do・括弧・文字列のどれかが閉じていません）",
		luacheck.CodeLoop:        "ループ（{0}）は使えません（スクリプトは必ず終わる必要があります）",
		luacheck.CodeGoto:        "goto とラベルは使えません（スクリプトは必ず終わる必要があります）",
		luacheck.CodeFunction:    "関数は定義できません（スクリプトは必ず終わる必要があります）",
		luacheck.CodeGlobal:      "{0} は使えません。使えるのは KEYS、ARGV、redis.call、redis.pcall、tonumber、tostring と、自分で宣言した local 変数だけです",
		luacheck.CodeField:       "{0} は使えません（redis のうち使えるのは redis.call と redis.pcall だけです）",
		luacheck.CodeCall:        "{0} は、redis.call('GET', KEYS[1]) や tonumber(ARGV[1]) のように、その場で呼び出す形でしか使えません",
		luacheck.CodeMethod:      "メソッド呼び出し（:{0}）は使えません",
		luacheck.CodeTable:       "テーブル（{ … }）は使えません",
		luacheck.CodeVararg:      "... は使えません。KEYS[i] と ARGV[i] を使ってください",
		luacheck.CodeAssign:      "{0} には代入できません。代入できるのは、先に local で宣言した変数だけです",
		luacheck.CodeShadow:      "local 変数に {0} という名前は付けられません（本来の {0} が使えなくなるためです）",
		luacheck.CodeCommand:     "コマンド {0} は使えません。使えるのは {1} です",
		luacheck.CodeCommandName: "コマンド名は redis.call('GET', KEYS[1]) のように、文字列でそのまま書いてください",
		luacheck.CodeArgs:        "{0} の引数が足りないか、使えない引数があります（オプションは 'NX' や 'PX' のように文字列で書きます）",
		luacheck.CodeKey:         "{0} のキーは KEYS[i]（または KEYS[i] を入れた local 変数）で書いてください（スクリプトが触れてよいのは渡されたキーだけです）",
		luacheck.CodeKeyAssign:   "{0} はキーを指しているので、あとから代入できません",
		luacheck.CodeIndex:       "{0} はこのスクリプトには渡されません（使えるのは {1} です）",
		luacheck.CodeConcatBomb:  "この .. は最大 {0} バイトの文字列を作れてしまいます（上限は 4096 バイト）。連結した文字列をさらに連結すると、1 行ごとに倍になるためです",
		luacheck.CodeConcatRedis: "Redis から読んだ値は .. で連結できません（書き戻すと実行のたびに大きくなり、際限がなくなるためです）",
		luacheck.CodePcallArg:    "redis.pcall の引数は、KEYS[i]・ARGV[i]・リテラル・計算結果・tostring(…) のように必ず文字列か数値になるものにしてください。この引数は nil・真偽値・テーブルになり得ます（その場合の動きが miniredis と Redis で違うためです）",
		luacheck.CodeDepth:       "入れ子が深すぎます（40 段まで）",
	},
	ScriptWhere: "{0} 行 {1} 列目：{2}",
	ModelPhrases: []Phrase{
		// ZooKeeper
		{`session (0x[0-9a-f]+), timeout (\d+)ms`, "セッション ${1}、タイムアウト ${2}ms"},
		{`true \(watch set\)`, "true（ウォッチを設定）"},
		{`SyncConnected: session alive, lock kept`, "SyncConnected：セッションは生きていて、ロックもそのまま"},
		{`SESSION_EXPIRED: the lock node is gone`, "SESSION_EXPIRED：ロックのノードはもうない"},
		{`CONNECTION_LOSS: outcome of pending calls unknown`, "CONNECTION_LOSS：送信中だった呼び出しの結果は不明"},
		{`its ephemeral node deleted`, "エフェメラルノードを削除"},
		{`session expired ([A-Z])`, "${1} のセッションが期限切れ"},
		{`session expired`, "セッション期限切れ"},
		// etcd
		{`succeeded, revision (\d+)`, "成功、リビジョン ${1}"},
		{`watching`, "ウォッチ中"},
		{`deleted (\d+)`, "${1} 件削除"},
		{`keepalive OK: lease alive, lock kept`, "キープアライブ OK：リースは生きていて、ロックもそのまま"},
		{`ErrSessionExpired: the lease expired, the key is gone`, "ErrSessionExpired：リースが期限切れになり、キーはもうない"},
		{`keepalive stream broken: the lease lives until its TTL runs out`, "キープアライブのストリームが切れた：リースは TTL が尽きるまで残る"},
		{`its keys deleted`, "キーを削除"},
		{`lease expired ([A-Z])`, "${1} のリースが期限切れ"},
		{`lease expired`, "リース期限切れ"},
		// both
		{`connection lost`, "接続断"},
		{`reconnect`, "再接続"},
		{`watch event`, "ウォッチイベント"},
		{`until DELETE`, "DELETE まで"},
		// Redlock: "3/5 OK (need 3) · elapsed 0ms · validity 10000−0−102 = 9898ms → acquired"
		{`(\d+/\d+) OK \(need (\d+)\) · elapsed (-?\d+)ms · validity (.*) → acquired`, "${1} OK（必要 ${2}）· 経過 ${3}ms · 有効時間 ${4} → 取得"},
		{`(\d+/\d+) OK \(need (\d+)\) · elapsed (-?\d+)ms · validity (.*) → failed`, "${1} OK（必要 ${2}）· 経過 ${3}ms · 有効時間 ${4} → 失敗"},
	},
	ScriptGists: map[string]string{
		"delete the lock only if it still holds my value": "キーにまだ自分の値が入っているときだけロックを消す",
		"refuse a token older than the last accepted one": "最後に受け付けたトークンより古いトークンを拒む",
		"accept only a token greater than the last one":   "最後のトークンより大きいトークンだけを受け付ける",
		"a new TTL, but only for my own lock":             "自分のロックにだけ TTL を付け直す",
		"the idempotency key and the charge, together":    "冪等キーと課金を、まとめて 1 回で",
	},
	ScriptsVerbatim: "スクリプトは Redis に送ったとおり、コメントも手を加えずに表示しています（訳のあるものは見出しの横に付けています）。会話の中のスクリプトは説明用に書き直したもので、コメントも日本語にしています。",
	GoComments: map[string]string{
		"// Package lock is one Lock Lab design written out with go-redis:\n// {0}.\n": "// Package lock は Lock Lab の設計の一つを go-redis で書いたもの:\n// {0}。\n",
		`
// tryAcquire is one atomic command: SET key value NX, with the TTL.
// go-redis writes a TTL of whole seconds as {0} (the same as PX {1}).`: `
// tryAcquire はアトミックなコマンド一つ：TTL 付きの SET key value NX。
// go-redis は秒単位ちょうどの TTL を {0} と書く（PX {1} と同じ）。`,
		`// acquire sets the same key and value on every node (SET … NX, the TTL
// as {0}); the lock counts only if a majority said OK and time
// is left of its validity. Otherwise it unlocks every node (a reply may
// have been lost after a SET) and retries.`: `// acquire はすべてのノードに同じキーと値を SET … NX する（TTL は {0}）。
// 過半数が OK と答え、有効時間が残っているときだけロックを得たとみなす。
// そうでなければ全ノードで解放して（SET の返事だけが失われたかもしれない）
// やり直す。`,
		"// The lesson's keys and timings.":                     "// レッスンと同じキーと時間。",
		"// No TTL: a holder that dies leaves the key forever.": "// TTL なし：保持者が死ぬと、キーは永遠に残る。",
		"// how long the protected work takes":                  "// ロックの下で行う処理の長さ",
		`
// newValue is this host's name. Every acquisition made on this host, by
// any worker at any time, puts the same value in the key, so a holder
// cannot tell its own lock from the next one taken here: the value must
// be unique per acquisition, not per host or process.`: `
// newValue はこのホストの名前。このホストでの取得は、どのワーカーでも、
// いつでも同じ値をキーに入れるので、保持者は自分のロックと、ここで次に
// 取られたロックを見分けられない。値はホストやプロセスごとではなく、
// 取得ごとに一意でなければならない。`,
		`
// newValue is unique to one acquisition, so a holder can tell its own
// lock from the next holder's: 20 random bytes, as the Redis docs suggest
// (the simulated clients use 10, to keep the event log short).`: `
// newValue は取得ごとに一意の値。自分のロックと次の保持者のロックを
// 見分けるために使う。Redis のドキュメントが勧めるとおり 20 バイトの乱数
// （シミュレーターのクライアントは、イベントログを短くするため 10 バイト）。`,
		"the system's random source failed":                          "OS の乱数源が壊れている",
		"a mutex inside each process":                                "各プロセスの中のミューテックス",
		"Redlock over independent nodes":                             "独立したノードでの Redlock",
		"acquire with GET then SET":                                  "GET してから SET で取得",
		"acquire with SETNX then PEXPIRE":                            "SETNX してから PEXPIRE で取得",
		"acquire with one SET NX and a TTL":                          "TTL 付きの SET NX 一つで取得",
		"no TTL":                                                     "TTL なし",
		"WAIT for the replica":                                       "レプリカを WAIT で待つ",
		"release with a plain DEL":                                   "ただの DEL で解放",
		"release with GET then DEL":                                  "GET してから DEL で解放",
		"release with DELEX IFEQ":                                    "DELEX IFEQ で解放",
		"release with a compare-and-delete script":                   "比較付き削除のスクリプトで解放",
		"charges through an idempotency key":                         "冪等キーを通して課金",
		"charges with a plain RPUSH":                                 "ただの RPUSH で課金",
		"the fencing token checked in two commands (GET, then MSET)": "フェンシングトークンを 2 つのコマンドで検査（GET してから MSET）",
		"writes checked against a fencing token":                     "書き込みをフェンシングトークンで検査",
		"writes not checked":                                         "書き込みは検査なし",
		"a “still mine?” GET before writing":                         "書く前に「まだ自分のもの？」と GET",
		"the host's name as the lock value":                          "ホスト名をロックの値に",
		", ":                                                         "、",
		`
// mu only excludes the goroutines of this process: another server has its
// own mu and charges at the same time.`: `
// mu が排除するのはこのプロセスのゴルーチンだけ。別のサーバーには
// 別の mu があり、同じときに課金してしまう。`,
		`
// tryAcquire looks, then writes: two commands. Two clients can both see
// the key free between them, and both SET it.`: `
// tryAcquire は見てから書く：コマンドが二つ。その間に二つのクライアントが
// 両方とも空きを見て、両方とも SET できてしまう。`,
		"someone holds it": "誰かが持っている",
		"// The gap: if the process dies here, the key stays without a TTL.": "// 隙間：ここでプロセスが死ぬと、キーは TTL なしで残る。",
		`
// tryAcquire sends SETNX (set if absent, with no TTL), then gives the key
// a TTL with a second command. go-redis's SetNX method sends SET … NX
// nowadays, so the old command goes out as it is, through Do.`: `
// tryAcquire は SETNX（無ければ設定、TTL なし）を送り、二つ目のコマンドで
// TTL を付ける。go-redis の SetNX メソッドは今は SET … NX を送るので、
// 古い SETNX コマンドは Do でそのまま送る。`,
		`
// tryAcquire is one atomic command: SET key value NX (here with no TTL).`: `
// tryAcquire はアトミックなコマンド一つ：SET key value NX（ここでは TTL なし）。`,
		"// releaseScript deletes the lock only while it still holds our value.": "// releaseScript は、キーがまだ自分の値のときだけロックを消す。",
		`
// acquire tries until it holds the lock`: `
// acquire はロックを持てるまで試す`,
		"// errTaken: the lock was held by someone else; this client tries once.": "// errTaken: 他の誰かがロックを持っていた。このクライアントは一度しか試さない。",
		`
// acquire tries once, like a TryLock`: `
// acquire は TryLock のように一度だけ試す`,
		`, then takes a fencing token: a number
// that grows with every acquisition, for the storage to check`: `。それからフェンシングトークンを取る:
// 取得のたびに増える番号で、ストレージが検査に使う`,
		".": "。",
		"// Taken, or no reply: try again after a while.": "// 取られている、または返事がない：少し待ってやり直す。",
		`// Trust the lock only once the replica has it too; otherwise a
		// failover could hand the same lock to someone else.`: `// レプリカにも届いてから信じる。そうでないと、フェイルオーバーで
		// 同じロックが他の誰かに渡りうる。`,
		"// The primary has it, the replica not yet: give it back.": "// プライマリにはあるがレプリカにはまだ無い：ロックを返す。",
		`
// release deletes the key, whoever's it is now: if our lock expired and
// another client took it, this deletes theirs.`: `
// release は今の保持者が誰であれキーを消す。自分のロックが期限切れで
// 他のクライアントが取っていたら、その人のロックを消してしまう。`,
		`
// release checks, then deletes: two commands. The lock can expire and be
// taken by another client between them.`: `
// release は確かめてから消す：コマンドが二つ。その間にロックが期限切れに
// なり、他のクライアントに取られることがある。`,
		"gone, or not ours any more": "もう無い、または自分のものではない",
		`
// release deletes the key only if it still holds our value, in one
// command (DELEX key IFEQ value, Redis 8.4 and later).`: `
// release はキーがまだ自分の値のときだけ、一つのコマンドで消す
// （DELEX key IFEQ value、Redis 8.4 以降）。`,
		`
// release runs the compare-and-delete script: the check and the delete
// happen in one step on the server, so it never removes another's lock.`: `
// release は比較付き削除のスクリプトを実行する。確認と削除がサーバー上で
// 一度に起きるので、他人のロックを消すことはない。`,
		"// unlockScript deletes the lock only while it still holds our value.": "// unlockScript は、キーがまだ自分の値のときだけロックを消す。",
		`
// drift is the allowance for clocks that tick at slightly different rates.`: `
// drift は、進み方が少しずつ違う時計のための余裕。`,
		"a node that does not answer keeps its copy until the TTL": "答えないノードの分は TTL まで残る",
		`// release runs the compare-and-delete script on every node, even after
// one of them did not answer: the others must still let go.`: `// release はすべてのノードで比較付き削除のスクリプトを実行する。
// 答えないノードがあっても、残りのノードでは解放する。`,
		`// chargeOnce writes the idempotency key and the charge together: a
// repeated request is a no-op.`: `// chargeOnce は冪等キーと課金を一緒に書く：繰り返された要求は
// 何もしない。`,
		"// write charges the order once, however often it is asked.": "// write は、何度頼まれても注文を一度だけ課金する。",
		"// write charges the order: every call is one more charge.":  "// write は注文を課金する：呼ぶたびに課金が一つ増える。",
		`// write checks the fencing token in two commands: it reads the last token
// the storage accepted, then writes the result and its token together.
// Another writer can read the same old token between the two, and the
// MSET that lands last wins, whatever its token.`: `// write はフェンシングトークンを 2 つのコマンドで検査する。ストレージが
// 最後に受け付けたトークンを読み、それから結果とトークンを一緒に書く。
// その間に別の書き手が同じ古いトークンを読めるので、最後に届いた MSET が
// トークンの新旧にかかわらず勝つ。`,
		"refused: a newer holder already wrote":                                      "拒否：もっと新しい保持者がもう書いた",
		"// The gap: another write can land here, between the check and the update.": "// 隙間：確認と更新の間に、別の書き込みがここに入りうる。",
		`// fencedWrite refuses a token lower than the last one accepted; check and
// update are one script.`: `// fencedWrite は、最後に受け付けたものより小さいトークンを拒む。検査と
// 更新は一つのスクリプト。`,
		`// write stores the result with the fencing token; a holder whose lock was
// taken over after a pause is refused here, at the storage.`: `// write はフェンシングトークン付きで結果を保存する。停止の間にロックを
// 奪われた保持者は、ここでストレージに拒まれる。`,
		`// write stores the result. Nothing checks who is writing: a holder whose
// lock expired during a pause overwrites the next holder's result.`: `// write は結果を保存する。誰が書いているかは誰も確かめない：停止中に
// ロックが期限切れになった保持者は、次の保持者の結果を上書きする。`,
		`
// A request whose reply was lost is sent again: the client cannot tell
// whether it happened.`: `
// 返事が失われた要求はもう一度送る：実行されたかどうか、クライアントには
// 分からない。`,
		`
// Run is one server's program: lock, work, charge, unlock.`: `
// Run は一台のサーバーのプログラム：ロック、処理、課金、解放。`,
		`
// Run is one client's program: lock a majority, work, write, unlock. The
// work has to end within the lock's validity, and nothing here can make
// sure it does: a pause after acquire outlives it unnoticed.`: `
// Run は一つのクライアントのプログラム：過半数をロックし、処理し、書き、
// 解放する。処理はロックの有効時間内に終わらなければならないが、ここには
// それを保証するものが何もない：取得直後の停止は、気付かれないまま
// 有効時間を越える。`,
		`
// stillMine asks Redis whether the lock still holds our value. The answer
// is true when Redis gives it, but the lock can expire right after, and a
// pause between this check and the write goes unseen: the check and the
// write are two steps, not one. Only the storage can refuse a stale write
// (a fencing token).`: `
// stillMine は、ロックがまだ自分の値かを Redis に聞く。答えは返ってきた
// 時点では正しいが、その直後にロックが期限切れになることもあり、確認と
// 書き込みの間の停止には気付けない。確認と書き込みは一つの手順ではなく
// 二つだから。古い書き込みを拒めるのはストレージだけ（フェンシングトークン）。`,
		"the lock is gone: do not write":                                 "ロックはもう無い：書かない",
		"// A pause here, after the check, lets the write go out stale.": "// ここで、確認の後に止まると、古い書き込みが出ていく。",
		`
// Run is one client's program: acquire, work, write, release.`: `
// Run は一つのクライアントのプログラム：取得、処理、書き込み、解放。`,
		"// The keys and times of your design.": "// この設計のキーと時間。",
		`// The write adds amount to a total (ARGV[2]): not idempotent. The same
// write applied twice counts the job twice.`: `// 書き込みは合計に amount を足す（ARGV[2]）。冪等ではない：
// 同じ書き込みが 2 回反映されると、作業が 2 回数えられる。`,
		"no extend script": "延長スクリプトなし",
		"// Your scripts. A script split by “-- then” is several commands: one EVAL per part.": "// あなたのスクリプト。「-- then」で分けたスクリプトは複数のコマンドで、部分ごとに 1 回の EVAL。",
		`// run sends each part in turn. A reply that is not success (1 or OK) ends
// it there, and so does an error reply: a script that fails at run time
// is a no, as on the timeline.`: `// run は部分を順に送る。成功（1 か OK）以外の応答ならそこで終わる。
// エラー応答も同じ：実行時に失敗したスクリプトは、タイムラインと同じく「いいえ」。`,
		"// newValue is this acquisition's random value: 20 random bytes, as the Redis docs suggest\n// (the simulated clients use 10, to keep the event log short).": "// newValue はこの取得のランダムな値。Redis のドキュメントが勧めるとおり 20 バイトの乱数\n// （シミュレーターのクライアントは、イベントログを短くするため 10 バイト）。",
		"// acquire tries until the acquire script says yes, then takes a fencing token.":                                                                             "// acquire は取得スクリプトが成功するまで試し、そのあとフェンシングトークンを受け取る。",
		`// workAndWrite does the work, extending the lock after every half TTL of it
// (and once more just before writing) if the design extends, then sends
// the write to the storage. It reports whether the storage accepted it.
// A write whose reply times out may have been applied or not: it is sent
// again, with the same token and the same value.`: `// workAndWrite は作業をし、設計が延長するなら TTL の半分ごとと書き込む直前に延長し、
// それからストレージに書き込む。ストレージが受け付けたかを返す。
// 応答がタイムアウトした書き込みは、反映されたかどうか分からないので、
// 同じトークンと同じ値でもう一度送る。`,
		"the work": "作業",
		"// Run is one client's program: acquire, work and write, release.": "// Run は 1 台のクライアントのプログラム：取得、作業して書き込み、解放。",
		`// Package lock is your design from Lock Lab's “Bring your own lock”.
`: `// Package lock は Lock Lab の「自分のロックを試す」で作った設計。
`,
	},
}
