#!/usr/bin/env bash
# Crash test of eval --resume (issue 13): kill -9 an eval at N random moments, resume it,
# and check the records against an uninterrupted run's.
#
#  1. builds the binary once and judges Spider dev (DAIL and C3) uninterrupted into REF,
#     timing it;
#  2. N times: starts the same eval into a fresh --out D in the background, sleeps a
#     random delay (uniform over 0.05 s .. 0.9 x the reference's wall time), kill -9s it,
#     then runs --resume --out D. In every other trial the resume is itself killed once
#     at a random moment and resumed again (a resume of a resume). A trial whose run ended
#     before its kill is retried with a shorter delay, so each trial kills at least once;
#  3. compares every system's records.jsonl with REF's line for line, without the timing
#     fields (exec_ms; and the --ves ones, should the command grow them), and summary.json
#     without its timestamps.
#
# A run killed before it wrote manifest.json leaves an empty or partial directory, which
# --resume starts afresh (README, "--resume"); a resume refused for want of a manifest
# would be rerun fresh with --force, as a user would, and is counted ("refused").
#
# Usage: scripts/kill_resume.sh [N]   (default 20). Needs ../shared beside the repository
# and python3. Prints one line per trial and a final line
#   N trials: L lost, D duplicated, X differing
# and exits 1 if any count is non-zero, a summary.json differs, or a run fails.
set -euo pipefail
cd "$(dirname "$0")/.."
trials=${1:-20}
case $trials in '' | *[!0-9]* | 0) echo "usage: scripts/kill_resume.sh [N]   (N > 0 trials, default 20)" >&2; exit 2 ;; esac
shared=../shared/data/spider
[ -d "$shared" ] || { echo "kill_resume: $shared not found" >&2; exit 1; }
command -v python3 >/dev/null || { echo "kill_resume: python3 not found" >&2; exit 1; }
tmp=$(mktemp -d)
keep= # set when a trial fails: its run directory is kept for inspection
trap '[ -n "$keep" ] && echo "kept $tmp for inspection" >&2 || rm -rf "$tmp"' EXIT
bin=$tmp/nl2sqlbench
go build -o "$bin" ./cmd/nl2sqlbench

args=(eval --dataset "spider:$shared" --pred "DAIL=$shared/predictions/DAIL.txt"
	--pred "C3=$shared/predictions/C3.txt" --workers 2)

start=$(date +%s.%N)
"$bin" "${args[@]}" --out "$tmp/REF" >"$tmp/ref.log" 2>&1 || { cat "$tmp/ref.log" >&2; exit 1; }
duration=$(echo "$(date +%s.%N) - $start" | bc)
echo "reference run: ${duration}s, $(cat "$tmp"/REF/*/records.jsonl | wc -l) records"

