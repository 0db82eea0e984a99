#!/usr/bin/env bash
# Re-vendor htmx from the npm registry package "htmx.org".
#
# Usage: static/vendor/update.sh [VERSION]
#   VERSION defaults to the newest 2.x release (npm view 'htmx.org@2' version).
#
# Writes, next to this script:
#   htmx.min.js    <- package/dist/htmx.min.js
#   htmx.LICENSE   <- package/LICENSE
#   README.md      <- regenerated with the version, licence and sha256
# and prints the sha256 of the new htmx.min.js.
set -euo pipefail

PKG=htmx.org
DEST="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

VERSION="${1:-}"
if [[ -z "$VERSION" ]]; then
  # `npm view pkg@range version` prints one line per match; take the highest.
  VERSION="$(npm view "${PKG}@2" version --json | node -e '
    let v = JSON.parse(require("fs").readFileSync(0, "utf8"));
    if (!Array.isArray(v)) v = [v];
    const key = s => s.split(/[.-]/).slice(0, 3).map(Number);
    v = v.filter(s => !s.includes("-")).sort((a, b) => {
      const x = key(a), y = key(b);
      for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i] - y[i];
      return 0;
    });
    process.stdout.write(v[v.length - 1]);
  ')"
fi
if ! [[ "$VERSION" =~ ^[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.]+)?$ ]]; then
  echo "update.sh: bad version '$VERSION'" >&2
  exit 2
fi

TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT

# npm pack downloads the tarball and checks it against the registry's integrity.
WANT_INTEGRITY="$(npm view "${PKG}@${VERSION}" dist.integrity)"
( cd "$TMP" && npm pack "${PKG}@${VERSION}" --json --silent > pack.json )
TGZ="$(node -e 'process.stdout.write(JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"))[0].filename)' "$TMP/pack.json")"
GOT_INTEGRITY="$(node -e 'process.stdout.write(JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"))[0].integrity)' "$TMP/pack.json")"
if [[ "$WANT_INTEGRITY" != "$GOT_INTEGRITY" ]]; then
  echo "update.sh: integrity mismatch: registry $WANT_INTEGRITY, tarball $GOT_INTEGRITY" >&2
  exit 1
fi

tar -xzf "$TMP/$TGZ" -C "$TMP"
PKGDIR="$TMP/package"

NAME="$(node -p 'require(process.argv[1]).name' "$PKGDIR/package.json")"
GOT_VERSION="$(node -p 'require(process.argv[1]).version' "$PKGDIR/package.json")"
LICENSE_NAME="$(node -p 'require(process.argv[1]).license' "$PKGDIR/package.json")"
if [[ "$NAME" != "$PKG" || "$GOT_VERSION" != "$VERSION" ]]; then
  echo "update.sh: unexpected package $NAME@$GOT_VERSION" >&2
  exit 1
fi
[[ -s "$PKGDIR/dist/htmx.min.js" ]] || { echo "update.sh: dist/htmx.min.js missing" >&2; exit 1; }

LICENSE_FILE=""
for f in LICENSE LICENSE.md LICENSE.txt LICENCE license; do
  if [[ -f "$PKGDIR/$f" ]]; then LICENSE_FILE="$PKGDIR/$f"; break; fi
done
[[ -n "$LICENSE_FILE" ]] || { echo "update.sh: no licence file in package" >&2; exit 1; }

install -m 0644 "$PKGDIR/dist/htmx.min.js" "$DEST/htmx.min.js"
install -m 0644 "$LICENSE_FILE" "$DEST/htmx.LICENSE"

SHA256="$(sha256sum "$DEST/htmx.min.js" | cut -d' ' -f1)"
SIZE="$(wc -c < "$DEST/htmx.min.js" | tr -d ' ')"

cat > "$DEST/README.md" <<EOF
# static/vendor

Third-party files served as-is by Lock Lab. Nothing here is loaded from a CDN.

## htmx

| field | value |
| --- | --- |
| package | \`${NAME}\` (npm registry) |
| version | \`${GOT_VERSION}\` |
| licence | \`${LICENSE_NAME}\` (from the package's \`package.json\`; full text in \`htmx.LICENSE\`) |
| file | \`htmx.min.js\` = \`package/dist/htmx.min.js\` from the package tarball (${SIZE} bytes) |
| sha256 of \`htmx.min.js\` | \`${SHA256}\` |
| tarball integrity | \`${GOT_INTEGRITY}\` |

### Updating

From the repository root:

\`\`\`sh
npm view 'htmx.org@2' version        # list the 2.x releases; pick the newest
bash static/vendor/update.sh 2.x.y   # or with no argument: the newest 2.x
sha256sum static/vendor/htmx.min.js  # matches the value the script printed
\`\`\`

\`update.sh\` runs \`npm pack htmx.org@VERSION\` in a temporary directory,
checks the tarball against the registry's \`dist.integrity\`, copies
\`package/dist/htmx.min.js\` to \`htmx.min.js\` and \`package/LICENSE\` to
\`htmx.LICENSE\`, rewrites this README with the new version and sha256, and
prints the sha256. Review the diff, then commit the changed files together.

By hand, the same steps are:

\`\`\`sh
tmp=\$(mktemp -d) && cd "\$tmp"
npm pack htmx.org@${GOT_VERSION}
tar -xzf htmx.org-${GOT_VERSION}.tgz
cp package/dist/htmx.min.js /path/to/repo/static/vendor/htmx.min.js
cp package/LICENSE          /path/to/repo/static/vendor/htmx.LICENSE
sha256sum /path/to/repo/static/vendor/htmx.min.js
\`\`\`

Note: the npm \`latest\` tag may point at a newer major (htmx 4.x exists);
this project pins the 2.x line on purpose, so always pass a 2.x version.

### Strict CSP notes (htmx 2.x)

- htmx injects a small inline \`<style>\` for \`.htmx-indicator\` unless
  \`htmx.config.includeIndicatorStyles\` is \`false\`; with a CSP that forbids
  inline styles, set that via
  \`<meta name="htmx-config" content='{"includeIndicatorStyles":false}'>\`
  and style the indicator from the site's own stylesheet (or give it a nonce
  with \`htmx.config.inlineStyleNonce\`).
- \`hx-on*\` attributes, \`js:\`/\`javascript:\` values in \`hx-vals\`/\`hx-headers\`
  and event filters need \`eval\`; they are not usable without
  \`'unsafe-eval'\`. \`htmx.config.allowEval = false\` makes that explicit.
EOF

echo "htmx.org ${GOT_VERSION} (${LICENSE_NAME}) -> ${DEST}/htmx.min.js"
echo "sha256 ${SHA256}  htmx.min.js"
