#!/usr/bin/env bash
# Builds static/vendor/editor.min.js from editor.js and the npm packages
# pinned in package-lock.json, and the licences of every package bundled
# into static/vendor/editor.LICENSES. The same lock file gives the same
# bytes: `npm ci` installs exactly what it records (no scripts run), and
# esbuild's options below are fixed. .ci/run rebuilds and fails on a diff.
#
#   bash static/editor/build.sh           # rebuild
#   npm --prefix static/editor outdated   # what newer versions exist
set -euo pipefail
cd "$(dirname "$0")"
npm ci --ignore-scripts --no-audit --no-fund --loglevel=error
# esbuild's own binary comes from its platform package; run it directly
# (its install script, which --ignore-scripts skipped, only checks it).
bin=$(node -e 'const p=require("esbuild/package.json");const o=require("os");const plat={"linux":"linux","darwin":"darwin"}[o.platform()];const arch={"x64":"x64","arm64":"arm64"}[o.arch()];process.stdout.write(require.resolve(`@esbuild/${plat}-${arch}/bin/esbuild`))')
# One patch, to keep the site's CSP strict: style-mod, which CodeMirror
# uses for its base styles, writes them into a <style> element in a
# document (the CSP refuses that) and into a constructed stylesheet only in
# a shadow root. The copy bundled here uses the constructed stylesheet in a
# document too (every browser the site supports has adoptedStyleSheets).
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
node -e '
const fs = require("fs"), src = fs.readFileSync("node_modules/style-mod/src/style-mod.js", "utf8");
const from = "if (!root.head && root.adoptedStyleSheets && win.CSSStyleSheet) {";
if (!src.includes(from)) { console.error("build.sh: style-mod changed; review its patch"); process.exit(1); }
fs.writeFileSync(process.argv[1] + "/style-mod.js", src.replace(from, "if (root.adoptedStyleSheets && win.CSSStyleSheet) {"));
' "$tmp"
"$bin" editor.js --alias:style-mod="$tmp/style-mod.js" --bundle --minify --format=iife --target=es2020 --charset=utf8 --legal-comments=none \
  --metafile=meta.json --outfile=../vendor/editor.min.js --log-level=warning
# The licences of what went into the bundle, one after another.
node -e '
const fs = require("fs"), meta = JSON.parse(fs.readFileSync("meta.json", "utf8"));
const pkgs = new Set(["style-mod"]); // bundled from its patched copy (above)
for (const f of Object.keys(meta.inputs)) {
  const m = f.match(/node_modules\/((?:@[^/]+\/)?[^/]+)\//);
  if (m) pkgs.add(m[1]);
}
let out = "Licences of the npm packages bundled into editor.min.js (see README.md).\n";
for (const p of [...pkgs].sort()) {
  const dir = "node_modules/" + p, pj = JSON.parse(fs.readFileSync(dir + "/package.json", "utf8"));
  const lic = fs.readdirSync(dir).find((f) => /^licen[cs]e/i.test(f));
  out += "\n==== " + p + " " + pj.version + " (" + pj.license + ") ====\n\n" + (lic ? fs.readFileSync(dir + "/" + lic, "utf8").trim() + "\n" : "(no licence file in the package)\n");
}
fs.writeFileSync("../vendor/editor.LICENSES", out);
'
rm -f meta.json
sha256sum ../vendor/editor.min.js
wc -c ../vendor/editor.min.js
