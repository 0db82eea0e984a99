// ui.go declares the catalog: every interface string of the site, one
// struct per language (en.go, ja.go, …). A struct, not a map of keys, so
// a misspelt key is a compile error and a missing string is an empty
// field that TestCatalogsComplete finds (and that, at run time, falls back
// to English with a log line).

package i18n

import "locklab/sim"

// UI is every interface string in one language: the strings every page
// shares as fields, each feature's own in a struct of its own.
type UI struct {
	SiteName, Tagline, Lessons, LessonListIntro, ReadIn    string
	LanguageMenu                                           string // the menu of languages, for screen readers
	Chick, Penguin, Step, Of, NextStep, Undo, Reset        string
	BackToPath, OffPath, OffPathNone, Finished, NextLesson string
	// OffPathBefore: off the path before step {0}, under its options
	// (an Undo on a "What if…" step), whose title is not this timeline's
	OffPathBefore                                    string
	PrevLesson, StepsHeading, Controls, TimeControls string
	Options, Apply, Timeline, EventLog, Time         string
	Who, Command, Reply, Note, Now, Lock, Storage    string
	// You is the operator who types commands (sim.Operator), on its lane,
	// in the log and in the Lab's steps; CLI is the command line itself.
	You string
	// TooManyTitle and TooMany ({0}: seconds) are the 429 page.
	TooManyTitle, TooMany                                  string
	CLI                                                    *CLIUI
	TTLLeft, Expired, DeletedBy, Token, Accepted, Rejected string
	// NotWritten: a write the storage answered with an error (a key of
	// the wrong type typed by hand): not taken, and not a verdict of its
	// token check.
	NotWritten string
	// Since is a state or key that began at {0} and lasts at the
	// timeline's end, where no time has passed yet ("from 0.000s").
	Since string
	// SpanThen: a holding bar whose lock ended under it ({0} holding
	// until then, {1} thinking it holds from then), as its lane says
	SpanThen                                          string
	Violations                                        string
	Scripts, Legend, Paused, Working                  string
	Crashed, OpenJSON, Home, SkipToLab, Client        string
	ErrorTitle, NotFound, NotFoundText, BadRequest    string
	BadRequestHint, LastGood, StartOver, InternalText string
	WrongMethod, ExpiredAt, TTLLegend                 string
	// TokenKeyIs: the storage's token key and its value ({0}); NoTokenYet:
	// a storage that checks tokens and has stored none.
	TokenKeyIs, NoTokenYet                           string
	NodeControls, Model, Refused, NoTTL, Overwritten string
	LostData, ValidUntil, Charges, LostReply, Down   string
	// ReplyCut, ElemsCut: after a reply the timeline shows only in part
	// (sim.ReplyShown): {0} what is shown of {1}, bytes of a string,
	// elements of an array.
	ReplyCut, ElemsCut string
	// LuaWording: after a script's error that Lock Lab's Lua words
	// without the failing value's name, where Redis's may name it
	// (luarun.WordedOwnWay).
	LuaWording string
	// LongValue, LongArray stand for a reply too long to quote in a
	// sentence ({0}: its bytes, its elements); the event log has it.
	LongValue, LongArray string
	// ValidEnded: a Redlock holder's validity is over, though
	// it may still act as the holder.
	ValidEnded string
	// Down is a Redlock node's state while cut off (it keeps its keys); a
	// replicated node's after a crash (it lost them) is Crashed's.
	ClockAhead, SlowBy, PrimaryRole, ReplicaRole, NoCheck string
	Predict, Reveal, SkipPredict, YouPredicted, Right     string
	// AnswerBelow leads a phone's bar of Undo and Next down to the
	// checkpoint asked in Next's place.
	AnswerBelow                                      string
	Wrong, TheAnswer, CheckpointAnswer, LessonJSON   string
	DownloadSVG, DownloadJSON, ShareQR, QRTooLong    string
	ThemeAuto, ThemeDark, ThemeLight, HeaderTooLarge string
	URITooLong, URITooLongBack                       string
	// UnknownHost: a request for a host the server does not answer to
	// (-hosts; {0}: the host, clipped).
	UnknownHost string
	// BadQueryTitle heads a query that cannot be read; BadQuery says a %
	// is not followed by two hex digits, BadQuerySemi that ; separates
	// parameters ({0}: the query, clipped); FixedLink offers the link
	// with & for ;.
	BadQueryTitle, BadQuery, BadQuerySemi, FixedLink                    string
	Share, ShareHint, Play, Pause, Speed, Theme, Presenter, Help, Close string
	// ShareDesign and ShareDesignHint head a graded design's share box:
	// it opens the design and its grade, not a timeline.
	ShareDesign, ShareDesignHint string
	// ShareLoopback: the share box's address is this machine's own
	// ({0}: its host), which opens nowhere else.
	ShareLoopback string
	// Menu opens the header's tools on a phone, where they fold away.
	Menu string
	// NextLine: presenter mode's Next while lines are held back ({0}: how many)
	NextLine                       string
	Shortcuts                      [][2]string
	Busy, DoneLabel, ContinueLabel string
	// ResumeLabel: the home page's way back to the last step read in this
	// browser ({0} lesson number, {1} step number, {2} step title)
	ResumeLabel string
	// ResumeShort, ResumeOfferShort: the same, for a step last read in
	// another language (its title is in that language, so it is left
	// out).
	ResumeShort, ResumeOfferShort string
	// ResumeOffer: a lesson's first step offers the step read last in
	// this lesson ({0} step number, {1} its title).
	ResumeOffer                                               string
	RedisDown                                                 string
	AlreadyPaid, ChargedTwiceBy, Review                       string
	CounterTitle, CounterIntro, CounterSchedule, CounterBroke string
	// CounterAllowedTitle and CounterHappened head a Lab schedule that
	// harmed nothing and broke no lock (only what any lease allows): not
	// a counterexample, and nothing "broke".
	CounterAllowedTitle, CounterHappened                 string
	CounterNone, CounterWhen, CounterBack, CounterGuided string
	NodeName                                             map[string]string
	// NodeInText is a node's name inside a sentence, where it is not
	// its lane's label ("A holds the lock on the primary", not "on
	// primary"); a node it does not list is named as its lane is
	NodeInText    map[string]string
	Verb          map[string]string
	OptionLabel   map[string]string
	OptionValue   map[string]string
	KindNote      map[sim.Kind]string
	DropWriteNote string // KindNote of a design's drop: only its write's reply
	NodeNote      map[string]string
	// ViolationText is one failure as the event log tells it; Failures
	// the same kinds as the Lab's and the design grade's tables name and
	// define them (sim/kinds.go: one vocabulary, read by every surface).
	ViolationText map[sim.ViolationKind]string
	Failures      map[sim.ViolationKind]Failure
	Verdict       *VerdictUI
	ErrorText     map[sim.Code]string
	StateName     map[sim.State]string
	// AcquireRefused, AcquireRetries: an acquire in a list of actions
	// that the server refused, by a client that then stops or retries on
	// its own ({0}: the action's words; narrate.Step)
	AcquireRefused, AcquireRetries string
	// Believes: a client holding by its own account whose lock no server
	// keeps any more (narrate.State)
	Believes string
	Purpose  map[string]string

	// The features' own strings, each in a struct of its own so a
	// feature's words can be read together.
	Lab     *LabUI
	Class   *ClassUI
	Design  *DesignUI
	A11y    *A11yUI
	Picture *PicUI
	End     *EndUI
	Libs    *LibsUI
	Chal    *ChallengeUI
	Embed   *EmbedUI

	// ScriptErrors explain each refusal of the script checker
	// (sim/luacheck), by its code ({0}: the error's Arg, {1}: its
	// Allowed, or for a command the allow-list); ScriptWhere places one
	// ({0} line, {1} column, {2} the reason).
	ScriptErrors map[string]string
	ScriptWhere  string
	// ScriptRefused: a script typed on the command line ({0}) that the
	// checker refuses, why ({1}: ScriptError), and the page whose checker
	// it is ({2}: its title).
	ScriptRefused string
	// ModelPhrases translate the few English phrases the simulator's
	// models write (replies of the ZooKeeper/etcd, replication and
	// Redlock models): English has none, since sim writes English.
	ModelPhrases []Phrase
	// GoComments translate the comments of the Lab's and the design's Go
	// programs, keyed by their English text (gettext-style: the English
	// is the key, so the code reads as it will print in English).
	GoComments map[string]string
	// ScriptGists translate the first comment line of the lessons' Lua
	// scripts (keyed by its English text after "-- name: "): the script
	// itself is shown exactly as Redis ran it, and says it in English.
	ScriptGists map[string]string
	// ScriptsVerbatim says so, under the scripts' heading ("" in English).
	ScriptsVerbatim string
	// PresetsVerbatim says why the design page's presets keep their
	// English comments ("" in English).
	PresetsVerbatim string

	// Lang is the language's code, set from the registry.
	Lang string

	lang    *Language
	phrases []phrase
}

