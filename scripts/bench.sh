#!/usr/bin/env bash
# The benchmark of nl2sqlbench on real data (needs ../shared beside the repository). In one
# run, interleaved (each round runs every case once, so a busy spell hits them alike),
# N rounds (default 5), medians, each printed as a ratio to the floor:
#  floor       a bare Python sqlite3 loop: every Spider dev gold and every DAIL prediction
#              executed once with fetchall, over the questions whose database exists (972;
#              wta_1 is missing), one connection per database, nothing compared
#  ex/1        nl2sqlbench eval --metrics ex, DAIL
#  all/1       nl2sqlbench eval, every metric, DAIL
#  all/7       nl2sqlbench eval, every metric, the seven systems
#  memory      peak RSS judging a question whose gold and prediction both return
#              1,000,000 rows x 3 columns at the default row cap; and the wall time of a
#              prediction returning 10,000,000 rows, which stops at the cap (row_limit)
# Usage: scripts/bench.sh [runs]   Env: SKIP_MEMORY=1, MEMRUNS (default 3).
# VES timing has its own script (scripts/bench-ves.sh). The machine is shared and noisy:
# compare ratios from one run of this script, not absolute times across runs.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
memruns=${MEMRUNS:-3}
shared=../shared/data/spider
[ -d "$shared" ] || { echo "bench: $shared not found" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/nl2sqlbench" ./cmd/nl2sqlbench
nb="$tmp/nl2sqlbench"

median() { sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
# wall CASE CMD...: appends "seconds peakKB" of one run to $tmp/CASE.
wall() { local c=$1; shift; /usr/bin/time -f "%e %M" -o "$tmp/t" "$@" >/dev/null 2>"$tmp/err" || { cat "$tmp/err" >&2; exit 1; }; tail -1 "$tmp/t" >> "$tmp/$c"; }

cat > "$tmp/floor.py" <<'PY'
# The floor: execute every gold and every prediction once with fetchall; nothing else.
import json, os, sqlite3, sys
root, dev, pred = sys.argv[1], sys.argv[2], sys.argv[3]
qs = json.load(open(dev))
ps = [l.rstrip("\n") for l in open(pred)]
conns, n = {}, 0
for q, p in zip(qs, ps):
    db = q["db_id"]
    path = f"{root}/{db}/{db}.sqlite"
    if db not in conns:
        conns[db] = sqlite3.connect(f"file:{path}?mode=ro", uri=True) if os.path.exists(path) else None
    c = conns[db]
    if c is None:
        continue
    n += 1
    for sql in (q["query"], p):
        try:
            c.execute(sql).fetchall()
        except Exception:
            pass
print(n)
PY

one=(--pred "DAIL=$shared/predictions/DAIL.txt")
seven=()
for s in C3 DAIL DIN RASAT+PICARD RESDSQL SuperSQL codeS; do seven+=(--pred "$s=$shared/predictions/$s.txt"); done
ds=(--dataset "spider:$shared")
n=$(python3 "$tmp/floor.py" "$shared/database" "$shared/dev.json" "$shared/predictions/DAIL.txt")
echo "== speed: Spider dev, $n executable questions, $runs interleaved rounds (medians)"
for r in $(seq "$runs"); do
  wall floor python3 "$tmp/floor.py" "$shared/database" "$shared/dev.json" "$shared/predictions/DAIL.txt"
  rm -rf "$tmp/run"; wall ex1 "$nb" eval "${ds[@]}" "${one[@]}" --metrics ex --out "$tmp/run" --json
  rm -rf "$tmp/run"; wall all1 "$nb" eval "${ds[@]}" "${one[@]}" --out "$tmp/run" --json
  rm -rf "$tmp/run"; wall all7 "$nb" eval "${ds[@]}" "${seven[@]}" --out "$tmp/run" --json
  echo "round $r done" >&2
done
floor=$(cut -d' ' -f1 "$tmp/floor" | median)
report() { # CASE LABEL TARGET
  local m runs_list
  m=$(cut -d' ' -f1 "$tmp/$1" | median)
  runs_list=$(cut -d' ' -f1 "$tmp/$1" | tr '\n' ' ')
  awk -v m="$m" -v f="$floor" -v l="$2" -v t="$3" -v r="$runs_list" 'BEGIN {printf "%-42s median %.3f s  %5.2fx floor%s  (runs: %s)\n", l, m, m/f, (t == "" ? "" : sprintf(" (target <= %s)", t)), r}'
}
report floor "floor: python sqlite3, gold + DAIL, fetchall" ""
report ex1 "nl2sqlbench --metrics ex, DAIL" "1.3x"
report all1 "nl2sqlbench every metric, DAIL" ""
report all7 "nl2sqlbench every metric, 7 systems" "3x"

[ "${SKIP_MEMORY:-}" = 1 ] && exit 0
echo "== memory: 1,000,000-row results, default --max-rows ($memruns rounds, medians)"
python3 - "$tmp/mem" <<'PY'
import json, os, sqlite3, sys
d = sys.argv[1]; os.makedirs(f"{d}/big", exist_ok=True)
c = sqlite3.connect(f"{d}/big/big.sqlite")
c.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT, score REAL)")
c.executemany("INSERT INTO t VALUES (?, ?, ?)", ((i, f"name {i}", i / 7) for i in range(1_000_000)))
c.commit()
with open(f"{d}/q1.jsonl", "w") as f:
    f.write(json.dumps({"question_id": "all", "db_id": "big", "question": "all rows", "gold": "SELECT id, name, score FROM t"}) + "\n")
with open(f"{d}/p1.txt", "w") as f:
    f.write("SELECT id, name, score FROM t ORDER BY id DESC\n")
with open(f"{d}/q2.jsonl", "w") as f:
    f.write(json.dumps({"question_id": "ten", "db_id": "big", "question": "ten rows", "gold": "SELECT id FROM t WHERE id < 10"}) + "\n")
with open(f"{d}/p2.txt", "w") as f:
    f.write("SELECT a.id FROM t a, t b WHERE b.id < 10\n")  # 10,000,000 rows
PY
for r in $(seq "$memruns"); do
  rm -rf "$tmp/m"; wall mem1 "$nb" eval --dataset "jsonl:$tmp/mem/q1.jsonl" --pred "p=$tmp/mem/p1.txt" --out "$tmp/m" --json
  v1=$(grep -o '"verdict":"[a-z_]*"' "$tmp/m/p/records.jsonl")
  rm -rf "$tmp/m"; wall memx "$nb" eval --dataset "jsonl:$tmp/mem/q1.jsonl" --pred "p=$tmp/mem/p1.txt" --out "$tmp/m" --json --metrics ex
  rm -rf "$tmp/m"; wall mem10 "$nb" eval --dataset "jsonl:$tmp/mem/q2.jsonl" --pred "p=$tmp/mem/p2.txt" --out "$tmp/m" --json
  v2=$(grep -o '"error_category":"[a-z_]*"' "$tmp/m/p/records.jsonl")
done
rss() { cut -d' ' -f2 "$tmp/$1" | median | awk '{printf "%.0f MB", $1/1024}'; }
echo "1M x 3 rows, gold and prediction, every metric:  peak RSS $(rss mem1) (target <= 250 MB), wall $(cut -d' ' -f1 "$tmp/mem1" | median) s; $v1"
echo "1M x 3 rows, gold and prediction, --metrics ex:  peak RSS $(rss memx), wall $(cut -d' ' -f1 "$tmp/memx" | median) s"
echo "10M-row prediction, stops at the cap:            wall $(cut -d' ' -f1 "$tmp/mem10" | median) s (target < 1 s), peak RSS $(rss mem10); $v2"
