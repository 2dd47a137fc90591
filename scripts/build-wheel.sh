#!/usr/bin/env bash
# Platform wheels of the Python package (python/), with the release binary inside, into
# dist/: nl2sqlbench-VERSION-py3-none-manylinux_2_N_{x86_64,aarch64}.whl. Offline: no
# pip, no PyPI; scripts/wheel.py writes each wheel with Python's zipfile.
#
#   bash scripts/build-wheel.sh                          # this machine's target only
#   TARGETS=amd64 bash scripts/build-wheel.sh            # x86_64 only (what CI installs)
#   TARGETS="amd64 arm64" bash scripts/build-wheel.sh    # both (the other needs its cross compiler)
#
# The binary is the release build's (scripts/release.sh): taken from dist/release/ when
# it holds this version's tarball and SHA256SUMS verifies it, else built now (a first
# build compiles SQLite's C and takes minutes; go build -v lists packages as it goes).
# Every target to build has its C compiler checked first (release.sh --check), so a
# missing cross compiler fails at once; the targets are built one at a time, and each
# one's wheel is written as soon as it is built, so a target that fails keeps the others'.
set -euo pipefail
cd "$(dirname "$0")/.."

version="${VERSION:-$(sed -n 's/^## \([0-9][0-9A-Za-z.+-]*\).*/\1/p' CHANGELOG.md | awk 'NR == 1')}"
case "$(uname -m)" in
  x86_64 | amd64) host=amd64 ;;
  aarch64 | arm64) host=arm64 ;;
  *) host="$(uname -m)" ;;
esac
targets="${TARGETS:-$host}"
for arch in $targets; do
  case "$arch" in amd64 | arm64) ;; *) echo "build-wheel.sh: unknown target $arch (the targets are amd64 and arm64)" >&2; exit 2 ;; esac
done
export SOURCE_DATE_EPOCH="${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct)}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

missing=""
for arch in $targets; do
  tarball="dist/release/nl2sqlbench-$version-linux-$arch.tar.gz"
  if [ -f "$tarball" ] && (cd dist/release && grep " ${tarball##*/}\$" SHA256SUMS | sha256sum -c --status -); then
    cp "$tarball" "$tmp/"
    echo "== linux/$arch: using $tarball (checksum verified)" >&2
  else
    missing="$missing $arch"
  fi
done
if [ -n "$missing" ]; then
  # Before minutes of building: every compiler, or a message naming what to install.
  TARGETS="$missing" bash scripts/release.sh --check >/dev/null
fi

mkdir -p dist
failed=""
for arch in $targets; do
  name="nl2sqlbench-$version-linux-$arch"
  if [ ! -f "$tmp/$name.tar.gz" ]; then
    echo "== linux/$arch: building the release binary (scripts/release.sh)" >&2
    if ! OUT="$tmp/release-$arch" TARGETS="$arch" VERSION="$version" bash scripts/release.sh >/dev/null; then
      echo "build-wheel.sh: the linux/$arch build failed (above); going on with the other targets" >&2
      failed="$failed $arch"
      continue
    fi
    cp "$tmp/release-$arch/$name.tar.gz" "$tmp/"
  fi
  tar -xzf "$tmp/$name.tar.gz" -C "$tmp" "$name/nl2sqlbench"
  case "$arch" in amd64) march=x86_64 ;; arm64) march=aarch64 ;; esac
  python3 scripts/wheel.py --binary "$tmp/$name/nl2sqlbench" --arch "$march" --version "$version" --out dist
done
if [ -n "$failed" ]; then
  echo "build-wheel.sh: no wheel for:$failed; the other targets' wheels are in dist/" >&2
  exit 1
fi
