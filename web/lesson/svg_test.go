package lesson_test

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/xml"
	"locklab/web/internal/sitetest"
	"locklab/web/internal/webtest"
	"net/http"
	"regexp"
	"strings"
	"testing"
)

// TestTimelineSVG: the export is well-formed SVG that stands alone (its
// one style element is the one the CSP hash allows), shows the same replay
// as the page, and says what went wrong in the page's language.
func TestTimelineSVG(t *testing.T) {
	h := sitetest.Default(t)
	for _, tc := range []struct{ lang, want, tok1, tok2 string }{
		{"en", "took the lock after A", "token 1 ", "token 2 "},
		{"ja", "排他が崩れた", "トークン 1 ", "トークン 2 "},
	} {
		r := webtest.Get(t, h, "/"+tc.lang+"/lessons/fencing/timeline.svg?do="+webtest.Guided)
		if r.Status != http.StatusOK || !strings.HasPrefix(r.Header.Get("Content-Type"), "image/svg+xml") {
			t.Fatalf("%s: status %d, type %q", tc.lang, r.Status, r.Header.Get("Content-Type"))
		}
		d := xml.NewDecoder(strings.NewReader(r.Body))
		for {
			if _, err := d.Token(); err != nil {
				if err.Error() != "EOF" {
					t.Fatalf("%s: not well-formed XML: %v", tc.lang, err)
				}
				break
			}
		}
		style := regexp.MustCompile(`(?s)<style>(.*?)</style>`).FindStringSubmatch(r.Body)
		if style == nil {
			t.Fatalf("%s: no style element", tc.lang)
		}
		sum := sha256.Sum256([]byte(style[1]))
		if csp := r.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "'sha256-"+base64.StdEncoding.EncodeToString(sum[:])+"'") ||
			strings.Contains(csp, "unsafe") || !strings.Contains(csp, "default-src 'none'") {
			t.Errorf("%s: CSP %q does not allow exactly the export's style", tc.lang, csp)
		}
		if strings.Contains(r.Body, "var(--") {
			t.Errorf("%s: the export uses CSS variables, which slide tools do not know", tc.lang)
		}
		// The replay's outcome is in the picture: B's write accepted, A's rejected, one violation.
		for _, want := range []string{tc.tok2, tc.tok1, "⚠1", tc.want, `class="viol"`} {
			if !strings.Contains(r.Body, want) {
				t.Errorf("%s: export lacks %q", tc.lang, want)
			}
		}
		if strings.Contains(r.Body, "⚠2") {
			t.Errorf("%s: more than the one violation of the flagship path", tc.lang)
		}
	}
	// A bad state is the usual error page with the site's policy, not an SVG.
	r := webtest.Get(t, h, "/en/lessons/fencing/timeline.svg?do=a.fly")
	if r.Status != http.StatusBadRequest || strings.Contains(r.Header.Get("Content-Security-Policy"), "sha256-") ||
		!strings.HasPrefix(r.Header.Get("Content-Type"), "text/html") {
		t.Errorf("bad state: status %d, type %q, CSP %q", r.Status, r.Header.Get("Content-Type"), r.Header.Get("Content-Security-Policy"))
	}
	// The lesson page links both downloads.
	page := webtest.MustGet(t, h, "/en/lessons/fencing?do="+webtest.Guided)
	for _, want := range []string{`/en/lessons/fencing/timeline.svg?do=`, `download="locklab-fencing-8-actions.svg"`, `download="locklab-fencing-8-actions.json"`} {
		if !strings.Contains(page, want) {
			t.Errorf("lesson page lacks %q", want)
		}
	}
}
