#!/usr/bin/env bash
# Runs every fuzz target for a short time (default 10s each), one at a time, so CI catches
# a panic or a broken property that the committed seed corpora (run by `go test ./...`)
# do not reach. A failing input is written to the target's testdata/fuzz/<Target>/ in the
# working tree: commit it as a seed with the fix.
# Usage: scripts/fuzz.sh [fuzztime] [parallel]   (defaults 10s, 1)
set -euo pipefail
cd "$(dirname "$0")/.."
fuzztime=${1:-10s}
parallel=${2:-1}

# package target: every func Fuzz* in the repository, one line each.
targets=(
  "./internal/spidersql FuzzParse"
  "./internal/spidersql FuzzTokenizeMatchesRegex"
  "./internal/sqlast FuzzExtractSchema"
  "./internal/predict FuzzRead"
  "./internal/dataset FuzzLoad"
  "./internal/judge FuzzCompare"
  "./internal/judge FuzzCompareOracle"
  "./internal/judge FuzzLexGuards"
  "./internal/judge FuzzRemoveDistinctFastPath"
  "./internal/match FuzzESM"
  "./internal/match FuzzETMNormalize"
  "./internal/engine FuzzSQLiteQuery"
  "./internal/engine FuzzDuckWire"
  "./internal/pandascsv FuzzReadCSV"
  "./internal/audit FuzzAnalyse"
  "./internal/audit FuzzGoldText"
  "./internal/sqlscan FuzzScan"
  "./internal/record FuzzEncodeRecord"
  "./internal/jsonscan FuzzMembers"
)

# A target missing from the list above would never be fuzzed: refuse to run without it.
found=$(grep -rhoE --include='*_test.go' '^func Fuzz[A-Za-z0-9_]+' internal | sed 's/^func //' | sort)
listed=$(printf '%s\n' "${targets[@]}" | awk '{print $2}' | sort)
if [ "$found" != "$listed" ]; then
  echo "fuzz.sh: the target list is out of date" >&2
  diff <(echo "$listed") <(echo "$found") >&2 || true
  exit 1
fi

log=$(mktemp)
trap 'rm -f "$log"' EXIT
for t in "${targets[@]}"; do
  read -r pkg name <<<"$t"
  echo "== $name ($pkg, $fuzztime)"
  corpus="$pkg/testdata/fuzz/$name"
  before=$(ls "$corpus" 2>/dev/null | sort || true)
  # -fuzzminimizetime bounds the minimisation of each new interesting input, which can
  # otherwise stall a short run for longer than the run itself.
  if go test -run '^$' -fuzz "^${name}\$" -fuzztime "$fuzztime" -fuzzminimizetime 5s -parallel "$parallel" "$pkg" 2>&1 | tee "$log"; then
    continue
  fi
  after=$(ls "$corpus" 2>/dev/null | sort || true)
  # Go before 1.27 can fail a duration-bounded run at its end with a bare "context
  # deadline exceeded" and no failing input (golang/go#75804, a coordinator race): not
  # a finding. Anything else, or a new input in the corpus, is.
  if [ "$before" = "$after" ] && grep -q '^    context deadline exceeded$' "$log"; then
    echo "fuzz.sh: $name: ignoring the fuzz coordinator's deadline race (golang/go#75804): no failing input was written" >&2
    continue
  fi
  echo "fuzz.sh: $name failed; a failing input, if any, is in $corpus" >&2
  exit 1
done
echo "fuzz ok"