// Phrase is one English phrase the simulator writes and its translation.
// Pattern matches the whole string; $1… in Text keep its submatches (ids,
// numbers).
type Phrase struct{ Pattern, Text string }

// LabUI is every string of the Lab page (and the lesson page's link to it)
// in one language.
type LabUI struct {
	Title, HomeHint, Intro, WhatElse, WhatElseHint  string
	LessonLegend, LessonLabel, Load                 string
	DesignLegend, ClientsLegend, ClientsN           string
	FaultsLegend, Pauses, PauseLengths, Crashes     string
	NodeFaults, Drops, BoundsLegend, Depth, Explore string
	// FixedNote: {0} the lesson's fixed parameters, each from the Fixed
	// words ("ttl", "no-ttl", "mutex", "session", "lease", "work",
	// "retry", "once"), joined.
	FixedNote string
	Fixed     map[string]string
	// ShortestAllowed heads a shortest schedule whose failure is only
	// what a lease allows: not a counterexample to anything.
	ShortestAllowed string
	// ShorterAllowed follows Shortest where a row of what any lease
	// allows is shorter than the counterexample
	ShorterAllowed string
	// Limits: what a scenario's model cannot show, under a verdict of
	// its design: by scenario id, or "<id> <option>.<value>" for the
	// designs with that option (web/lab's labLimit).
	Limits                                             map[string]string
	ResultTitle, Explored, Shortest                    string
	NoneFound, Complete, CompleteCut, Incomplete       string
	Busy, Budget                                       string
	KindCol, MeaningCol, SchedulesCol, ShortestCol     string
	OpenTimeline, StepsOf, CodeTitle, CodeNote, NoCode string
	StepOf                                             string // StepsOf for one step
	// CardShortest: a link card's line on the shortest schedule that
	// shows the kind it leads with ({0}: the kind, {1}: StepsOf), which is
	// not always the shortest counterexample of all (the page's): the
	// card leads with the worst class found
	CardShortest string
	// CardTitleFound, CardTitleSafe: a link card's title names the
	// result, as a chat shows the title first ({0}: the page's title;
	// {1}: the kind it leads with, {2}: StepsOf). Safe only of a
	// complete search that found nothing.
	CardTitleFound, CardTitleSafe string
	// CardSooner: the lock itself failed in fewer steps than the harm
	// the card leads with ({0}: that kind, {1}: StepsOf)
	CardSooner string
	// CodeNoteSame: CodeNote for a mutex (nothing differs on the wire);
	// CodeNoteValue: for a lock without TTL (only the random value's
	// length differs)
	CodeNoteSame, CodeNoteValue                                  string
	BoundsTitle, BoundsText, ModelNote                           string
	BadTitle, BadParam, BadLesson, BadRange, BadLengths, BadOnly string
}

