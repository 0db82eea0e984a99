// raster_css.go reads export.css for the PNG export: its rules, matched
// to the SVG's elements and cascaded as a browser does, so the PNG takes
// its colours from the same file as the SVG and the two cannot drift.

package picture

import (
	"cmp"
	"fmt"
	"image/color"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// cssRule is one selector of a rule with its declarations (a rule with a
// selector list is one cssRule for each selector).
type cssRule struct {
	sel   []compound // descendant combinators only: ancestors first
	spec  [2]int     // classes, element names
	order int        // the rule's place in the file
	decls []decl
}

// compound is one step of a selector: an element name or "" (any), and
// classes the element must all have.
type compound struct {
	name    string
	classes []string
}

// decl is one declaration, parsed once: it sets its property on a style.
type decl struct {
	prop string
	set  func(*style)
}

// exportRules is export.css, parsed once.
var exportRules = sync.OnceValues(func() ([]cssRule, error) { return parseCSS(exportStyle) })

// parseCSS reads the subset of CSS export.css is written in: rules of
// class and element selectors with descendant combinators, and the
// declarations style understands. Anything else is an error, so a rule
// added to export.css that the PNG would draw wrong fails the tests
// instead of going unnoticed.
func parseCSS(src string) ([]cssRule, error) {
	for {
		i := strings.Index(src, "/*")
		if i < 0 {
			break
		}
		j := strings.Index(src[i+2:], "*/")
		if j < 0 {
			return nil, fmt.Errorf("css: unclosed comment")
		}
		src = src[:i] + " " + src[i+2+j+2:]
	}
	var rules []cssRule
	for order := 0; strings.TrimSpace(src) != ""; order++ {
		open := strings.IndexByte(src, '{')
		end := strings.IndexByte(src, '}')
		if open < 0 || end < open {
			return nil, fmt.Errorf("css: bad rule near %q", strings.TrimSpace(src))
		}
		sels, body := src[:open], src[open+1:end]
		src = src[end+1:]
		decls, err := parseDecls(body)
		if err != nil {
			return nil, err
		}
		for s := range strings.SplitSeq(sels, ",") {
			r := cssRule{order: order, decls: decls}
			for part := range strings.FieldsSeq(s) {
				c, err := parseCompound(part)
				if err != nil {
					return nil, err
				}
				r.sel = append(r.sel, c)
				r.spec[0] += len(c.classes)
				if c.name != "" {
					r.spec[1]++
				}
			}
			if len(r.sel) == 0 {
				return nil, fmt.Errorf("css: empty selector before %q", body)
			}
			rules = append(rules, r)
		}
	}
	return rules, nil
}

func parseCompound(s string) (compound, error) {
	if strings.ContainsAny(s, ">+~:[]#*") {
		return compound{}, fmt.Errorf("css: selector %q: only element names, classes and descendants", s)
	}
	parts := strings.Split(s, ".")
	return compound{name: parts[0], classes: parts[1:]}, nil
}

func parseDecls(body string) ([]decl, error) {
	var ds []decl
	for d := range strings.SplitSeq(body, ";") {
		prop, val, ok := strings.Cut(d, ":")
		if !ok {
			if strings.TrimSpace(d) != "" {
				return nil, fmt.Errorf("css: bad declaration %q", d)
			}
			continue
		}
		prop, val = strings.TrimSpace(prop), strings.TrimSpace(val)
		set, err := parseProp(prop, val)
		if err != nil {
			return nil, fmt.Errorf("css: %s: %s: %w", prop, val, err)
		}
		ds = append(ds, decl{prop, set})
	}
	return ds, nil
}

// parseProp parses one property's value into a setter. font-family is
// read and dropped: the PNG has its own fonts (raster_font.go).
func parseProp(prop, val string) (func(*style), error) {
	switch prop {
	case "font-family":
		return func(*style) {}, nil
	case "fill", "stroke":
		p, err := parsePaint(val)
		if err != nil {
			return nil, err
		}
		if prop == "fill" {
			return func(s *style) { s.fill = p }, nil
		}
		return func(s *style) { s.stroke = p }, nil
	case "opacity", "fill-opacity", "stroke-opacity":
		v, err := strconv.ParseFloat(val, 64)
		if err != nil || v < 0 || v > 1 {
			return nil, fmt.Errorf("not a number from 0 to 1")
		}
		switch prop {
		case "opacity":
			return func(s *style) { s.opacity = v }, nil
		case "fill-opacity":
			return func(s *style) { s.fillOpacity = v }, nil
		}
		return func(s *style) { s.strokeOpacity = v }, nil
	case "stroke-width", "font-size", "stroke-miterlimit":
		v, err := parseLength(val)
		if err != nil {
			return nil, err
		}
		switch prop {
		case "stroke-width":
			return func(s *style) { s.strokeWidth = v }, nil
		case "font-size":
			return func(s *style) { s.fontSize = v }, nil
		}
		return func(s *style) { s.miterLimit = v }, nil
	case "font-weight":
		w, ok := map[string]int{"normal": 400, "bold": 700}[val]
		if !ok {
			n, err := strconv.Atoi(val)
			if err != nil || n < 1 || n > 1000 {
				return nil, fmt.Errorf("not a weight")
			}
			w = n
		}
		return func(s *style) { s.fontWeight = w }, nil
	case "stroke-dasharray":
		d, err := parseDashes(val)
		if err != nil {
			return nil, err
		}
		return func(s *style) { s.dash = d }, nil
	case "stroke-linecap":
		if !slices.Contains([]string{"butt", "round", "square"}, val) {
			return nil, fmt.Errorf("unknown cap")
		}
		return func(s *style) { s.lineCap = val }, nil
	case "stroke-linejoin":
		if !slices.Contains([]string{"miter", "round", "bevel"}, val) {
			return nil, fmt.Errorf("unknown join")
		}
		return func(s *style) { s.lineJoin = val }, nil
	case "text-anchor":
		if !slices.Contains([]string{"start", "middle", "end"}, val) {
			return nil, fmt.Errorf("unknown anchor")
		}
		return func(s *style) { s.textAnchor = val }, nil
	}
	return nil, fmt.Errorf("a property the PNG export does not draw")
}

// parseLength reads a number of user units, with or without "px".
func parseLength(val string) (float64, error) {
	v, err := strconv.ParseFloat(strings.TrimSuffix(val, "px"), 64)
	if err != nil || v < 0 {
		return 0, fmt.Errorf("not a length")
	}
	return v, nil
}

// parseDashes reads a dash array; an odd list repeats, as in SVG.
func parseDashes(val string) ([]float64, error) {
	if val == "none" {
		return nil, nil
	}
	var d []float64
	for f := range strings.FieldsSeq(strings.ReplaceAll(val, ",", " ")) {
		v, err := parseLength(f)
		if err != nil {
			return nil, err
		}
		d = append(d, v)
	}
	if len(d)%2 == 1 {
		d = append(d, d...)
	}
	return d, nil
}

// paint is a fill or stroke: none, a colour, or a pattern by id.
type paint struct {
	none    bool
	c       color.NRGBA
	pattern string
}

func parsePaint(val string) (paint, error) {
	switch {
	case val == "none":
		return paint{none: true}, nil
	case strings.HasPrefix(val, "url(#") && strings.HasSuffix(val, ")"):
		return paint{pattern: val[5 : len(val)-1]}, nil
	}
	if named, ok := map[string]string{"white": "#ffffff", "black": "#000000"}[val]; ok {
		val = named
	}
	hex := strings.TrimPrefix(val, "#")
	if len(hex) == 3 {
		hex = string([]byte{hex[0], hex[0], hex[1], hex[1], hex[2], hex[2]})
	}
	n, err := strconv.ParseUint(hex, 16, 32)
	if len(hex) != 6 || val[0] != '#' || err != nil {
		return paint{}, fmt.Errorf("not a colour the PNG export knows")
	}
	return paint{c: color.NRGBA{uint8(n >> 16), uint8(n >> 8), uint8(n), 255}}, nil
}

// matches reports whether r applies to the element at the end of path
// (the element and its ancestors, outermost first): its last compound
// matches the element, the others ancestors in order.
func (r *cssRule) matches(path []*node) bool {
	last := len(r.sel) - 1
	if !r.sel[last].matches(path[len(path)-1]) {
		return false
	}
	i := len(path) - 2
	for k := last - 1; k >= 0; k-- {
		for i >= 0 && !r.sel[k].matches(path[i]) {
			i--
		}
		if i < 0 {
			return false
		}
		i--
	}
	return true
}

func (c compound) matches(n *node) bool {
	if c.name != "" && c.name != n.name {
		return false
	}
	for _, cl := range c.classes {
		if !slices.Contains(n.classes, cl) {
			return false
		}
	}
	return true
}

// cascade applies to s the declarations of every rule that matches the
// element at the end of path, the more specific last, then the later.
func cascade(rules []cssRule, path []*node, s *style) {
	var hit []*cssRule
	for i := range rules {
		if rules[i].matches(path) {
			hit = append(hit, &rules[i])
		}
	}
	slices.SortStableFunc(hit, func(a, b *cssRule) int {
		if c := cmp.Compare(a.spec[0], b.spec[0]); c != 0 {
			return c
		}
		if c := cmp.Compare(a.spec[1], b.spec[1]); c != 0 {
			return c
		}
		return cmp.Compare(a.order, b.order)
	})
	for _, r := range hit {
		for _, d := range r.decls {
			d.set(s)
		}
	}
}