# records D holds now (lines of every system; none when the run made no directory yet).
present() { { cat "$1"/*/records.jsonl 2>/dev/null || true; } | wc -l; }

# random_delay MAX: a delay in seconds, uniform over 0.05 .. MAX.
random_delay() { python3 -c "import random,sys; print(f'{random.uniform(0.05, max(0.05, float(sys.argv[1]))):.3f}')" "$1"; }

# kill_at D DELAY CMD...: runs CMD in the background, kill -9s it after DELAY seconds.
# Prints the records D holds at the kill, or "done" when CMD ended before it.
kill_at() {
	local d=$1 delay=$2
	shift 2
	"$@" >>"$d.log" 2>&1 &
	local pid=$!
	sleep "$delay"
	if kill -9 "$pid" 2>/dev/null; then
		wait "$pid" 2>/dev/null || true
		present "$d"
	else
		wait "$pid" 2>/dev/null || true
		echo done
	fi
}

# resume D: continues D; a refused resume (no manifest.json beside records) is rerun
# fresh with --force and counted. Prints "resumed" or "refused".
resume() {
	local d=$1
	if "$bin" "${args[@]}" --resume --out "$d" >>"$d.log" 2>&1; then
		echo resumed
	elif grep -q 'no manifest.json' "$d.log"; then
		"$bin" "${args[@]}" --force --out "$d" >>"$d.log" 2>&1 || { echo "rerun of $d failed:" >&2; cat "$d.log" >&2; exit 1; }
		echo refused
	else
		echo "resume of $d failed:" >&2
		cat "$d.log" >&2
		exit 1
	fi
}

max=$(echo "0.9 * $duration" | bc -l)
lost=0 dup=0 differ=0 sums=0 refused=0 fresh=0
for t in $(seq 1 "$trials"); do
	d=$tmp/run$t
	limit=$max
	while :; do # retried with a shorter delay until the kill lands before the run ends
		rm -rf "$d" "$d.log"
		delay=$(random_delay "$limit")
		at=$(kill_at "$d" "$delay" "$bin" "${args[@]}" --out "$d")
		[ "$at" != done ] && break
		limit=$(echo "$delay / 2" | bc -l)
	done
	[ -f "$d/manifest.json" ] || fresh=$((fresh + 1))
	outcome="killed at ${delay}s with $at records"
	[ -f "$d/manifest.json" ] || outcome+=" (no manifest yet)"
	if [ $((t % 2)) -eq 0 ]; then # kill the resume too, then resume again
		delay2=$(random_delay "$max")
		at2=$(kill_at "$d" "$delay2" "$bin" "${args[@]}" --resume --out "$d")
		if [ "$at2" = done ]; then
			outcome+="; resume finished before a kill at ${delay2}s"
		else
			outcome+="; resume killed at ${delay2}s with $at2 records"
		fi
	fi
	how=$(resume "$d")
	[ "$how" = refused ] && refused=$((refused + 1))
	outcome+="; $how"
	counts=$(python3 - "$tmp/REF" "$d" <<'PY'
import json, os, sys
from collections import Counter

# Fields whose values depend on how long queries took, not on what they returned.
TIMING = {"exec_ms", "gold_ms", "pred_ms", "time_ratio", "time_ratio_spread",
          "timing_iterations", "timing", "ves", "rves_reward", "latency_ms"}

def records(path):
    out = []
    with open(path) as f:
        for line in f:
            try:
                r = json.loads(line)
            except ValueError:
                r = {"unreadable": line}
            for k in TIMING:
                r.pop(k, None)
            out.append(r)
    return out

ref, run = sys.argv[1], sys.argv[2]
lost = dup = differ = 0
notes = []
for sysdir in sorted(os.listdir(ref)):
    p = os.path.join(ref, sysdir, "records.jsonl")
    if not os.path.isfile(p):
        continue
    want = records(p)
    q = os.path.join(run, sysdir, "records.jsonl")
    got = records(q) if os.path.exists(q) else []
    idx = Counter(r.get("index") for r in got)
    l = sum(1 for r in want if idx[r["index"]] == 0)
    d = sum(n - 1 for n in idx.values() if n > 1)
    x = sum(1 for i, r in enumerate(want) if i < len(got) and got[i] != r) + max(0, len(got) - len(want))
    if l or d or x:
        first = next((i for i, r in enumerate(want) if i >= len(got) or got[i] != r), len(want))
        notes.append(f"{sysdir}: {len(got)} lines, first difference at line {first + 1}")
    lost, dup, differ = lost + l, dup + d, differ + x

def summary(path):
    s = json.load(open(path))
    s.pop("created_at", None)
    s.get("manifest", {}).pop("started_at", None)
    return s

sp = os.path.join(run, "summary.json")
sdiff = int(not os.path.exists(sp) or summary(sp) != summary(os.path.join(ref, "summary.json")))
if sdiff:
    notes.append("summary.json differs")
print(lost, dup, differ, sdiff, "; ".join(notes))
PY
)
	read -r l dd x sd note <<<"$counts"
	lost=$((lost + l)) dup=$((dup + dd)) differ=$((differ + x)) sums=$((sums + sd))
	if [ -n "$note" ]; then
		outcome+="; $note (run in $d)"
		keep=1
	else
		rm -rf "$d" "$d.log"
	fi
	printf 'trial %2d: %s; lost %d, duplicated %d, differing %d\n' "$t" "$outcome" "$l" "$dd" "$x"
done
echo "first kills before manifest.json (resumed afresh): $fresh; resumes refused (rerun fresh): $refused; summaries differing: $sums"
echo "$trials trials: $lost lost, $dup duplicated, $differ differing"
[ $((lost + dup + differ + sums)) -eq 0 ]