// CLIUI is the timeline's command line: a redis-cli of the learner's own.
type CLIUI struct {
	Title, Label, SendTo, Send, ModelNote, HistoryHint string
	// NotSent heads why a typed command was not sent (it stays in the
	// input to be corrected).
	NotSent string
	// Hint: {0} where the command goes (ToOne, ToMany, ToStorage), {1}
	// commands worth trying on this timeline.
	Hint, ToOne, ToMany, ToStorage string
	// Bounds says how small these servers are set up (sim/redisfront:
	// {0} the longest value, {1} the data one server holds).
	Bounds string
	// ValueNote, MemoryNote explain, on a row, the error Redis gives past
	// one of those bounds.
	ValueNote, MemoryNote string
}

// Failure is one kind of failure's name and what it means.
type Failure struct{ Name, Meaning string }

// VerdictUI is the verdict line the Lab and the design grade both show:
// it names the worst class of failure found (sim.Class), so it always
// agrees with the rows of the table below it.
type VerdictUI struct {
	ClassCol string
	Class    map[sim.Class]string
	// ClassNote puts a class after a failure in a timeline's box: "({0})".
	ClassNote string
	// Harm and Broken take the names of the kinds found ({0}); Unknown
	// the depth up to which the search was complete.
	Harm, Broken, Allowed, None, Unknown, Within string
}

