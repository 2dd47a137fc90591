#!/usr/bin/env bash
# dupcount.sh: how many places the non-test code repeats itself, by the `duplicates` tool of the
# development machine (issue 32's measure). It copies the tracked non-test sources to a temporary
# tree and runs the tool there twice:
#   all   every pair the tool lists that it does not mark boilerplate;
#   code  the same after blanking what is declaration, not logic: the lines of Go import blocks, struct
#         fields with a tag (`json:"..."`), and sentinel errors (ErrX = errors.New(...)). Blank lines
#         keep every line number, and the tool passes over them.
# Usage: scripts/dupcount.sh [-v]   (-v prints the pairs too)
set -euo pipefail
cd "$(dirname "$0")/.."
command -v duplicates >/dev/null || { echo "dupcount: the duplicates tool is not on PATH" >&2; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
git ls-files | grep -v -e '_test\.go$' -e '/testdata/' -e '^python/tests/' | while read -r f; do
  [ -f "$f" ] || continue
  mkdir -p "$tmp/all/$(dirname "$f")" "$tmp/code/$(dirname "$f")"
  cp "$f" "$tmp/all/$f"
  if [[ $f == *.go ]]; then
    awk '
      /^import \($/ { inimp = 1; print ""; next }
      inimp && /^\)$/ { inimp = 0; print ""; next }
      inimp { print ""; next }
      /^[ \t]+[A-Za-z_][A-Za-z0-9_]*[ \t]+[^ \t].*`[a-z]+:"[^"]*"`[ \t]*(\/\/.*)?$/ { print ""; next }
      /^[ \t]+Err[A-Za-z0-9_]*[ \t]+= errors\.New\(/ { print ""; next }
      { print }' "$f" > "$tmp/code/$f"
  else
    cp "$f" "$tmp/code/$f"
  fi
done
for kind in all code; do
  out=$(duplicates --repo "$tmp/$kind" --most 200 --seconds 300)
  n=$(grep '^D' <<<"$out" | grep -vc boilerplate || true)
  echo "$kind: $n non-test pairs not marked boilerplate ($(head -1 <<<"$out"))"
  if [ "${1:-}" = -v ]; then grep '^D' <<<"$out" | grep -v boilerplate | sed "s/^/  $kind /"; fi
done
