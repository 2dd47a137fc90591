#!/usr/bin/env bash
# Benchmarks the repeatability of VES and R-VES and their behaviour at scale (needs
# ../shared beside the repository for part 1):
#  1. repeatability: R-VES (and VES) of the DAIL Spider dev predictions, RUNS times with
#     --timing official and RUNS times with --timing robust; prints every score, then min /
#     max / spread per mode. Goal: the robust spread is at most 0.2 points.
#  2. large data: gen-large writes a ROWS-row database (default 5,000,000; three tables,
#     with and without indexes) and correct fast / slow predictions; eval --ves times them
#     in both modes (ITER iterations, default 10), and once with the default per-item
#     budget to show the refusal message when iterations x (gold + prediction) would not fit.
# Usage: scripts/bench-ves.sh [runs]   (default 5). Env: ROWS, ITER, SKIP_LARGE=1, SKIP_REPEAT=1.
# The machine is shared and noisy: compare spreads measured in one run of this script.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
rows=${ROWS:-5000000}
iter=${ITER:-10}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/nl2sqlbench" ./cmd/nl2sqlbench
nb="$tmp/nl2sqlbench"

stats() { sort -g | awk '{a[NR]=$1} END {printf "min %.2f  max %.2f  spread %.2f  (n=%d)\n", a[1], a[NR], a[NR]-a[1], NR}'; }

if [ "${SKIP_REPEAT:-}" != 1 ]; then
  spider=../shared/data/spider
  [ -d "$spider" ] || { echo "bench-ves: $spider not found" >&2; exit 1; }
  echo "== 1. repeatability: R-VES of DAIL on Spider dev, $runs runs per timing mode (100 iterations)"
  for mode in official robust; do
    : > "$tmp/$mode.rves"
    for i in $(seq "$runs"); do
      t0=$(date +%s.%N)
      "$nb" eval --dataset "spider:$spider" --pred "DAIL=$spider/predictions/DAIL.txt" \
        --out "$tmp/run-$mode-$i" --ves --timing "$mode" --ves-iterations 100 --json 2>/dev/null \
        | jq -r '.exec_efficiency[0].overall | "\(.rves) \(.ves) \(.soft_f1)"' > "$tmp/line"
      t1=$(date +%s.%N)
      read -r rves ves f1 < "$tmp/line"
      printf '%-8s run %d: R-VES %.2f  VES %.2f  Soft-F1 %.2f  (%.0fs)\n' "$mode" "$i" "$rves" "$ves" "$f1" "$(echo "$t1 - $t0" | bc)"
      echo "$rves" >> "$tmp/$mode.rves"
    done
  done
  for mode in official robust; do
    printf '%-8s R-VES: ' "$mode"; stats < "$tmp/$mode.rves"
  done
fi

if [ "${SKIP_LARGE:-}" != 1 ]; then
  echo
  echo "== 2. large data: $rows rows, fast vs slow correct predictions ($iter iterations)"
  t0=$(date +%s.%N)
  "$nb" gen-large --out "$tmp/large" --rows "$rows"
  echo "generated in $(echo "$(date +%s.%N) - $t0" | bc | cut -c1-5)s"
  ds="jsonl:$tmp/large/questions.jsonl"
  for mode in official robust; do
    "$nb" eval --dataset "$ds" --pred "$tmp/large/fast.txt" --pred "$tmp/large/slow.txt" \
      --out "$tmp/large-$mode" --ves --timing "$mode" --ves-iterations "$iter" --ves-item-budget 10m --timeout 5m --json 2>/dev/null \
      | jq -r --arg m "$mode" '.exec_efficiency[] | "\($m)  \(.system): VES \(.overall.ves*100|round/100)  R-VES \(.overall.rves*100|round/100)"'
    jq -r --arg m "$mode" '"\($m)  \(.question_id): gold \(.gold_ms // "-") ms, pred \(.pred_ms // "-") ms, ratio \(.time_ratio*1000|round/1000)"' \
      "$tmp/large-$mode/slow/records.jsonl"
  done
  echo "-- the default budgets (100 iterations, 30s per item) on the same data:"
  "$nb" eval --dataset "$ds" --pred "$tmp/large/slow.txt" --out "$tmp/large-refused" --ves --timeout 5m 2>&1 >/dev/null | tail -1 || true
fi
