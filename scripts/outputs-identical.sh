#!/usr/bin/env bash
# Are a refactor's outputs byte-identical to a base revision's? Builds the base binary
# (from BASE_REV, default main) and the new one (this work tree), runs both over the same
# corpus of real runs (eval on Spider, BIRD, the demo, with the settings that shape
# verdicts varied; shards merged; compare; verify; report --md/--html), and diffs every
# output: stdout, stderr, summary.json, manifest.json, records.jsonl, statistics.json,
# audit.jsonl, the Markdown and HTML reports. Only what varies from one run to the next
# is normalised away (times, the executable's hash and version, record hashes, the run
# directory's path): scripts/outputs-normalize.py says exactly what.
#
#     bash scripts/outputs-identical.sh [BASE_REV]       # exit 0: identical; 1: differences listed
#
# Needs ../shared (the real data) and python3. Takes a few minutes on 2 cores.
# KEEP=1 keeps the work directory (printed) for a look at the differences.
set -euo pipefail
cd "$(dirname "$0")/.."
base_rev=${1:-main}
shared=${NL2SQLBENCH_SHARED:-../shared}
[ -d "$shared/data/spider" ] || { echo "outputs-identical: $shared/data/spider not found (set NL2SQLBENCH_SHARED)" >&2; exit 2; }
shared=$(cd "$shared" && pwd)
work=$(mktemp -d /tmp/outputs-identical.XXXXXX)
[ "${KEEP:-}" = 1 ] || trap 'rm -rf "$work"' EXIT
echo "outputs-identical: base $base_rev ($(git rev-parse --short "$base_rev")), new: this tree; work in $work"

mkdir -p "$work/src-base" "$work/bin"
git archive "$base_rev" | tar -x -C "$work/src-base"
(cd "$work/src-base" && go build -o "$work/bin/base" ./cmd/nl2sqlbench)
go build -o "$work/bin/new" ./cmd/nl2sqlbench

S=$shared/data/spider
B=$shared/data/bird
sp="--dataset spider:$S --pred DAIL=$S/predictions/DAIL.txt --pred C3=$S/predictions/C3.txt --pred DIN=$S/predictions/DIN.txt"
mini="--dataset bird:$B/mini_dev_sqlite.json --db-root $B/dev_databases --db-id superhero --allow-missing"
mp=$B/predictions/mini_dev
minipred="--pred gpt4=$mp/predict_mini_dev_gpt-4_sqlite.json --pred gpt35=$mp/predict_mini_dev_gpt-35-turbo_sqlite.json --pred llama70=$mp/predict_mini_dev_meta-llama-3-70b-instruct-2_sqlite.json"
birddev="--dataset bird:$B/dev.json --db-root $B/dev_databases --db-id superhero --allow-missing"

# name|eval arguments (the run directory is added). Every Spider dev database with the
# default settings, then variants of the settings that shape verdicts on a few of them.
cases=()
for db in world_1 car_1 cre_Doc_Template_Mgt dog_kennels flight_2 student_transcripts_tracking \
  wta_1 tvshow network_1 concert_singer pets_1 poker_player orchestra employee_hire_evaluation \
  course_teach singer museum_visit battle_death voter_1 real_estate_properties; do
  cases+=("spider-$db|$sp --db-id $db")
done
for db in car_1 concert_singer pets_1 flight_2; do
  cases+=(
    "spider-$db-bird|$sp --db-id $db --semantics bird"
    "spider-$db-spcorr|$sp --db-id $db --spider-mode corrected"
    "spider-$db-etmcorr|$sp --db-id $db --etm-mode corrected --etm-verbose"
    "spider-$db-ex|$sp --db-id $db --metrics ex"
    "spider-$db-spidergroup|$sp --db-id $db --metrics spider"
    "spider-$db-birdgroup|$sp --db-id $db --metrics bird"
    "spider-$db-esmstrict|$sp --db-id $db --esm-values --esm-distinct"
    "spider-$db-flex|$sp --db-id $db --flex"
    "spider-$db-ts|$sp --db-id $db --test-suite --test-suite-budget 20,2s"
    "spider-$db-audit|$sp --db-id $db --audit"
    "spider-$db-passk|$sp --db-id $db --pass-k 1,3"
    "spider-$db-esmonly|$sp --db-id $db --metrics esm,etm"
  )
done
cases+=(
  "spider-all|$sp"
  "minidev|$mini $minipred"
  "minidev-spider|$mini $minipred --semantics spider"
  "minidev-ex|$mini $minipred --metrics ex,soft_f1"
  "minidev-audit|$mini $minipred --audit"
  "minidev-ts|$mini $minipred --test-suite --test-suite-budget 20,2s"
  "minidev-corr|$mini $minipred --metrics bird"
  "birddev|$birddev --pred C3=$B/predictions/dev/C3.txt --pred DAIL=$B/predictions/dev/DAIL.txt --pred TA=$B/predictions/dev/TA-SQL_predict_dev.json"
  "birddev-details|$birddev --pred SuperSQL=$B/predictions/dev/SuperSQL.txt --pred CodeS=$B/predictions/dev/CodeS-15b.txt"
)

