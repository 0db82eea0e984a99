#!/usr/bin/env bash
# Rebuilds the fonts the PNG export draws its text with (raster_font.go):
# Noto Sans JP and Noto Sans SC, regular and bold, from the npm registry's
# @expo-google-fonts packages at a pinned version, subset to the characters
# Lock Lab can draw, so the repository carries under a megabyte instead of
# 60 MB and `go run .` needs no system fonts.
#
# Usage (from anywhere): bash web/picture/fonts/build.sh
# Needs: npm, node, and pyftsubset from fontTools 4.38.0 (Debian bookworm's package:
# apt-get install fonttools). Another fontTools version works but may give
# other bytes; the script says so.
#
# The subset: every character of the text the app can show — the .go,
# .templ, .md and .yaml files under web/, sim/ and lessons/ (tests and
# testdata left out) — plus printable ASCII, Latin-1 and a few punctuation
# and symbol blocks. A file with "ja" or "zh" as a path part (web/i18n/ja.go,
# lessons/zh/03-ttl.md) counts for that language's font only; every other
# file counts for both. The characters used are written to chars-ja.txt and
# chars-zh.txt beside the fonts, so a diff shows what changed;
# TestFontsCoverText fails when the text has moved on without a rebuild.
set -euo pipefail

DEST="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$DEST/../../.." && pwd)"
VERSION=0.4.3
FONTTOOLS=4.38.0
# name:npm package:its dist.integrity at $VERSION
PKGS=(
  "JP:@expo-google-fonts/noto-sans-jp:sha512-Fl+Z6vtD24HFAYsvzB0S9Nery1ly16B9PesdY0wBd+wEHAvkNglnkTUspU0HqGOubkmoa8zusJrKv6vDx1o70A=="
  "SC:@expo-google-fonts/noto-sans-sc:sha512-9rAwdFTFHbO/u6Cs0gj2jZbW74TGIiaFNQnXYH2s5wA1bzVkwbaviL4t8YUV642eGYjg86eH6DkAEQmfNHDncQ=="
)

command -v pyftsubset >/dev/null || { echo "build.sh: no pyftsubset (apt-get install fonttools)" >&2; exit 1; }
# the Python that runs pyftsubset, which has fontTools
PY="$(head -n1 "$(command -v pyftsubset)" | sed -e 's/^#! *//')"
got="$($PY -c 'import fontTools; print(fontTools.version)')"
if [[ "$got" != "$FONTTOOLS" ]]; then
  echo "build.sh: fontTools $got, not $FONTTOOLS: the fonts may differ byte for byte from the committed ones" >&2
fi

TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT

# The characters each language's font must hold.
( cd "$ROOT" && $PY - "$DEST" <<'PY'
import os, sys
dest = sys.argv[1]
extra = set(range(0x20, 0x7F)) | set(range(0xA0, 0x100))
for lo, hi in [(0x2010, 0x205E), (0x2190, 0x2199), (0x3000, 0x303F), (0xFF01, 0xFF5E)]:
    extra |= set(range(lo, hi + 1))
extra |= {0x2212, 0x2260, 0x2264, 0x2265, 0x25B6, 0x25CF, 0x25CB, 0x26A0, 0x2713, 0x2717}
files = []
for top in ("web", "sim", "lessons"):
    for d, dirs, names in os.walk(top):
        dirs[:] = sorted(x for x in dirs if x != "testdata")
        for n in sorted(names):
            if n.endswith("_test.go") or not n.endswith((".go", ".templ", ".md", ".yaml")):
                continue
            files.append(os.path.join(d, n))
for lang, other in (("ja", "zh"), ("zh", "ja")):
    chars = set(extra)
    for p in files:
        parts = p.replace(".", "/").split("/")
        if other in parts:
            continue
        with open(p, encoding="utf-8") as f:
            chars |= {ord(c) for c in f.read() if ord(c) >= 0x20}
    with open(os.path.join(dest, "chars-%s.txt" % lang), "w", encoding="utf-8") as f:
        f.write("".join(chr(c) for c in sorted(chars)) + "\n")
PY
)

for entry in "${PKGS[@]}"; do
  IFS=: read -r name pkg integrity <<<"$entry"
  lang=ja; [[ "$name" == SC ]] && lang=zh
  dir="$TMP/$name"; mkdir -p "$dir"
  ( cd "$dir" && npm pack "$pkg@$VERSION" --json --silent > pack.json )
  gotint="$(node -e 'process.stdout.write(JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"))[0].integrity)' "$dir/pack.json")"
  if [[ "$gotint" != "$integrity" ]]; then
    echo "build.sh: $pkg@$VERSION integrity $gotint, want $integrity" >&2
    exit 1
  fi
  tar -xzf "$dir"/*.tgz -C "$dir"
  for w in Regular:400Regular Bold:700Bold; do
    IFS=: read -r short long <<<"$w"
    # No layout tables (the rasterizer does not shape: it draws one glyph
    # a character), no hinting (it draws outlines unhinted), no vertical
    # metrics; the name table, with the copyright and licence, stays.
    pyftsubset "$dir/package/$long/NotoSans${name}_$long.ttf" \
      --text-file="$DEST/chars-$lang.txt" \
      --output-file="$DEST/NotoSans$name-$short.ttf" \
      --layout-features= --no-hinting \
      --drop-tables+=vhea,vmtx,BASE,STAT,gasp,GDEF,GPOS,GSUB
  done
  cp "$dir/package/LICENSE_FONT" "$DEST/OFL.txt"
done

( cd "$DEST" && sha256sum NotoSans*.ttf && wc -c NotoSans*.ttf )
