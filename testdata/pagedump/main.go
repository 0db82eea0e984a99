// Command pagedump saves what a running Lock Lab serves for every guided
// step of every lesson, in every language the site lists: the page, its
// htmx fragment, its timeline JSON and SVG, every control link one step
// away, and the other page kinds (lesson list, lesson JSON, Lab, design,
// end, errors). Two dumps, before and after a refactor, are compared with
// `diff -r`: the refactor should change no byte a learner sees except
// where it meant to.
//
//	go run ./testdata/pagedump -url http://127.0.0.1:8080 -out /tmp/before
//
// (testdata/ is left out of ./..., so this is a tool, not a test.)
package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

var (
	base  = flag.String("url", "http://127.0.0.1:8080", "the running app")
	out   = flag.String("out", "/tmp/pagedump", "directory to write into")
	langs = flag.String("langs", "en,ja", "languages to walk")
	hops  = flag.Bool("links", true, "also save every control link one step away from a guided step")
)

var client = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

func main() {
	flag.Parse()
	if err := os.MkdirAll(*out, 0o755); err != nil {
		fail(err)
	}
	seen := map[string]bool{}
	var manifest []string
	save := func(kind, u string, hdr map[string]string) string {
		key := kind + " " + u
		if seen[key] {
			return ""
		}
		seen[key] = true
		req, _ := http.NewRequest("GET", *base+u, nil)
		for k, v := range hdr {
			req.Header.Set(k, v)
		}
		resp, err := client.Do(req)
		if err != nil {
			fail(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		sum := sha256.Sum256([]byte(key))
		name := kind + "-" + hex.EncodeToString(sum[:8])
		loc := resp.Header.Get("Location")
		content := fmt.Sprintf("%s\nstatus %d\nlocation %s\ncontent-type %s\n\n", key, resp.StatusCode, loc, resp.Header.Get("Content-Type"))
		if err := os.WriteFile(filepath.Join(*out, name), append([]byte(content), body...), 0o644); err != nil {
			fail(err)
		}
		manifest = append(manifest, name+" "+key)
		return string(body)
	}
	hrefs := regexp.MustCompile(`href="(/[^"#]*)"`)
	for _, lang := range strings.Split(*langs, ",") {
		list := save("page", "/"+lang+"/", nil)
		save("page", "/"+lang+"/end", nil)
		save("page", "/"+lang+"/lab/design", nil)
		save("page", "/"+lang+"/class", nil)
		save("page", "/"+lang+"/no-such-page", nil)
		save("page", "/"+lang+"/lessons/fencing?do=a.nope", nil)
		save("page", "/"+lang+"/lessons/fencing?do=a.acquire,a.acquire", nil)
		slugs := regexp.MustCompile(`href="/`+lang+`/lessons/([a-z0-9-]+)`).FindAllStringSubmatch(list, -1)
		done := map[string]bool{}
		for _, m := range slugs {
			slug := m[1]
			if done[slug] {
				continue
			}
			done[slug] = true
			js := save("json", "/"+lang+"/lessons/"+slug+".json", nil)
			var outline struct {
				Steps []struct {
					URL string `json:"url"`
				} `json:"steps"`
			}
			if err := json.Unmarshal([]byte(js), &outline); err != nil {
				fail(fmt.Errorf("%s: %v", slug, err))
			}
			lab := save("page", "/"+lang+"/lab?lesson="+slug, nil)
			for _, h := range hrefs.FindAllStringSubmatch(lab, -1) {
				if strings.Contains(h[1], "/lessons/") {
					save("page", unescape(h[1]), nil)
				}
			}
			for _, st := range outline.Steps {
				page := save("page", st.URL, nil)
				save("frag", st.URL, map[string]string{"HX-Request": "true"})
				p, q, _ := strings.Cut(st.URL, "?")
				if q != "" {
					q = "?" + q
				}
				save("json", p+"/timeline.json"+q, nil)
				save("svg", p+"/timeline.svg"+q, nil)
				if !*hops {
					continue
				}
				for _, h := range hrefs.FindAllStringSubmatch(page, -1) {
					u := unescape(h[1])
					if strings.HasPrefix(u, p+"?") && !strings.Contains(u, "/static/") {
						save("page", u, nil)
					}
				}
			}
		}
		design := save("page", "/"+lang+"/lab/design", nil)
		_ = design
	}
	sort.Strings(manifest)
	if err := os.WriteFile(filepath.Join(*out, "MANIFEST"), []byte(strings.Join(manifest, "\n")+"\n"), 0o644); err != nil {
		fail(err)
	}
	fmt.Printf("%d responses saved in %s\n", len(manifest), *out)
}

func unescape(s string) string {
	s = strings.ReplaceAll(s, "&amp;", "&")
	if u, err := url.Parse(s); err == nil {
		return u.String()
	}
	return s
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "pagedump:", err)
	os.Exit(1)
}
