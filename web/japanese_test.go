package web_test

// japanese_test.go: a Japanese page shows Japanese, a Chinese page
// Chinese (every language but English, the registry's fallback). English
// words are allowed only inside code (commands, replies, keys, Lua), in
// the event log's command and reply columns, as a term's gloss in
// full-width parentheses right after it (分布式锁（distributed lock）), and
// from the allow-list below (proper names, product and command names,
// units) — anything else is a string someone forgot to translate.

import (
	"locklab/web/internal/sitetest"
	"locklab/web/internal/webtest"
	"regexp"
	"slices"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"locklab/lessons"
	"locklab/web/links"
)

// allowedEnglish are the words a Japanese page may show outside code:
// names of products, commands, protocols, people and units, written as
// Japanese technical text writes them, and the few English terms a lesson
// glosses in parentheses (壁時計（wall clock）), and "bug", which Chinese
// technical writing writes in Latin letters. Compared case-sensitively.
var allowedEnglish = strings.Fields(`
	Lock Lab Redis Redlock ZooKeeper etcd Kubernetes Lease Lua Go go-redis miniredis redis-server redis-cli
	redsync redlock-py node-redlock Curator InterProcessMutex Jepsen GitHub Stripe PostgreSQL Valkey Sentinel
	antirez Martin Kleppmann Flavio Junqueira DDIA Designing Data-Intensive Applications
	JSON SVG QR URL ID IDs CPU GC TTL TTLs NX PX EX XX OK CAS API HTTP SIGSTOP Unix AOF LAN
	HTML Markdown README Issue Wiki oEmbed PNG Notion Confluence iframe
	SET GET DEL INCR EXPIRE PEXPIRE PTTL SETNX EVAL DELEX IFEQ IFNE WAIT WAITAOF PXAT RPUSH MSET
	mutex liveness exactly-once at-least-once check-and-set compare-and-set
	SyncConnected SESSION_EXPIRED CONNECTION_LOSS ErrSessionExpired NodeDeleted DELETE
	keepalive OK EPHEMERAL_SEQUENTIAL czxid zxid getChildren exists create delete
	LeaseGrant Txn Range Watch LeaderElectionConfig client-go appendfsync always
	Idempotency-Key INSERT ON CONFLICT
	MB KB maxmemory proto-max-bulk-len APPEND SETRANGE
	ms s m nil null fsync tickTime GUID UUID Java JavaScript SUSPENDED RECONNECTED Debian GA goroutine map
	herd effect check-then-act wall clock set if not watch
	bug
`)

// englishWord finds runs of Latin letters (with inner hyphens, dots or
// apostrophes) of two letters or more: one letter is a client (A, B).
var englishWord = regexp.MustCompile(`[A-Za-z][A-Za-z'_-]*[A-Za-z]`)

// skipElement: text inside these is code, a reply, or not shown.
func skipElement(n *html.Node) bool {
	switch n.Data {
	case "code", "pre", "kbd", "samp", "script", "style", "title", "template":
		return true
	}
	for _, a := range n.Attr {
		if a.Key == "class" {
			for _, c := range strings.Fields(a.Val) {
				// the event log's command and reply columns; a language
				// switch is written in the other language on purpose.
				if c == "reply" || c == "cmd" || c == "lang-switch" || c == "prompt" {
					return true
				}
			}
		}
		if a.Key == "lang" && a.Val == "en" {
			return true
		}
	}
	return false
}