// ClassUI is every string of the live class in one language.
type ClassUI struct {
	// WaitingStart: a phone that joined before the teacher started.
	WaitingStart                                                    string
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
	NotOpenTitle, NotOpenText                                       string
	TooBigTitle, TooBigText, BadFormTitle, BadFormText              string
	OriginTitle, OriginText, NotTeacherTitle, NotTeacherText        string
	CookieTitle, CookieText, BackToClass, Unavailable               string
	EndedTitle, EndedText, EndedGoOn                                string
	// the lobby (before the teacher starts) and the one-line join strip
	LobbyHint, StartBtn, QRShow string
	// StartsAt: the lobby's step the class starts at ({0} of {1}: {2},
	// its title); StartsOffPath: a state off the guided path;
	// StartFirst: the button that starts at step 1 instead; Waiting*:
	// a phone before Start, which shows nothing of the lesson
	StartsAt, StartsOffPath, StartFirst string
	WaitingTitle                        string
	// TeacherOffPath: a student's phone while the teacher explores off the
	// guided path (the lesson's own note speaks to the one exploring).
	TeacherOffPath string
	// a question: "N of M answered" before the reveal, the warning when
	// answers are missing, the discussion after it
	AnsweredOf, WarnMissing, RevealAnyway, LastQ, ChangeAnswer, CanChange string
	// moving the class on, ending it, and what it leaves
	// SkipQuestion: the teacher's way past an open question, unanswered
	// (it is asked again when the class comes back).
	SkipQuestion                                                     string
	NextLessonBtn, NextLessonHint, EndAsk, EndConfirm, EndNow        string
	SummaryTitle, SummaryIntro, SummaryCSV, SummaryNone, SummaryBack string
	SummaryLesson, SummaryStep, SummaryQuestion, SummaryAnswer       string
	SummaryChosen, SummaryRight                                      string
	// the CSV's own column heads: votes for this answer, whether it is
	// right (1 or 0), how many answered the question
	CSVVotes, CSVRight, CSVAnswered string
	// how long the summary is kept and who can open it ({0} hours)
	SummaryKeep string
	// a join address phones cannot reach ({0} it, {1} the LAN's)
	Loopback, LoopbackNoLAN string
	// finding classes: the header's and home page's links, the page
	// about teaching
	TeachLink, JoinLink, TeachingTitle, TeachingHTML                 string
	TeachingTable, TeachingSteps, TeachingQuestions, TeachingMinutes string
	TeachingAbout                                                    string
	// a challenge posed to the class (web/class/challenge.go): the box
	// on every screen, the teacher's form and tally, a student's "Tell
	// the class", what a kept result says ({0}: moves), the errors
	ChalPosed, ChalPlay, ChalPose, ChalWhich, ChalPoseBtn, ChalStop string
	ChalSolvedBy, ChalWrongN, ChalBest, ChalNames                   string
	ChalOK, ChalRight, ChalWrong, ChalMoves, ChalHas                string
	ChalName, ChalNameHint, ChalTell, ChalOnlyStudents              string
	ChalNoneTitle, ChalNoneText, ChalNameLong                       string
	ChalMovedOn, ChalAlone                                          string // a challenge the class no longer has
	ChalNotYetTitle, ChalNotYetText, ChalBack                       string
	// a prediction in class counts as it is sent: the first one
	ChalPredictOnce string
	// who joined (here or not, {0}) and what the count means, and
	// locking the class to newcomers; JoinedLockTip follows the hint
	// only while the class is open
	Joined, JoinedHint, JoinedLockTip, LockBtn, UnlockBtn, LockHint string
	LockedNote                                                      string
	LockedShort                                                     string // after the count, once locked
	// a locked class's address and QR code say no one new gets in: the
	// strip's label of the address in JoinAt's place, the note that says
	// how to reopen, the lobby's hint for the phones already in
	JoinClosed, ClosedNote, LobbyHintLocked string
	// the page a new phone gets in a locked class, and its ways on: the
	// class's address again, the lesson alone
	LockedTitle, LockedText, TryAgain, StudyAlone string
	// one client's share of classes ({0}; {1}: the minutes after which
	// a class nobody opens gives its place back) and of live connections
	RoomsClientTitle, RoomsClientText     string
	StreamsClientTitle, StreamsClientText string
}

