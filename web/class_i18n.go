// class_i18n.go holds the live class's strings in both languages, beside
// i18n.go like the Lab's; TestClassUIComplete holds them to the same rule:
// every string present in both languages.
package web

// ClassUI is every string of the live class in one language.
type ClassUI struct {
	TeachLive, TeachHint, BarLabel, JoinAt, CodeLabel, QRAlt        string
	Connected, Answers, Votes, Vote, Mine, RevealBtn, EndBtn        string
	ConnectedHint                                                   string // what the count means
	CorrectNote                                                     string // after the right choice, for screen readers
	ClassSees, ClassOff, NextQ                                      string
	NoQuestion, ShowClass                                           string
	JoinTitle, JoinIntro, JoinButton                                string
	Following, Refresh, RefreshHint, Explore, ExploreHint           string
	Question, SendAnswer, YourAnswer, Waiting, ClassVoted, NoAnswer string
	Closed, LiveOn, LiveOff, Ended                                  string
	NoRoomTitle, NoRoomText, FullTitle, FullText                    string
	RoomsTitle, RoomsText, StreamsTitle, StreamsText                string
	AnsweredTitle, AnsweredText, NotOpenTitle, NotOpenText          string
	TooBigTitle, TooBigText, BadFormTitle, BadFormText              string
	OriginTitle, OriginText, NotTeacherTitle, NotTeacherText        string
	CookieTitle, CookieText, BackToClass, Unavailable               string
	EndedTitle, EndedText, EndedGoOn                                string
}

// C returns the class strings for lang (English if unknown).
func C(lang string) *ClassUI {
	if u, ok := classUIs[lang]; ok {
		return u
	}
	return classUIs["en"]
}

