// Package static holds Lock Lab's stylesheet, original SVG art, the
// vendored htmx and the code editor bundled from npm packages by
// editor/build.sh (see vendor/README.md for versions and licences),
// embedded so the binary runs from any directory. The editor's sources
// and lock file (editor/) are not embedded.
package static

import "embed"

// FS is every file the pages load.
//
//go:embed css img js vendor/htmx.min.js vendor/htmx.LICENSE vendor/editor.min.js vendor/editor.LICENSES
var FS embed.FS
