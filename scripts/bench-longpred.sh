#!/usr/bin/env bash
# Peak RSS of judging one very long prediction, every metric on: the structural analyses
# (ESM, ETM, linking, slicing) refuse a query over sqlscan.MaxAnalysed (256 KiB), so the cost
# is execution's. Cases, each a one-question JSONL dataset over a one-table SQLite database:
#  in2m      a 2 MB  SELECT x FROM t WHERE x IN (1,1,...)   (verdict correct)
#  plus10m   a 10 MB SELECT 1+1+...+1
#  ex        the 2 MB case with --metrics ex: the floor
# Interleaved rounds (default 3), medians of /usr/bin/time's %M.
# Usage: scripts/bench-longpred.sh [rounds] [binary ...]   (default: build this tree)
# Give two binaries (before, after) to compare them in the same run.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-3}
shift || true
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bins=("$@")
if [ ${#bins[@]} -eq 0 ]; then
  go build -o "$tmp/nl2sqlbench" ./cmd/nl2sqlbench
  bins=("$tmp/nl2sqlbench")
fi

mkdir -p "$tmp/db/t"
python3 - "$tmp" <<'PY'
import sqlite3, sys
tmp = sys.argv[1]
c = sqlite3.connect(f"{tmp}/db/t/t.sqlite")
c.execute("CREATE TABLE t (x INTEGER)")
c.executemany("INSERT INTO t VALUES (?)", [(i,) for i in range(10)])
c.commit()
cases = {
    "in2m": ("SELECT x FROM t WHERE x = 1", "SELECT x FROM t WHERE x IN (1" + ",1" * (1 << 20) + ")"),
    "plus10m": ("SELECT 1", "SELECT 1" + "+1" * (5 << 20)),
}
for name, (gold, pred) in cases.items():
    with open(f"{tmp}/{name}.jsonl", "w") as f:
        f.write('{"question_id": "q", "db_id": "t", "question": "long", "gold": "%s"}\n' % gold)
    with open(f"{tmp}/{name}.txt", "w") as f:
        f.write(pred + "\n")
PY

median() { sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
# measure FILE CMD...: appends "seconds peakKB" of one run to FILE.
measure() { local f=$1; shift; rm -rf "$tmp/run"; /usr/bin/time -f "%e %M" -o "$tmp/t" "$@" >/dev/null 2>"$tmp/err" || { cat "$tmp/err" >&2; exit 1; }; tail -1 "$tmp/t" >> "$f"; }
for r in $(seq "$rounds"); do
  for i in "${!bins[@]}"; do
    b=${bins[$i]}
    for c in in2m plus10m; do
      measure "$tmp/$i.$c" "$b" eval --dataset "jsonl:$tmp/$c.jsonl" --db-root "$tmp/db" --pred "p=$tmp/$c.txt" --out "$tmp/run" --json
    done
    measure "$tmp/$i.ex" "$b" eval --dataset "jsonl:$tmp/in2m.jsonl" --db-root "$tmp/db" --pred "p=$tmp/in2m.txt" --out "$tmp/run" --json --metrics ex
  done
  echo "round $r done" >&2
done
for i in "${!bins[@]}"; do
  for c in in2m plus10m ex; do
    rss=$(cut -d' ' -f2 "$tmp/$i.$c" | median)
    sec=$(cut -d' ' -f1 "$tmp/$i.$c" | median)
    awk -v b="${bins[$i]}" -v c="$c" -v k="$rss" -v s="$sec" -v l="$(cut -d' ' -f2 "$tmp/$i.$c" | tr '\n' ' ')" \
      'BEGIN {printf "%-28s %-8s peak RSS median %6.0f MB  wall %5.2f s  (KB: %s)\n", b, c, k/1024, s, l}'
  done
done