var classUIs = map[string]*ClassUI{
	"en": {
		TeachLive: "Teach this live",
		TeachHint: "Start a class from this step: students follow your moves on their phones and answer each checkpoint before you reveal it.",
		BarLabel:  "Live class",
		JoinAt:    "Students join at",
		CodeLabel: "Class code",
		QRAlt:     "QR code of the address where students join this class",
		Connected: "{0} connected",
		ConnectedHint: "Students with this class open on their screen, each counted once. " +
			"A page without JavaScript counts for {0} minutes after it was last loaded.",
		Answers:     "{0} answered",
		Votes:       "{0} votes",
		Vote:        "{0} vote",
		Mine:        "(your answer)",
		CorrectNote: "(right answer)",
		NextQ:       "Next question",
		RevealBtn:   "Reveal the answer",
		EndBtn:      "End class",
		ClassSees:   "The class sees step {0}: {1}",
		ClassOff:    "The class sees your timeline (off the guided path).",
		NoQuestion:  "No question is open. Answers appear here when you reach a step with a checkpoint.",
		ShowClass:   "Show this step to the class",
		JoinTitle:   "Join a class",
		JoinIntro:   "Type the code your teacher shows: eight letters and digits.",
		JoinButton:  "Join",
		Following:   "Live class {0}: you see what the teacher shows.",
		Refresh:     "Refresh",
		RefreshHint: "This page follows the teacher by itself while it is open. " +
			"If it stops, or if your browser runs no scripts, press Refresh.",
		Explore:         "Explore from here",
		ExploreHint:     "(opens this moment as an ordinary lesson in a new tab, to try things alone)",
		Question:        "Your prediction",
		SendAnswer:      "Send my answer",
		YourAnswer:      "Your answer:",
		Waiting:         "Wait for the teacher to reveal the answer.",
		ClassVoted:      "How the class answered",
		NoAnswer:        "You did not answer this question.",
		Closed:          "The answer to this question has been revealed; answers are closed.",
		LiveOn:          "Live",
		LiveOff:         "Reconnecting…",
		Ended:           "The class has ended.",
		EndedTitle:      "This class has ended",
		EndedText:       "Your teacher ended this class. The lesson is still here: go on from the step where the class stopped, on your own.",
		EndedGoOn:       "Go on from where the class stopped",
		NoRoomTitle:     "No class with this code",
		NoRoomText:      "The code may be mistyped, or the class has ended. Check the code your teacher shows and try again.",
		FullTitle:       "This class is full",
		FullText:        "A class holds at most {0} students, and this one has that many already. Ask your teacher to start a second class.",
		RoomsTitle:      "Too many classes right now",
		RoomsText:       "This server is running as many live classes as it can hold. Try again when one of them ends.",
		StreamsTitle:    "Too many live connections",
		StreamsText:     "This server holds as many live connections as it can. The page still works: press Refresh to see where the teacher is.",
		AnsweredTitle:   "You have already answered",
		AnsweredText:    "Each student answers each question once; your first answer is the one that counts.",
		NotOpenTitle:    "This question is closed",
		NotOpenText:     "The teacher has moved on, so this answer was not counted.",
		TooBigTitle:     "Too much data",
		TooBigText:      "The form sent far more than this page ever sends, so it was not read.",
		BadFormTitle:    "This form could not be read",
		BadFormText:     "Something in what was sent is missing or not one of the choices. Go back to the class and try again.",
		OriginTitle:     "Sent from another site",
		OriginText:      "To keep classes safe, their forms are accepted only from this site's own pages.",
		NotTeacherTitle: "Only the teacher can do that",
		NotTeacherText:  "This browser did not start the class, so it cannot move it, reveal answers or end it.",
		CookieTitle:     "Cookies are needed to answer",
		CookieText:      "Your answer is tied to a random number in a cookie (nothing about you), so that it counts once. Allow cookies for this site and open the class again.",
		BackToClass:     "Back to the class",
		Unavailable:     "Live classes are not available on this server.",
	},
	"ja": {
		TeachLive: "このステップからライブ授業",
		TeachHint: "授業を始めると、生徒は自分のスマートフォンであなたの操作を追いかけ、チェックポイントの答えを表示する前に予想を送れます。",
		BarLabel:  "ライブ授業",
		JoinAt:    "生徒の参加先",
		CodeLabel: "授業コード",
		QRAlt:     "この授業に参加するアドレスのQRコード",
		Connected: "{0}人が接続中",
		ConnectedHint: "この授業を画面に開いている生徒の数です（ひとりを一度だけ数えます）。" +
			"JavaScript が動かないページは、最後に読み込んでから{0}分間数えます。",
		Answers:     "{0}人が回答",
		Votes:       "{0}票",
		Vote:        "{0}票",
		Mine:        "（あなたの回答）",
		CorrectNote: "（正解）",
		NextQ:       "次の問題",
		RevealBtn:   "答えを表示する",
		EndBtn:      "授業を終える",
		ClassSees:   "生徒の画面：ステップ{0}「{1}」",
		ClassOff:    "生徒の画面：あなたのタイムライン（ガイドの道筋から外れています）",
		NoQuestion:  "いま受け付けている問題はありません。チェックポイントのあるステップに来ると、ここに回答が集まります。",
		ShowClass:   "このステップを生徒に表示",
		JoinTitle:   "授業に参加する",
		JoinIntro:   "先生が表示しているコード（英数字8文字）を入力してください。",
		JoinButton:  "参加する",
		Following:   "ライブ授業 {0}：先生が見せている画面を表示しています。",
		Refresh:     "最新の状態にする",
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
		FullText:        "ひとつの授業に参加できるのは{0}人までで、すでに満員です。先生に別の授業を始めてもらってください。",
		RoomsTitle:      "開かれている授業が多すぎます",
		RoomsText:       "このサーバーで同時に開ける授業の数が上限に達しています。どれかの授業が終わってから、もう一度お試しください。",
		StreamsTitle:    "接続が多すぎます",
		StreamsText:     "このサーバーが保てるライブ接続の数が上限に達しています。ページはそのまま使えます。「最新の状態にする」を押すと、先生の画面に追いつきます。",
		AnsweredTitle:   "すでに回答しています",
		AnsweredText:    "回答はひとつの問題につき一度だけです。最初に送った回答が数えられています。",
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
		CookieTitle:     "回答にはCookieが必要です",
		CookieText:      "回答は、Cookieに入れたランダムな番号（あなたについての情報は含みません）に結びつけて、一度だけ数えます。このサイトのCookieを許可して、授業を開き直してください。",
		BackToClass:     "授業に戻る",
		Unavailable:     "このサーバーではライブ授業を利用できません。",
	},
}
