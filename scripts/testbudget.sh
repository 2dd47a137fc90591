#!/usr/bin/env bash
# Checks a `go test` log against the budget in scripts/test-budget.txt, so the suite
# cannot drift back to the 18 minutes it once took (issue 44).
#
#   scripts/testbudget.sh LOG KEY SECONDS
#
# LOG is go test's plain output; every "ok  PKG  N.NNNs" line is checked against the
# per-package budget. KEY (total or short) names the wall-clock budget that SECONDS, the
# measured wall time of the whole command, must stay within. Cached results ("(cached)")
# cost nothing and are not checked. Prints the five slowest packages; exits 1 when a
# budget is exceeded, naming it.
set -euo pipefail
cd "$(dirname "$0")/.."
log=$1 key=$2 wall=$3
budget() { awk -v k="$1" '$1 == k {print $2; found=1} END {if (!found) exit 1}' scripts/test-budget.txt; }
pkg_budget=$(budget package) || { echo "testbudget: no 'package' line in scripts/test-budget.txt" >&2; exit 2; }
wall_budget=$(budget "$key") || { echo "testbudget: no '$key' line in scripts/test-budget.txt" >&2; exit 2; }

# "ok  <pkg>  12.345s" (and "FAIL <pkg> 12.3s"): package and seconds.
times=$(awk '($1 == "ok" || $1 == "FAIL") && $3 ~ /^[0-9.]+s$/ {sub(/s$/, "", $3); print $3, $2}' "$log" | sort -rn)
echo "slowest packages (budget ${pkg_budget}s each):"
# awk reads all of its input: `head -5` would exit early, and under pipefail the echo's
# SIGPIPE (exit 141) failed CI once with every budget met.
echo "$times" | awk 'NR <= 5 {printf "  %8.1fs  %s\n", $1, $2}'
over=$(echo "$times" | awk -v b="$pkg_budget" '$1 > b')
rc=0
if [ -n "$over" ]; then
  echo "testbudget: over the ${pkg_budget}s per-package budget:" >&2
  echo "$over" | awk '{printf "  %.1fs  %s\n", $1, $2}' >&2
  rc=1
fi
if [ "$wall" -gt "$wall_budget" ]; then
  echo "testbudget: the whole run took ${wall}s, over its ${wall_budget}s budget ($key)" >&2
  rc=1
else
  echo "the whole run: ${wall}s of its ${wall_budget}s budget ($key)"
fi
exit $rc