// DesignUI is every string of the design page and its counterexamples.
type DesignUI struct {
	Title, Intro, HomeHint, LinkText, LinkHint  string
	PieceLabel, PieceHelp, PieceName            map[string]string
	PresetLabel                                 map[string]string // piece.preset
	StartFrom, Current, Own, ThenHelp, NoExtend string
	// ThenLocal follows a script error about a name ({0}) that is a local
	// of an earlier part of the same piece: parts do not share locals.
	ThenLocal                                    string
	TimesLegend, TTLLabel, WorkLabel, Grade      string
	ResultTitle, KindCol, MeaningCol, ClientsCol string
	// Stale marks the grade once a script differs from the one graded.
	Stale string
	// WorkPastTTL: the work before a write ({0}) is not shorter than the
	// TTL ({1}) and nothing extends the lock.
	WorkPastTTL                                    string
	NoneFound, StepsOpen                           string
	StepOpen                                       string // StepsOpen for one step
	Incomplete, Bounds, CodeTitle, CodeNote        string
	BadTitle, BadScript, BadEmpty, BadTooLong      string
	BadParts, BadTTL, BadWork, BadParam, BadPreset string
	// Repeated: a parameter ({0}) the address has more than once
	Repeated                                     string
	BadLink, BadClients, KeptNote, StartOver     string
	KeptCheck                                    string // KeptNote on a fix challenge's form
	RunTitle, RunIntro, BackToGrade, ScriptsUsed string
	RunIntroLibrary                              string // {0}: the library
	RunAllowedTitle                              string // RunTitle for a run that shows no failure
	ErrorReplyNote                               string
	// What the write does: the form's field, its options and help, the
	// sentence the grade's bounds add for it, and a bad value.
	EffectField, EffectHelp, BadEffect string
	EffectLabel, EffectBound           map[string]string // by sim.Effect*
	// RenewField, RenewHelp, RenewLabel (by lockdesign.Renew*): what a
	// holder does when an extend fails; BadRenew: a renew= it cannot be
	// ({0})
	RenewField, RenewHelp, BadRenew string
	RenewLabel                      map[string]string
}

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
	// AndMore counts the events left out; Times follows one sentence
	// said of several equal events, with how many.
	PictureAt, ThisStep, ThisSpan, NoChange, AndMore, Times string
	// ExpiredOn: a lock key's expiry, said with its node
	// ({0} its holder, {1} the node).
	ExpiredOn                                                 string
	HoldsOn, HoldsOnLeft, NoHolder, ClientsNow, StorageNow    string
	WentWrong, ClientState, ClientToken, WaitedFor, WorkedFor string
	// ClockRanOn follows WaitedFor when the clock went past the wait's
	// end ({0}: where it stopped): commands under way (a blocking WAIT,
	// a slow node) were answered later.
	ClockRanOn                                       string
	ResumedBy, CommandTo, ClientNote, VerdictTokenOK string
	// CommandNoReply: a command that got no reply ({3} says why: the
	// node was unreachable); CommandLost: one whose reply the network
	// lost on its way back ({3} the reply and that note).
	CommandNoReply, CommandLost string
	// PausedBy, CrashedBy: the action, as ResumedBy says its own ("A
	// paused"; ClientState is for a client's state, not what it did)
	PausedBy, CrashedBy                                string
	RedlockCount                                       string // {0}'s Redlock round counted: {1}
	VerdictTokenNo, VerdictOK, VerdictNo, Sep, ListSep string
	// ListAnd joins the last two items of a list of places ("the primary
	// and the replica"; ListSep before the others)
	ListAnd          string
	VerdictNoOp      string // a write already done: nothing changed
	Happened         string // {0}: {1} → {2}, what happened at a service or to a connection
	TimedOut         string // {0}: {2}'s {1} → {3}, a modelled service expired a client's session or lease
	NoHolderBelieved string // no key held, yet {0} act as holders
	HandHeld         string // the lock key on {0} holds a value typed by hand
	NoOwnerHeld      string // the lock key on {0} holds a value no client acquired with (a design's INCR)
	// ReleasedKey(Left): a key still on a server whose client let the lock
	// go (it released, or gave up): {0} the client, {1} the node.
	ReleasedKey, ReleasedKeyLeft string
	// CrashedKey(Left): {0} crashed, its key on {1} lives on ({2} left):
	// a key is not a holder, and a crashed client holds nothing.
	CrashedKey, CrashedKeyLeft string
	MutexHeld                  string // no key: {0} each hold their own process's mutex
	ClientSep                  string // between clients in ClientsNow (each may hold a comma)
	// The words above the picture: which lanes it has (Lanes: {0} the
	// list), and what it models of the network (NoLatency; SlowNodes: {0}
	// the nodes, {1} the time; LinkLag: {0} the replication lag) and of a
	// process (PauseModel).
	Lanes, LaneClients, LaneYou, LaneRedis, LanePair, LaneRedlock string
	LaneZK, LaneEtcd, LaneStorage                                 string
	NoLatency, SlowNodes, LinkLag, PauseModel                     string
}

