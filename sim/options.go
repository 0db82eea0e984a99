// options.go holds scenario options: the switches that turn a lesson's fix
// into its failure (release.del, fence.off) on the same timeline.

package sim

import (
	"maps"
	"strings"
)

// OptionSpec is one switch a scenario accepts. The first value is the
// default, the safe design; the others are the variants a lesson compares.
type OptionSpec struct {
	Name   string
	Values []string
}

// Opts maps option name to chosen value, defaults filled in.
type Opts map[string]string

// ParseOptions reads "release.del,fence.off" against a scenario's specs.
// Unknown names, unknown values and repeats are errors.
func (sc *Scenario) ParseOptions(s string) (Opts, error) {
	o := sc.DefaultOpts()
	if len(s) > MaxStateLen {
		return nil, &ActionError{Index: -1, Action: s[:32] + "…", Code: CodeTooLong}
	}
	if s == "" {
		return o, nil
	}
	seen := map[string]bool{}
	for _, p := range strings.Split(s, ",") {
		name, val, ok := strings.Cut(p, ".")
		spec := sc.option(name)
		if !ok || spec == nil || seen[name] {
			return nil, &ActionError{Index: -1, Action: p, Code: CodeUnknownOption}
		}
		if !contains(spec.Values, val) {
			return nil, &ActionError{Index: -1, Action: p, Code: CodeBadOption}
		}
		seen[name] = true
		o[name] = val
	}
	return o, nil
}

// DefaultOpts is every option at its default value.
func (sc *Scenario) DefaultOpts() Opts {
	o := Opts{}
	for _, spec := range sc.Options {
		o[spec.Name] = spec.Values[0]
	}
	return o
}

// FormatOptions is the canonical form: non-default values only, in the
// scenario's order, so the default timeline has no opt= at all.
func (sc *Scenario) FormatOptions(o Opts) string {
	var parts []string
	for _, spec := range sc.Options {
		if v, ok := o[spec.Name]; ok && v != spec.Values[0] {
			parts = append(parts, spec.Name+"."+v)
		}
	}
	return strings.Join(parts, ",")
}

func (sc *Scenario) option(name string) *OptionSpec {
	for i := range sc.Options {
		if sc.Options[i].Name == name {
			return &sc.Options[i]
		}
	}
	return nil
}

func contains(xs []string, x string) bool {
	for _, v := range xs {
		if v == x {
			return true
		}
	}
	return false
}

// AllOptions is every combination of the scenario's option values, the
// defaults first: what a test must cover to cover every variant.
func (sc *Scenario) AllOptions() []Opts {
	combos := []Opts{sc.DefaultOpts()}
	for _, spec := range sc.Options {
		var next []Opts
		for _, o := range combos {
			for _, v := range spec.Values {
				n := maps.Clone(o)
				n[spec.Name] = v
				next = append(next, n)
			}
		}
		combos = next
	}
	return combos
}
