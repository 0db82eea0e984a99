package webtest

import _ "embed"

// AxeSource is axe-core (vendored in axe/, its version and licence
// beside it), injected into a page to check it for accessibility.
//
//go:embed axe/axe.min.js
var AxeSource string

// AxeDisabled are axe rules switched off, each with why it does not
// apply to these pages. Keep it empty unless a rule cannot apply.
var AxeDisabled = map[string]string{}

// AxeViolation is one failed axe rule, with up to three of its nodes.
type AxeViolation struct {
	ID     string   `json:"id"`
	Impact string   `json:"impact"`
	Help   string   `json:"help"`
	Nodes  []string `json:"nodes"`
}
