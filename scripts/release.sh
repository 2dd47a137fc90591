#!/usr/bin/env bash
# Release builds: stripped cgo binaries of nl2sqlbench for linux/amd64 and linux/arm64, each
# in a tarball with LICENSE, README.md, CHANGELOG.md and BUILDINFO, plus SHA256SUMS, in
# dist/release/ (replaced on every run).
#
#   bash scripts/release.sh                          # this machine's target; the version from CHANGELOG.md
#   TARGETS="amd64 arm64" bash scripts/release.sh    # a whole release: both targets
#   VERSION=0.1.0 TARGETS="amd64" bash scripts/release.sh
#   TARGETS="amd64 arm64" bash scripts/release.sh --check   # only check the C compilers
#
# Reproducible: the same tree, Go and C compilers give the same bytes. Paths are trimmed
# (-trimpath), no VCS stamp or Go build id is embedded (-buildvcs=false, -buildid=), symbols
# are stripped (-s -w), and the tarballs fix names' order, mtimes (SOURCE_DATE_EPOCH, by
# default the last commit's time), owners and modes, with gzip -n (no name or time).
# The other target needs Debian's cross compiler (on amd64: apt-get install
# gcc-aarch64-linux-gnu; on arm64: gcc-x86-64-linux-gnu); CC_amd64 and CC_arm64 name others.
# Every target's compiler is checked before anything is built, so a missing one fails at
# once; a target that fails later keeps the tarballs (and SHA256SUMS) of those built before
# it. Prints where the files are, and SHA256SUMS.
set -euo pipefail
cd "$(dirname "$0")/.."

pkg=github.com/nl2sqlbench/nl2sqlbench
version="${VERSION:-$(sed -n 's/^## \([0-9][0-9A-Za-z.+-]*\).*/\1/p' CHANGELOG.md | awk 'NR == 1')}"
if [ -z "$version" ]; then
  echo "release.sh: no version: set VERSION or add a '## X.Y.Z' entry to CHANGELOG.md" >&2
  exit 2
fi
# The host's Go architecture, from uname so that --check needs no Go.
case "$(uname -m)" in
  x86_64 | amd64) host=amd64 ;;
  aarch64 | arm64) host=arm64 ;;
  *) host="$(uname -m)" ;;
esac
targets="${TARGETS:-$host}"

# cc_for ARCH is the C compiler that builds for linux/ARCH here: CC_<ARCH> when set, gcc for
# the host, else Debian's cross compiler.
cc_for() {
  local v="CC_$1"
  if [ -n "${!v:-}" ]; then
    echo "${!v}"
  elif [ "$1" = "$host" ]; then
    echo gcc
  else
    case "$1" in
      amd64) echo x86_64-linux-gnu-gcc ;;
      arm64) echo aarch64-linux-gnu-gcc ;;
    esac
  fi
}

# debian_package CC is the Debian package that installs the compiler CC.
debian_package() {
  case "$1" in
    gcc) echo gcc ;;
    x86_64-linux-gnu-gcc) echo gcc-x86-64-linux-gnu ;;
    aarch64-linux-gnu-gcc) echo gcc-aarch64-linux-gnu ;;
  esac
}

# check_compilers fails, before anything is built, naming every target whose C compiler
# is missing, the package that installs it and how to build fewer targets.
check_compilers() {
  local arch cc pkg bad=""
  for arch in $targets; do
    cc="$(cc_for "$arch")"
    if [ -z "$cc" ]; then
      echo "release.sh: no C compiler known for linux/$arch (the targets are amd64 and arm64); name one with CC_$arch=..." >&2
      bad="$bad $arch"
    elif ! command -v "$cc" >/dev/null 2>&1; then
      pkg="$(debian_package "$cc")"
      echo "release.sh: linux/$arch needs the C compiler $cc, which is not on PATH: apt-get install ${pkg:-the package that has it} (or name another with CC_$arch=...)" >&2
      bad="$bad $arch"
    fi
  done
  if [ -n "$bad" ]; then
    echo "release.sh: nothing built. TARGETS=\"$host\" builds for this machine only; TARGETS=\"amd64 arm64\" builds both once each compiler is installed" >&2
    exit 1
  fi
}

check_compilers
if [ "${1:-}" = "--check" ]; then
  for arch in $targets; do
    echo "linux/$arch: $(cc_for "$arch")"
  done
  exit 0
fi

export SOURCE_DATE_EPOCH="${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct)}"
out="${OUT:-dist/release}"
ldflags="-s -w -buildid= -X $pkg/internal/buildid.version=$version"
flags=(-trimpath -buildvcs=false)

revision="$(git rev-parse HEAD)"
modified=false
[ -z "$(git status --porcelain --untracked-files=no)" ] || modified=true
sqlite_dir="$(go list -m -f '{{.Dir}}' github.com/mattn/go-sqlite3)"
sqlite="$(sed -n 's/^#define SQLITE_VERSION *"\(.*\)"/\1/p' "$sqlite_dir/sqlite3-binding.c" | awk 'NR == 1')"
sqlite_mod="$(go list -m -f '{{.Version}}' github.com/mattn/go-sqlite3)"

rm -rf "$out"
mkdir -p "$out"
stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT

for arch in $targets; do
  cc="$(cc_for "$arch")"
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
cc: $cc: $("$cc" --version | awk 'NR == 1')
sqlite: $sqlite (github.com/mattn/go-sqlite3 $sqlite_mod)
cgo: CGO_ENABLED=1 CGO_CFLAGS=$(CC="$cc" GOARCH="$arch" go env CGO_CFLAGS)
flags: ${flags[*]} -ldflags "$ldflags"
source_date_epoch: $SOURCE_DATE_EPOCH
EOF
  chmod 0755 "$dir" "$dir/nl2sqlbench"
  chmod 0644 "$dir/LICENSE" "$dir/README.md" "$dir/CHANGELOG.md" "$dir/BUILDINFO"
  tar --sort=name --mtime="@$SOURCE_DATE_EPOCH" --owner=0 --group=0 --numeric-owner \
    --format=gnu -C "$stage" -cf - "$name" | gzip -n -9 >"$out/$name.tar.gz"
  # After each target, so that one failing later keeps this one, checksummed.
  (cd "$out" && sha256sum -- *.tar.gz >SHA256SUMS)
done

echo "release $version in $out/:" >&2
cat "$out/SHA256SUMS"
