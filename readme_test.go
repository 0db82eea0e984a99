package main

import (
	"bufio"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// readmeMaxLines is how long README.md may be: it is the index a
// newcomer reads first; everything else lives in docs/.
const readmeMaxLines = 250

// docRoots are what TestDocLinks reads: README.md and every Markdown
// file under these folders.
var docRoots = []string{"README.md", "docs", "lessons"}

var (
	// inlineLink is a Markdown link or image, [text](target) or
	// ![alt](target), with an optional title; the target may be written
	// in angle brackets.
	inlineLink = regexp.MustCompile(`!?\[[^\]]*\]\(\s*(<[^>]*>|[^)\s]+)(?:\s+"[^"]*")?\s*\)`)
	// refDef is a reference definition, [name]: target.
	refDef = regexp.MustCompile(`^\s{0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)`)
	// codeSpan is inline code, whose text is not Markdown.
	codeSpan = regexp.MustCompile("`+[^`]*`+")
)

// TestDocLinks fails on a relative link or image in README.md, docs/ or
// lessons/ whose file does not exist, and on a README.md longer than
// readmeMaxLines lines.
func TestDocLinks(t *testing.T) {
	broken, err := brokenDocLinks(".")
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range broken {
		t.Error(b)
	}
	n, err := lineCount("README.md")
	if err != nil {
		t.Fatal(err)
	}
	if n > readmeMaxLines {
		t.Errorf("README.md has %d lines; keep it to %d and move the rest into docs/", n, readmeMaxLines)
	}
}

// TestDocLinksFindsBroken: the checker reports a link to a missing file,
// with its file and line, and lets through what is not a file link.
func TestDocLinksFindsBroken(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		t.Helper()
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("README.md", "# x\n\nSee [the docs](docs/README.md) and [gone](docs/gone.md#part).\n")
	write("docs/README.md", "Back [up](../README.md?plain=1), [web](https://example.org/x.md), "+
		"[mail](mailto:a@example.org), [here](#top), ![art](img/missing.svg)\n\n"+
		"```\n[in code](nowhere.md)\n```\n\n`[inline](nowhere.md)` and [ref]: ../nothing.md\n\n[def]: ../absent.md\n")
	write("lessons/en/01-x.md", "[a lesson link](../../docs/README.md)\n")
	broken, err := brokenDocLinks(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"README.md:3: docs/gone.md#part",
		"docs/README.md:1: img/missing.svg",
		"docs/README.md:9: ../absent.md",
	}
	if strings.Join(broken, "\n") != strings.Join(want, "\n") {
		t.Errorf("broken links:\n%s\nwant:\n%s", strings.Join(broken, "\n"), strings.Join(want, "\n"))
	}
}

// brokenDocLinks lists, as "file:line: target", every relative link in
// the documentation under root that does not resolve to an existing file
// or folder.
func brokenDocLinks(root string) ([]string, error) {
	var files []string
	for _, r := range docRoots {
		p := filepath.Join(root, r)
		info, err := os.Stat(p)
		if err != nil {
			if os.IsNotExist(err) && r != "README.md" {
				continue
			}
			return nil, err
		}
		if !info.IsDir() {
			files = append(files, r)
			continue
		}
		err = filepath.WalkDir(p, func(q string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.IsDir() && strings.EqualFold(filepath.Ext(q), ".md") {
				rel, err := filepath.Rel(root, q)
				if err != nil {
					return err
				}
				files = append(files, filepath.ToSlash(rel))
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	var broken []string
	for _, f := range files {
		links, err := fileLinks(filepath.Join(root, filepath.FromSlash(f)))
		if err != nil {
			return nil, err
		}
		for _, l := range links {
			p, ok := localPath(l.target)
			if !ok {
				continue
			}
			var resolved string
			if strings.HasPrefix(p, "/") { // GitHub reads these from the repository's top
				resolved = path.Clean(strings.TrimPrefix(p, "/"))
			} else {
				resolved = path.Join(path.Dir(f), p)
			}
			if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(resolved))); err != nil {
				broken = append(broken, fmt.Sprintf("%s:%d: %s", f, l.line, l.target))
			}
		}
	}
	return broken, nil
}

// link is one link target and the line it is on.
type link struct {
	line   int
	target string
}

// fileLinks reads the link targets of one Markdown file, leaving out
// fenced code blocks and inline code.
func fileLinks(name string) ([]link, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []link
	fence := "" // the fence that opened the code block we are in
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		trimmed := strings.TrimLeft(line, " ")
		if fence != "" {
			if closesFence(trimmed, fence) {
				fence = ""
			}
			continue
		}
		if marker := fenceOf(trimmed); marker != "" {
			fence = marker
			continue
		}
		line = codeSpan.ReplaceAllString(line, "")
		for _, m := range inlineLink.FindAllStringSubmatch(line, -1) {
			out = append(out, link{n, strings.Trim(m[1], "<>")})
		}
		if m := refDef.FindStringSubmatch(line); m != nil {
			out = append(out, link{n, strings.Trim(m[1], "<>")})
		}
	}
	return out, sc.Err()
}

// fenceOf is the fence (``` or ~~~, three or more) a line opens a code
// block with, or "".
func fenceOf(trimmed string) string {
	for _, c := range []string{"`", "~"} {
		if strings.HasPrefix(trimmed, c+c+c) {
			return strings.Repeat(c, len(trimmed)-len(strings.TrimLeft(trimmed, c)))
		}
	}
	return ""
}

// closesFence reports whether a line ends the code block opened with
// fence: the same character, at least as many, and nothing else.
func closesFence(trimmed, fence string) bool {
	run := len(trimmed) - len(strings.TrimLeft(trimmed, fence[:1]))
	return run >= len(fence) && strings.TrimSpace(trimmed[run:]) == ""
}

// localPath is the file a link target names, without its query and
// fragment and with its escapes decoded; ok is false for a link that
// names no file here (a web address, mail, an anchor in the same page).
func localPath(target string) (p string, ok bool) {
	lower := strings.ToLower(target)
	for _, external := range []string{"http://", "https://", "mailto:"} {
		if strings.HasPrefix(lower, external) {
			return "", false
		}
	}
	if i := strings.IndexAny(target, "?#"); i >= 0 {
		target = target[:i]
	}
	if target == "" {
		return "", false
	}
	if u, err := url.PathUnescape(target); err == nil {
		target = u
	}
	return target, true
}

// lineCount is how many lines a file has.
func lineCount(name string) (int, error) {
	b, err := os.ReadFile(name)
	if err != nil {
		return 0, err
	}
	n := strings.Count(string(b), "\n")
	if len(b) > 0 && b[len(b)-1] != '\n' {
		n++
	}
	return n, nil
}
