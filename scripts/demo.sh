#!/usr/bin/env bash
# The source route's first command: builds ./nl2sqlbench and runs the demo, saying what it
# does while it does it. A first build downloads the modules and compiles SQLite's C
# (cgo): 3.5 to 5 minutes on a busy 2-core machine (README), during which the binary
# cannot speak for itself, so this script does, and `go build -v` names each package as
# it compiles.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v go >/dev/null 2>&1; then
  echo "demo.sh: no go command: install Go 1.26+ (https://go.dev/dl/), or use a release binary or the wheel (README)" >&2
  exit 1
fi
start=$(date +%s)
echo "building ./nl2sqlbench: a first build downloads modules and compiles SQLite's C (3.5-5 minutes on a busy 2-core machine; seconds afterwards); packages below as they compile" >&2
CGO_ENABLED=1 go build -v -o nl2sqlbench ./cmd/nl2sqlbench
echo "built ./nl2sqlbench in $(( $(date +%s) - start ))s; running ./nl2sqlbench demo $*" >&2
exec ./nl2sqlbench demo "$@"