fails=0 compared=0
note_diff() { echo "DIFF $1"; fails=$((fails + 1)); }
# same FILE_A FILE_B LABEL: compare two outputs after normalising what varies.
same() {
  compared=$((compared + 1))
  if ! cmp -s <(python3 scripts/outputs-normalize.py "$1" "$work") <(python3 scripts/outputs-normalize.py "$2" "$work"); then
    note_diff "$3"
    diff <(python3 scripts/outputs-normalize.py "$1" "$work") <(python3 scripts/outputs-normalize.py "$2" "$work") | head -${DIFF_LINES:-8} || true
  fi
}
# run WHICH OUTDIR CMD...: a command of one binary, stdout/stderr kept beside OUTDIR.
run() {
  local which=$1 out=$2; shift 2
  local rc=0
  "$work/bin/$which" "$@" >"$out.stdout" 2>"$out.stderr" || rc=$?
  echo "exit $rc" >"$out.exit"
}
# same_dir A B LABEL: every file of two run directories (and the file lists).
same_dir() {
  same <(cd "$1" && find . -type f | sort) <(cd "$2" && find . -type f | sort) "$3 (file list)"
  while IFS= read -r f; do
    [ -f "$2/$f" ] && same "$1/$f" "$2/$f" "$3/$f"
  done < <(cd "$1" && find . -type f | sort)
}

mkdir -p "$work/base" "$work/new" "$work/out"
n=0
for c in "${cases[@]}"; do
  name=${c%%|*} args=${c#*|}
  n=$((n + 1))
  # The two binaries run side by side (2 cores); outputs never depend on timing.
  for which in base new; do
    # shellcheck disable=SC2086 # args are word lists by design
    run "$which" "$work/$which/$name" eval $args --details --out "$work/$which/$name" &
  done
  wait
  same "$work/base/$name.exit" "$work/new/$name.exit" "$name: eval exit status"
  same "$work/base/$name.stdout" "$work/new/$name.stdout" "$name: eval stdout"
  same "$work/base/$name.stderr" "$work/new/$name.stderr" "$name: eval stderr"
  [ -d "$work/base/$name" ] && same_dir "$work/base/$name" "$work/new/$name" "$name"
  # Renderers of one run (the base's), by each binary.
  if [ -f "$work/base/$name/summary.json" ]; then
    for which in base new; do
      mkdir -p "$work/out/$which"
      {
        run "$which" "$work/out/$which/$name-report" report "$work/base/$name" --no-exec \
          --md "$work/out/$which/$name.md" --html "$work/out/$which/$name.html" --title "$name"
        run "$which" "$work/out/$which/$name-verify" verify "$work/base/$name"
      } &
    done
    wait
    for f in "$name.md" "$name.html" "$name-report.stdout" "$name-report.stderr" "$name-verify.stdout" "$name-verify.stderr" "$name-verify.exit"; do
      same "$work/out/base/$f" "$work/out/new/$f" "$name: $f"
    done
  fi
  echo "case $n/${#cases[@]} $name: $fails differences so far"
done

# Shards and merge, compare, the demo.
for which in base new; do
  d=$work/$which/shards
  mkdir -p "$d"
  for i in 0 1 2; do
    # shellcheck disable=SC2086
    run "$which" "$d/s$i" eval $sp --shard "$i/3" --out "$d/s$i"
  done
  run "$which" "$d/merged" merge "$d/s0" "$d/s1" "$d/s2" --out "$d/merged"
  run "$which" "$d/compare" compare "$work/base/spider-car_1" "$work/base/spider-car_1-spcorr" --system DAIL --metric ex_spider
  run "$which" "$d/compare-json" compare "$work/base/spider-all" "$work/base/spider-all" --system C3 --json
  # shellcheck disable=SC2086
  run "$which" "$d/json" eval $sp --db-id pets_1 --json --out "$d/json-run"
  run "$which" "$d/demo" demo --out "$d/demo" --details
done
for f in s0 s1 s2 merged demo; do
  same "$work/base/shards/$f.stdout" "$work/new/shards/$f.stdout" "shards: $f stdout"
  same_dir "$work/base/shards/$f" "$work/new/shards/$f" "shards/$f"
done
for f in compare compare-json json; do
  same "$work/base/shards/$f.stdout" "$work/new/shards/$f.stdout" "$f stdout"
done

dirs=$(find "$work/base" -name summary.json | wc -l)
echo "outputs-identical: $dirs run directories per binary, $compared outputs compared, $fails differ"
[ "$fails" = 0 ]
