// Package static holds Lock Lab's stylesheet, original SVG art and the
// vendored htmx (see vendor/README.md for its version and licence),
// embedded so the binary runs from any directory.
package static

import "embed"

// FS is every file the pages load.
//
//go:embed css img js vendor/htmx.min.js vendor/htmx.LICENSE
var FS embed.FS
