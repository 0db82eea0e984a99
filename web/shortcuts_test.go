package web_test

import (
	"locklab/web/internal/sitetest"
	"locklab/web/internal/webtest"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestShortcutsListed: every key static/js/app.js answers is in the "?"
// dialog of both languages (the digits as one range).
func TestShortcutsListed(t *testing.T) {
	js, err := os.ReadFile("../static/js/app.js")
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, m := range regexp.MustCompile(`case "([^"]+)":`).FindAllStringSubmatch(string(js), -1) {
		k := m[1]
		if k >= "1" && k <= "9" {
			k = "1–3"
		}
		// the keys a clicker sends, as the dialog names them
		if named, ok := map[string]string{" ": "Space", "ArrowRight": "→", "ArrowLeft": "←", "PageDown": "PageDown", "PageUp": "PageUp"}[k]; ok {
			k = named
		} else if len([]rune(k)) > 3 { // not a key (an event type, a state)
			continue
		}
		keys = append(keys, k)
	}
	if len(keys) < 5 {
		t.Fatalf("found only %v in app.js", keys)
	}
	h := sitetest.Default(t)
	for _, lang := range []string{"en", "ja"} {
		page := webtest.MustGet(t, h, "/"+lang+"/lessons/fencing")
		i := strings.Index(page, `<dialog id="shortcuts"`)
		if i < 0 {
			t.Fatalf("%s: no shortcuts dialog", lang)
		}
		dialog := page[i:]
		dialog = dialog[:strings.Index(dialog, "</dialog>")]
		// a <kbd> may hold several keys that do the same ("← PageUp")
		var listed []string
		for _, m := range regexp.MustCompile(`<kbd>([^<]*)</kbd>`).FindAllStringSubmatch(dialog, -1) {
			listed = append(listed, m[1])
			listed = append(listed, strings.Fields(m[1])...)
		}
		for _, k := range keys {
			if !slices.Contains(listed, k) {
				t.Errorf("%s: the shortcuts dialog does not list %q", lang, k)
			}
		}
	}
}
