#!/usr/bin/env bash
# Benchmarks nl2sqlbench on real data (needs ../shared beside the repository):
#  1. speed: judging all seven Spider dev prediction files with both semantics, N runs,
#     median wall time; baseline measured in the same run: a minimal Python loop (sqlite3,
#     execute + fetchall + set comparison, the core of BIRD's evaluation_ex) over ONE system;
#  2. memory: peak RSS judging a question whose gold and prediction return 1,000,000 rows,
#     and one whose prediction returns 3,000,000 rows (over the default --max-rows cap).
# Usage: scripts/bench.sh [runs]   (default 5). Prints medians; the machine is noisy, so
# compare ratios measured in one run rather than absolute numbers across runs.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
shared=../shared/data/spider
[ -d "$shared" ] || { echo "bench: $shared not found" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/nl2sqlbench" ./cmd/nl2sqlbench

median() { sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
wall() { /usr/bin/time -f "%e %M" "$@" 2>&1 >/dev/null | tail -1; }

preds=()
for s in C3 DAIL DIN RASAT+PICARD RESDSQL SuperSQL codeS; do preds+=(--pred "$s=$shared/predictions/$s.txt"); done

cat > "$tmp/baseline.py" <<'PY'
# Minimal BIRD-style loop: execute prediction and gold with Python's sqlite3, compare as sets.
import json, sqlite3, sys
root, dev, pred = sys.argv[1], sys.argv[2], sys.argv[3]
qs = json.load(open(dev))
ps = [l.rstrip("\n").split("\t")[0] for l in open(pred)]
conns, ok = {}, 0
for q, p in zip(qs, ps):
    db = q["db_id"]
    if db not in conns:
        try:
            conns[db] = sqlite3.connect(f"file:{root}/{db}/{db}.sqlite?mode=ro", uri=True)
        except sqlite3.Error:
            conns[db] = None
    c = conns[db]
    if c is None:
        continue
    try:
        ok += set(c.execute(p).fetchall()) == set(c.execute(q["query"]).fetchall())
    except Exception:
        pass
print(ok)
PY

echo "== speed: 7 Spider systems x 1034 questions, both semantics ($runs runs)"
: > "$tmp/ours"; : > "$tmp/base"
for _ in $(seq "$runs"); do
  wall "$tmp/nl2sqlbench" eval --dataset "spider:$shared" "${preds[@]}" --out "$tmp/run" --json | cut -d' ' -f1 >> "$tmp/ours"
  wall python3 "$tmp/baseline.py" "$shared/database" "$shared/dev.json" "$shared/predictions/DAIL.txt" | cut -d' ' -f1 >> "$tmp/base"
done
ours=$(median < "$tmp/ours"); base=$(median < "$tmp/base")
echo "nl2sqlbench, 7 systems:         median ${ours}s  (runs: $(tr '\n' ' ' < "$tmp/ours"))"
echo "python sqlite3 loop, 1 system:  median ${base}s  (runs: $(tr '\n' ' ' < "$tmp/base"))"
awk -v a="$ours" -v b="$base" 'BEGIN {printf "per system: nl2sqlbench %.3fs vs baseline %.3fs (%.1fx)\n", a/7, b, b/(a/7)}'

echo "== memory: 1,000,000-row results"
python3 - "$tmp/mem" <<'PY'
import json, os, sqlite3, sys
d = sys.argv[1]; os.makedirs(f"{d}/big", exist_ok=True)
c = sqlite3.connect(f"{d}/big/big.sqlite")
c.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT, score REAL)")
c.executemany("INSERT INTO t VALUES (?, ?, ?)", ((i, f"name {i}", i / 7) for i in range(1_000_000)))
c.commit()
with open(f"{d}/q.jsonl", "w") as f:
    f.write(json.dumps({"question_id": "all", "db_id": "big", "question": "all rows", "gold": "SELECT id, name, score FROM t"}) + "\n")
    f.write(json.dumps({"question_id": "triple", "db_id": "big", "question": "rows", "gold": "SELECT id FROM t WHERE id < 10"}) + "\n")
with open(f"{d}/p.txt", "w") as f:
    f.write("SELECT id, name, score FROM t ORDER BY id DESC\n")
    f.write("SELECT a.id FROM t a, t b WHERE b.id < 3\n")
PY
for cap in 1000000 100000; do
  rss=$(wall "$tmp/nl2sqlbench" eval --dataset "jsonl:$tmp/mem/q.jsonl" --pred "$tmp/mem/p.txt" --out "$tmp/memrun" --max-rows "$cap" --workers 1 --json | cut -d' ' -f2)
  verdicts=$(cut -d, -f1-12 "$tmp/memrun/p/records.jsonl" | grep -o '"verdict":"[a-z_]*"' | tr '\n' ' ')
  echo "--max-rows $cap: peak RSS $((rss / 1024)) MB; verdicts: $verdicts"
done
