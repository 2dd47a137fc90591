#!/usr/bin/env bash
# Sharded runs as separate processes (issue 18), checked against an unsharded run.
#
#  1. builds the binary and judges Spider dev (DAIL, C3, DIN) unsharded;
#  2. for N = 1, 3 and 7: runs the N shards as N separate processes (two at a time, the
#     machine's cores), merges them, and compares every system's records.jsonl with the
#     unsharded run's line by line without exec_ms (a wall time), each statistics.json
#     byte for byte, and summary.json without created_at and the manifest;
#  3. shows merge refusing a missing, a duplicated and a foreign shard (shard 0 of 3
#     judged with another prediction file for DAIL), each message naming the directory;
#  4. runs deploy/slurm/eval-array.sh by hand (SLURM_ARRAY_TASK_ID=0..2 set here, as
#     Slurm would) and deploy/slurm/merge.sh on the embedded demo, and the GNU parallel
#     line of docs/scale.md when parallel is installed, each compared with an unsharded
#     demo run the same way.
#
# Usage: scripts/shard_check.sh   Needs ../shared beside the repository, python3.
# Prints one line per check and exits 1 on any difference or unexpected outcome.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
spider=$repo/../shared/data/spider
[ -d "$spider" ] || { echo "shard_check: $spider not found" >&2; exit 1; }
command -v python3 >/dev/null || { echo "shard_check: python3 not found" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bin=$tmp/nl2sqlbench
go build -o "$bin" ./cmd/nl2sqlbench
fail=0

# same_run MERGED FULL SYSTEM...: records without exec_ms, statistics.json, summary.json
# without created_at, manifest and file hashes (scripts/samerun.py).
same_run() {
	python3 "$repo/scripts/samerun.py" "$@"
}

# expect_refusal NAME WANT ARGS...: merge must fail and say WANT.
expect_refusal() {
	local name=$1 want=$2
	shift 2
	local err
	if err=$("$bin" merge "$@" --out "$tmp/refused-$name" 2>&1 >/dev/null); then
		echo "$name shard: merge ACCEPTED it"
		fail=1
		return
	fi
	if [[ $err != *"$want"* ]]; then
		echo "$name shard: refused, but without naming $want: $err"
		fail=1
		return
	fi
	echo "$name shard refused: ${err#nl2sqlbench: }"
}

cd "$tmp"
trap 'echo "shard_check: failed at line $LINENO" >&2' ERR
args=(eval --dataset "spider:$spider" --workers 2 --json
	--pred "DAIL=$spider/predictions/DAIL.txt" --pred "C3=$spider/predictions/C3.txt" --pred "DIN=$spider/predictions/DIN.txt")
t0=$(date +%s.%N)
"$bin" "${args[@]}" --out full >/dev/null 2>&1
echo "spider dev unsharded: $(python3 -c "print(f'{$(date +%s.%N)-$t0:.1f}')") s"
for n in 1 3 7; do
	t0=$(date +%s.%N)
	seq 0 $((n - 1)) | xargs -P 2 -I{} sh -c '"$0" "$@" --shard {}/'"$n"' --out n'"$n"'-shard-{} >/dev/null 2>&1' "$bin" "${args[@]}"
	shards=()
	for i in $(seq 0 $((n - 1))); do shards+=("n$n-shard-$i"); done
	"$bin" merge "${shards[@]}" --json --out "n$n-merged" >/dev/null
	secs=$(python3 -c "print(f'{$(date +%s.%N)-$t0:.1f}')")
	if line=$(same_run "n$n-merged" full DAIL C3 DIN); then
		echo "N=$n: $n processes + merge in $secs s: $line"
	else
		echo "N=$n: $line"
		fail=1
	fi
done

for n in 3 7; do
	echo "N=$n shard sizes (questions): $(for i in $(seq 0 $((n - 1))); do python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["settings"]["shard"]["questions"], end=" ")' "n$n-shard-$i/manifest.json"; done)"
done

# Refusals, on the 3-shard run.
expect_refusal missing "2/3 (" n3-shard-0 n3-shard-1
cp -r n3-shard-1 n3-shard-1-copy
expect_refusal duplicated "n3-shard-1 and n3-shard-1-copy" n3-shard-0 n3-shard-1 n3-shard-1-copy n3-shard-2
foreign=("${args[@]}")
foreign[7]="DAIL=$spider/predictions/C3.txt"
"$bin" "${foreign[@]}" --shard 0/3 --out foreign-0 >/dev/null 2>&1
expect_refusal foreign "foreign-0 is not a shard of the same run" foreign-0 n3-shard-1 n3-shard-2

# The Slurm array script, by hand, on the demo.
"$bin" demo --cache "$tmp/demo" --out demo-full --json >/dev/null 2>&1
q=$(echo "$tmp"/demo/*/questions.jsonl)
d=$(dirname "$q")
systems=(baseline reviser sampler-5)
preds=""
for s in "${systems[@]}"; do preds="$preds $s=$d/systems/$s.jsonl"; done
"$bin" eval --dataset "jsonl:$q" --db-root "$d/databases" --pred "baseline=$d/systems/baseline.jsonl" \
	--pred "reviser=$d/systems/reviser.jsonl" --pred "sampler-5=$d/systems/sampler-5.jsonl" --timeout 2s --max-rows 10000 --json --out demo-unsharded >/dev/null 2>&1
# The demo's databases are not beside its questions file: --db-root goes in EXTRA.
export NL2SQLBENCH=$bin DATASET="jsonl:$q" PREDS=$preds RUNS=$tmp/slurm EXTRA="--db-root $d/databases --timeout 2s --max-rows 10000"
for id in 0 1 2; do
	SLURM_ARRAY_TASK_ID=$id SLURM_ARRAY_TASK_MIN=0 SLURM_ARRAY_TASK_MAX=2 SLURM_ARRAY_TASK_COUNT=3 SLURM_CPUS_PER_TASK=2 \
		bash "$repo/deploy/slurm/eval-array.sh" >/dev/null 2>&1
done
bash "$repo/deploy/slurm/merge.sh" >/dev/null
if line=$(same_run "$RUNS/merged" demo-unsharded "${systems[@]}"); then
	echo "slurm (demo, SLURM_ARRAY_TASK_ID=0..2 by hand): $line"
else
	echo "slurm: $line"
	fail=1
fi

# The GNU parallel line of docs/scale.md, on the demo.
if command -v parallel >/dev/null; then
	parallel -j 2 "$bin" eval --dataset "jsonl:$q" --db-root "$d/databases" \
		--pred "baseline=$d/systems/baseline.jsonl" --pred "reviser=$d/systems/reviser.jsonl" --pred "sampler-5=$d/systems/sampler-5.jsonl" \
		--timeout 2s --max-rows 10000 --shard {}/3 --json --out par/shard-{} '>' /dev/null '2>&1' ::: 0 1 2
	"$bin" merge par/shard-* --json --out par/merged >/dev/null
	if line=$(same_run par/merged demo-unsharded "${systems[@]}"); then
		echo "GNU parallel (demo, 3 shards): $line"
	else
		echo "GNU parallel: $line"
		fail=1
	fi
else
	echo "GNU parallel: not installed, line not run"
fi
exit $fail
