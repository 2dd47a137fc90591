#!/usr/bin/env bash
# Fetches the DuckDB shared library the DuckDB engine loads at run time
# (internal/engine/duckdb*.go dlopens it; nothing links against it), and prints its path.
#
# The library comes from the npm registry: DuckDB's own Node bindings package
# @duckdb/node-bindings-linux-x64 ships libduckdb.so (~70 MB) next to its addon. The
# version and the library's sha256 are pinned here; a cached copy that verifies is reused,
# so a second run costs nothing. Needs npm and tar (and network the first time).
#
#   lib="$(bash .ci/duckdb.sh)" && export NL2SQLBENCH_LIBDUCKDB="$lib"
#
# Exit status 0 with the path on stdout; non-zero with the reason on stderr.
set -euo pipefail

pkg="@duckdb/node-bindings-linux-x64"
version="1.5.6-r.1"
sha256="3f4962cdd266eab2b479a5b5a4a6d063d279b2954ae814ed00385d553b747633"

case "$(uname -s)-$(uname -m)" in
  Linux-x86_64) ;;
  *) echo "duckdb.sh: only linux x86_64 is pinned here (got $(uname -s)-$(uname -m))" >&2; exit 1 ;;
esac

dir="${XDG_CACHE_HOME:-$HOME/.cache}/nl2sqlbench/duckdb/$version"
lib="$dir/libduckdb.so"

verify() { [ -f "$1" ] && [ "$(sha256sum "$1" | cut -d' ' -f1)" = "$sha256" ]; }

if verify "$lib"; then
  echo "$lib"
  exit 0
fi
if ! command -v npm >/dev/null 2>&1; then
  echo "duckdb.sh: npm not found: cannot fetch $pkg@$version (install npm, or set NL2SQLBENCH_LIBDUCKDB to a libduckdb.so)" >&2
  exit 1
fi

mkdir -p "$dir"
tmp="$(mktemp -d "$dir/.fetch.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT
# npm checks the tarball against the registry's integrity hash; we check the library
# against ours, so a republished package cannot change what runs.
(cd "$tmp" && npm pack --silent "$pkg@$version" >/dev/null) || {
  echo "duckdb.sh: npm pack $pkg@$version failed" >&2; exit 1; }
tar -xzf "$tmp"/*.tgz -C "$tmp" package/libduckdb.so
if ! verify "$tmp/package/libduckdb.so"; then
  echo "duckdb.sh: $pkg@$version: libduckdb.so sha256 $(sha256sum "$tmp/package/libduckdb.so" | cut -d' ' -f1), want $sha256" >&2
  exit 1
fi
mv -f "$tmp/package/libduckdb.so" "$lib" # same file system: atomic, so a reader never sees half a file
echo "$lib"