// PicUI holds the timeline picture's own words (the legend's shapes, the
// short names of node faults under their marks, the scroll hint), kept
// apart from UI so the picture's wording lives with the picture.
type PicUI struct {
	// NodeMark: a node fault as its mark's label ({0}: a duration).
	NodeMark map[string]string
	// Legend words for shapes the page's legend did not have.
	Instant, Break, Expired, Deleted, Foreign, New, Now string
	// ScrollHint tells a phone user that the picture scrolls sideways.
	ScrollHint string
}

// EmbedUI is every string of a timeline shown inside another site (an
// embed, its oEmbed answer), of the share box's embed snippets, and of an
// exported picture's caption.
type EmbedUI struct {
	// Open links the embed to the same moment on the site.
	Open string
	// Title, Hint, HTML, Markdown, Address, Copy, Copied: the share
	// box's embed part (the snippets follow Hint).
	Title, Hint, HTML, Markdown, Address, Copy, Copied string
	// PNG is the link to the picture as a PNG; Image the alt text of the
	// Markdown snippet's picture ({0}: the moment's title).
	PNG, Image string
	// Clean is a caption's line when nothing went wrong (yet).
	Clean string
	// StepOf places a step in its lesson ({0} lesson number, {1} lesson
	// title, {2} step, {3} of how many); OffPath a timeline off the
	// lesson's guided path ({0} lesson number).
	StepOf, OffPath string
	// BadTheme, BadURL, Foreign, BadFormat, BadSize, NoURL: 4xx of the
	// embed and the oEmbed endpoint ({0}: the value sent, clipped);
	// NotTimeline: the embed of a challenge answered with a form.
	BadTheme, BadURL, Foreign, BadFormat, BadSize, NoURL, NotTimeline string
	// Loopback warns that the snippets hold this machine's own address.
	Loopback string
	// TooLong is what a PNG says of a timeline too long to draw as one
	// ({0}: its virtual time, {1}: its events).
	TooLong string
}

