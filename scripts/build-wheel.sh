#!/usr/bin/env bash
# Platform wheels of the Python package (python/), with the release binary inside, into
# dist/: nl2sqlbench-VERSION-py3-none-manylinux_2_N_{x86_64,aarch64}.whl. Offline: no
# pip, no PyPI; scripts/wheel.py writes each wheel with Python's zipfile.
#
#   bash scripts/build-wheel.sh                   # both targets
#   TARGETS=amd64 bash scripts/build-wheel.sh     # x86_64 only (what CI installs)
#
# The binary is the release build's (scripts/release.sh): taken from dist/release/ when
# it holds this version's tarball and SHA256SUMS verifies it, else built now (a first
# build compiles SQLite's C and takes minutes; go build -v lists packages as it goes).
set -euo pipefail
cd "$(dirname "$0")/.."

version="${VERSION:-$(sed -n 's/^## \([0-9][0-9A-Za-z.+-]*\).*/\1/p' CHANGELOG.md | head -1)}"
targets="${TARGETS:-amd64 arm64}"
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
  echo "== building the release binary for:$missing (scripts/release.sh)" >&2
  OUT="$tmp/release" TARGETS="$missing" VERSION="$version" bash scripts/release.sh >/dev/null
  cp "$tmp"/release/*.tar.gz "$tmp/"
fi

mkdir -p dist
for arch in $targets; do
  name="nl2sqlbench-$version-linux-$arch"
  tar -xzf "$tmp/$name.tar.gz" -C "$tmp" "$name/nl2sqlbench"
  case "$arch" in amd64) march=x86_64 ;; arm64) march=aarch64 ;; *) echo "build-wheel.sh: unknown target $arch" >&2; exit 2 ;; esac
  python3 scripts/wheel.py --binary "$tmp/$name/nl2sqlbench" --arch "$march" --version "$version" --out dist
done
