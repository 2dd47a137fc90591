#!/usr/bin/env bash
# Release builds: stripped cgo binaries of nl2sqlbench for linux/amd64 and linux/arm64, each
# in a tarball with LICENSE, README.md, CHANGELOG.md and BUILDINFO, plus SHA256SUMS, in
# dist/release/ (replaced on every run).
#
#   bash scripts/release.sh                # every target; the version from CHANGELOG.md
#   VERSION=0.1.0 TARGETS="amd64" bash scripts/release.sh
#
# Reproducible: the same tree, Go and C compilers give the same bytes. Paths are trimmed
# (-trimpath), no VCS stamp or Go build id is embedded (-buildvcs=false, -buildid=), symbols
# are stripped (-s -w), and the tarballs fix names' order, mtimes (SOURCE_DATE_EPOCH, by
# default the last commit's time), owners and modes, with gzip -n (no name or time).
# arm64 needs Debian's cross compiler (apt-get install gcc-aarch64-linux-gnu); CC_arm64
# names another. Prints where the files are, and SHA256SUMS.
set -euo pipefail
cd "$(dirname "$0")/.."

pkg=github.com/nl2sqlbench/nl2sqlbench
version="${VERSION:-$(sed -n 's/^## \([0-9][0-9A-Za-z.+-]*\).*/\1/p' CHANGELOG.md | head -1)}"
if [ -z "$version" ]; then
  echo "release.sh: no version: set VERSION or add a '## X.Y.Z' entry to CHANGELOG.md" >&2
  exit 2
fi
export SOURCE_DATE_EPOCH="${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct)}"
targets="${TARGETS:-amd64 arm64}"
out="${OUT:-dist/release}"
cc_amd64="${CC_amd64:-gcc}"
cc_arm64="${CC_arm64:-aarch64-linux-gnu-gcc}"
ldflags="-s -w -buildid= -X $pkg/internal/buildid.version=$version"
flags=(-trimpath -buildvcs=false)

revision="$(git rev-parse HEAD)"
modified=false
[ -z "$(git status --porcelain --untracked-files=no)" ] || modified=true
sqlite_dir="$(go list -m -f '{{.Dir}}' github.com/mattn/go-sqlite3)"
sqlite="$(sed -n 's/^#define SQLITE_VERSION *"\(.*\)"/\1/p' "$sqlite_dir/sqlite3-binding.c" | head -1)"
sqlite_mod="$(go list -m -f '{{.Version}}' github.com/mattn/go-sqlite3)"

rm -rf "$out"
mkdir -p "$out"
stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT

for arch in $targets; do
  cc_var="cc_$arch"
  cc="${!cc_var:-}"
  if [ -z "$cc" ] || ! command -v "$cc" >/dev/null 2>&1; then
    echo "release.sh: no C compiler for linux/$arch (${cc:-none}); for arm64: apt-get install gcc-aarch64-linux-gnu" >&2
    exit 1
  fi
  name="nl2sqlbench-$version-linux-$arch"
  dir="$stage/$name"
  mkdir -p "$dir"
  echo "== linux/$arch: go build (cgo, CC=$cc); a first build compiles SQLite's C for minutes, -v lists packages as they build" >&2
  CGO_ENABLED=1 GOOS=linux GOARCH="$arch" CC="$cc" \
    go build -v "${flags[@]}" -ldflags "$ldflags" -o "$dir/nl2sqlbench" ./cmd/nl2sqlbench
  cp LICENSE README.md CHANGELOG.md "$dir/"
  # What made this binary: enough to rebuild it and get the same bytes.
  cat >"$dir/BUILDINFO" <<EOF
nl2sqlbench $version
target: linux/$arch
source: $revision (modified: $modified)
go: $(go env GOVERSION)
cc: $cc: $("$cc" --version | head -1)
sqlite: $sqlite (github.com/mattn/go-sqlite3 $sqlite_mod)
cgo: CGO_ENABLED=1 CGO_CFLAGS=$(CC="$cc" GOARCH="$arch" go env CGO_CFLAGS)
flags: ${flags[*]} -ldflags "$ldflags"
source_date_epoch: $SOURCE_DATE_EPOCH
EOF
  chmod 0755 "$dir" "$dir/nl2sqlbench"
  chmod 0644 "$dir/LICENSE" "$dir/README.md" "$dir/CHANGELOG.md" "$dir/BUILDINFO"
  tar --sort=name --mtime="@$SOURCE_DATE_EPOCH" --owner=0 --group=0 --numeric-owner \
    --format=gnu -C "$stage" -cf - "$name" | gzip -n -9 >"$out/$name.tar.gz"
done

(cd "$out" && sha256sum -- *.tar.gz >SHA256SUMS)
echo "release $version in $out/:" >&2
cat "$out/SHA256SUMS"