// ChallengeUI is every string of the challenges in one language.
type ChallengeUI struct {
	Title, Intro, Lesson                             string
	Break, Fix, Predict                              string // the three kinds, as labels
	BreakHow, FixHow, PredictHow                     string // what each kind asks, one line
	Num                                              string // "Challenge {0}.{1}"
	Goal, GoalBreak, GoalFix, GoalPredict            string
	Design, DesignDefault, Bounds                    string
	Clients, Pauses, Crashes, Nodes, Drops, NoFaults string
	PausesAlone                                      string // Pauses where one client takes part: no other's work adds to a pause
	// PausesPastTTL: Pauses ({0}) when each lasts until the lock key's
	// TTL on Redis has run out (a design's fix); OnDesignPage links the
	// design to fix to the design page, which grades it in full.
	PausesPastTTL, OnDesignPage string
	Rules, RulesPause, NoOther  string
	// NoClock: a challenge's bounds leave out the clock jumps and slow
	// nodes its lesson offers (Nodes names the faults that count);
	// NoSlow: they allow clock jumps (Jumps: {0} of them, each {1}
	// forward) but leave out slow nodes
	NoClock, NoSlow, Jumps string
	// Begin is the status before the first move ({0}: par); Solved and
	// SolvedPar name the goal ({2} and {1})
	Moves, Par, NotYet, Begin, Solved, SolvedPar, Why string
	// NodeBack: bringing a node back is a move but no fault
	NodeBack                              string
	ParLink, Next, All, BackLesson, Start string
	Refused, AllowedNow, BackLast         string
	// RefusedMove names the move refused ({0}), before why
	RefusedMove string
	Move        map[sim.Code]string // why a move is refused, by sim.CodeMove*
	MoveNone    string              // CodeMoveSpent when the bounds allow none
	// FixAllowed heads what a fix's search found that any lease allows
	// (not counted); BadParam: a query parameter no challenge takes
	FixAllowed, BadParam                                       string
	Repeated                                                   string // a parameter ({0}) the address has more than once
	LastOne                                                    string // after the course's last challenge
	FixStart, FixCheck, FixSolved, FixNot, FixCut              string
	PredictQ, Yes, No, Right, Wrong, AnswerYes, AnswerNo, Open string
	Answered, SolvedBadge, FixedBadge                          string
	SolvedBadgeOne                                             string // SolvedBadge for one move
	ProgressNoJS, Copy, Copied, Forget, Forgot, Restored       string
	ChallengesOf, Count                                        string // Count: "Challenges: {0} of {1} solved"
	// a challenge made from a timeline
	MadeNum, MadeTitle, MadeNone              string
	MakeTitle, MakeHint, MakeGoal, MakeButton string
}

// EndUI is the ending page's text in one language.
type EndUI struct {
	Title, Intro, ProgressTitle, ProgressNoJS            string
	DoneOf, Finished, NotYet, Checkpoints, NoCheckpoints string
	MapTitle, MapIntro, Pitfall, Breaks, Fix, Lesson     string
	LabTitle, LabText, LabLink, Again                    string
	Rows                                                 []EndRow
}

// LibsUI is the text of the page that grades the lock libraries.
type LibsUI struct {
	Title, Intro, Bounds, Tokens           string
	Library, ColNone, ColPause, ColCrash   string
	ColDrop, Nothing, AllowedOnly, ColLong string
	Expiry, NoExpiry, Model                string
	Open, Fenced, LeftOutTitle, LeftOut    string
	NotYetTitle, NoPause                   string
	NotYet                                 []string
	// Notes: per library ID, how it takes and frees the lock.
	Notes map[string]string
	Link  string // the way to this page from the Lab and the design page
}

// EndRow is one pitfall of the table; Slug names the lesson that shows it.
type EndRow struct{ Pitfall, Breaks, Fix, Slug string }