// visibleText collects the text a reader sees (SVG labels included).
func visibleText(t *testing.T, page string) string {
	t.Helper()
	doc, err := html.Parse(strings.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode && skipElement(n) {
			return
		}
		if n.Type == html.TextNode {
			b.WriteString(n.Data)
			b.WriteString(" ")
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	return b.String()
}

// codeLike: a token that is a key, a path, a URL, a file or an action
// (lock:order:42, /locks/order-42, fenced-write.lua, a.acquire) is code
// even outside a code element.
var codeLike = regexp.MustCompile(`[:/.=<>‹›_@#]`)

// lockValue: a random lock value, hex, maybe cut short with "…" (the
// timeline's label of a GET reply): data, not a word.
var lockValue8 = regexp.MustCompile(`^[0-9a-f]{6,}…?$`)

func isLockValue(tok string) bool {
	return lockValue8.MatchString(tok) && strings.ContainsAny(tok, "0123456789")
}

// badTypography: Japanese in ASCII parentheses, "(正解)", where Japanese
// text takes full-width ones, and a doubled "：" (a label ending in one
// and a template adding another).
var badTypography = regexp.MustCompile(`\([^()]*[\p{Hiragana}\p{Katakana}\p{Han}][^()]*\)|.{0,30}：\s*：.{0,10}`)

// gloss: an English term in full-width parentheses right after the word
// it glosses (壁時計（wall clock）, 围栏令牌（fencing token）): the course
// names a concept's English term once, where it introduces it.
var gloss = regexp.MustCompile(`([\p{Han}\p{Hiragana}\p{Katakana}])\s?（[A-Za-z][A-Za-z' -]*[A-Za-z]）`)

// englishIn lists the words of text that are not allowed.
// storedValue: the storage record's value in quotes, “written by B”, is
// data the storage holds and is shown as it is in every language (README,
// "Languages as data"), not prose.
var storedValue = regexp.MustCompile(`“written by [A-Z]”`)

func englishIn(text string) []string {
	var out []string
	text = gloss.ReplaceAllString(storedValue.ReplaceAllString(text, ""), "$1")
	for _, tok := range strings.Fields(text) {
		trimmed := strings.Trim(tok, "。、．.,:：)）(（「」“”\"")
		if codeLike.MatchString(trimmed) || isLockValue(trimmed) {
			continue
		}
		for _, w := range englishWord.FindAllString(tok, -1) {
			if !slices.Contains(allowedEnglish, w) && !slices.Contains(out, w) {
				out = append(out, w)
			}
		}
	}
	return out
}

func TestEnglishInJapanesePagesFails(t *testing.T) {
	// The checker itself: it must catch a forgotten string, and let code
	// and allowed names through.
	page := `<p>ロックは <code>SET key value NX PX</code> で取る。Redis が OK を返す。written by B</p>`
	if got := englishIn(visibleText(t, page)); !slices.Equal(got, []string{"written", "by"}) {
		t.Fatalf("englishIn = %v, want [written by]", got)
	}
}

// TestPagesInTheirLanguage visits, in every language but English, every
// page a learner can reach on the guided path, the lesson list, the Lab,
// the ending page and an error page, and fails on an English word outside
// code and replies.
func TestPagesInTheirLanguage(t *testing.T) {
	h := sitetest.Default(t)
	course, err := lessons.Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, lang := range []string{"ja", "zh"} {
		urls := []string{"/" + lang + "/", "/" + lang + "/end", "/" + lang + "/lessons/fencing?do=a.acquire,a.pause,wait.10s,b.acquire,b.write,a.resume,a.write&opt=fence.off&lab=lesson%3Dfencing%26opt%3Dfence.off", "/" + lang + "/lab", "/" + lang + "/lab?lesson=exactly-once", "/" + lang + "/lab?lesson=redlock"}
		for _, l := range course.List(lang) {
			for _, st := range l.Steps {
				urls = append(urls, links.Lesson(l)+links.Query(st.Do, st.Opt))
			}
		}
		for _, u := range urls {
			body := webtest.MustGet(t, h, u)
			text := visibleText(t, body)
			if bad := englishIn(text); len(bad) > 0 {
				t.Errorf("%s shows English: %v", u, bad)
			}
			if bad := badTypography.FindAllString(text, -1); len(bad) > 0 {
				t.Errorf("%s: typography slips %q (full-width （）, one ：)", u, bad)
			}
		}
		// An error page, through its own status.
		if bad := englishIn(visibleText(t, webtest.Get(t, h, "/"+lang+"/nope").Body)); len(bad) > 0 {
			t.Errorf("/%s/nope shows English: %v", lang, bad)
		}
	}
}
