#!/usr/bin/env bash
# The Slurm recipe (deploy/slurm/) on a real Slurm (issue 35): a one-node cluster on
# localhost runs the eval array and the merge job exactly as docs/scale.md tells a user.
#
#  1. setup: installs Debian's slurm-wlm and munge when missing (apt-get update once),
#     builds the binary once, writes a single-node slurm.conf in a temporary directory
#     (no cgroups: proctrack/linuxproc, task/none; select/cons_tres; its own munge key,
#     socket, state, spool, logs and pid files all in that directory) and starts
#     munged, slurmctld and slurmd on localhost;
#  2. judges Spider dev (DAIL, C3, DIN) unsharded, directly;
#  3. submits `sbatch --parsable --array=0-2 deploy/slurm/eval-array.sh` and
#     `sbatch --dependency=afterok:JOB deploy/slurm/merge.sh` with DATASET, PREDS, RUNS
#     and NL2SQLBENCH exported, as docs/scale.md shows;
#  4. catches task 1 mid-run (its eval is held with SIGSTOP once it has written
#     records: a shard takes about a second), requeues it with `scontrol requeue`
#     (Slurm kills it) and lets it start again at once (Slurm would wait two minutes);
#  5. waits (with a timeout) for the array and the merge, then checks: every task and
#     the merge COMPLETED with exit 0, task 1 restarted once and its log shows both
#     attempts, the first stopped by Slurm's SIGTERM with its records kept, the second
#     continuing the shard; the records the killed attempt left are still there byte
#     for byte (exec_ms included: kept, not judged again);
#     the merged records equal the unsharded run's (timing fields aside), and so do
#     statistics.json and summary.json (created_at and the manifest aside);
#  6. stops every daemon it started, by pid (trap on EXIT), and any process left by
#     them (found by a variable only this run's processes carry).
#
# Usage: scripts/slurm_check.sh   (as root; needs ../shared beside the repository;
# KEEP=1 keeps the temporary directory, logs and runs, when the check fails)
# Exit status: 0 identical (or skipped: "skipping: ..." when ../shared is absent or the
# packages cannot be installed); 1 a real failure of the recipe (a job failed, the merge
# refused) or a difference; 3 the local Slurm could not be brought up, or the task to
# requeue finished before it could be caught (not the recipe's fault: .ci/run reports
# it and goes on).
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
spider=$repo/../shared/data/spider
PATH=$PATH:/usr/sbin:/sbin
export PATH

say() { echo "slurm_check: $*"; }
skip() { say "skipping: $*"; exit 0; }
now() { date +%s.%N; }
since() { python3 -c "import sys; print(f'{float(sys.argv[2]) - float(sys.argv[1]):.1f}')" "$1" "${2:-$(now)}"; }

[ -d "$spider" ] || skip "$spider not found (the Spider dev data in ../shared)"
t_setup=$(now)

# 1. Packages. The postinst scripts must not start the system's own munge and slurm
# services: a policy-rc.d that refuses is put in place for the install when none is.
need=()
command -v munged >/dev/null && command -v mungekey >/dev/null || need+=(munge)
for c in slurmctld slurmd sbatch scontrol squeue sinfo; do
	command -v "$c" >/dev/null || { need+=(slurm-wlm); break; }
done
command -v python3 >/dev/null || need+=(python3)
if [ ${#need[@]} -gt 0 ]; then
	[ "$(id -u)" = 0 ] || skip "${need[*]} not installed and not root"
	command -v apt-get >/dev/null || skip "${need[*]} not installed and no apt-get"
	say "installing ${need[*]}"
	apt=(apt-get -qq -o DPkg::Lock::Timeout=300)
	"${apt[@]}" update || skip "apt-get update failed"
	policy=
	if [ ! -e /usr/sbin/policy-rc.d ]; then
		policy=/usr/sbin/policy-rc.d
		printf '#!/bin/sh\nexit 101\n' >"$policy" && chmod 755 "$policy"
	fi
	ok=1
	DEBIAN_FRONTEND=noninteractive "${apt[@]}" install -y --no-install-recommends "${need[@]}" >/dev/null || ok=0
	[ -z "$policy" ] || rm -f "$policy"
	[ $ok = 1 ] || skip "apt-get install ${need[*]} failed"
fi
[ "$(id -u)" = 0 ] || skip "slurmd runs jobs as root here: run as root (as CI does)"
t_installed=$(now)

tmp=$(mktemp -d /tmp/nl2sqlbench-slurm.XXXXXX)
chmod 755 "$tmp" # munged wants every directory above its socket searchable by all
# Every process of this run (daemons, job steps, jobs) inherits this variable: the
# cleanup finds by it whatever a daemon left behind.
export NL2SQLBENCH_SLURM_CHECK=$tmp
pids=()         # daemons started here, stopped in reverse order
held=""         # the eval held with SIGSTOP, released before anything else
job="" merge="" # the submitted jobs, cancelled on the way out

cleanup() {
	local rc=$?
	trap - EXIT INT TERM
	[ -z "$held" ] || kill -CONT "$held" 2>/dev/null || true
	if [ -n "$job" ] && [ -S "$tmp/munge/socket" ]; then
		scancel "$job" ${merge:+"$merge"} 2>/dev/null || true
	fi
	local i pid
	for ((i = ${#pids[@]} - 1; i >= 0; i--)); do
		pid=${pids[i]}
		kill "$pid" 2>/dev/null || continue
		for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
		kill -KILL "$pid" 2>/dev/null || true
		wait "$pid" 2>/dev/null || true
	done
	# Job steps (slurmstepd) and jobs outlive slurmd: stop any that carry our variable.
	local left
	left=$(python3 - "$$" "$tmp" <<'PY'
import os, signal, sys, time
me, tag = {int(sys.argv[1]), os.getpid(), os.getppid()}, f"NL2SQLBENCH_SLURM_CHECK={sys.argv[2]}".encode()
def ours():
    for p in os.listdir("/proc"):
        if p.isdigit() and int(p) not in me:
            try:
                if tag in open(f"/proc/{p}/environ", "rb").read().split(b"\0"):
                    yield int(p)
            except OSError:
                pass
found = list(ours())
for sig in (signal.SIGCONT, signal.SIGTERM):
    for p in found:
        try: os.kill(p, sig)
        except OSError: pass
time.sleep(1)
for p in ours():
    try: os.kill(p, signal.SIGKILL)
    except OSError: pass
print(len(found))
PY
	) || left="?"
	say "stopped ${#pids[@]} daemons (pids ${pids[*]:-none}); $left leftover processes stopped"
	if [ "$rc" != 0 ] && [ -n "${KEEP:-}" ]; then
		say "kept $tmp"
	else
		rm -rf "$tmp"
	fi
	exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# infra MSG: the local cluster could not be brought up, or could not be made to show
# what is checked; its logs, then exit 3.
infra() {
	say "could not bring up a local Slurm: $*"
	for f in "$tmp"/munge/log "$tmp"/slurmctld.log "$tmp"/slurmd.log; do
		[ -f "$f" ] && { echo "--- $f (last lines)"; tail -n 15 "$f"; }
	done
	exit 3
}
# fail MSG: the recipe or the result is wrong; exit 1.
fail() {
	say "FAILED: $*"
	for f in "$tmp"/submit/*.log; do
		[ -f "$f" ] && { echo "--- $(basename "$f") (last lines)"; tail -n 15 "$f"; }
	done
	[ -f "$tmp/slurmctld.log" ] && { echo "--- slurmctld.log (last lines)"; tail -n 15 "$tmp/slurmctld.log"; }
	exit 1
}

# states JOB: the state of each of JOB's jobs (an array: each task's), sorted.
states() { scontrol -o show job "$1" 2>/dev/null | grep -o 'JobState=[A-Z_]*' | cut -d= -f2 | sort | tr '\n' ' ' | sed 's/ $//'; }
# ended JOB: true once every one of JOB's jobs is in a final state.
ended() {
	local st
	st=$(states "$1")
	[ -n "$st" ] || return 1
	! grep -qvE '^(COMPLETED|FAILED|CANCELLED|TIMEOUT|NODE_FAIL|OUT_OF_MEMORY|BOOT_FAIL|DEADLINE|PREEMPTED)$' <<<"${st// /$'\n'}"
}
# until_in SECONDS CMD...: runs CMD every 0.1 s until it succeeds (true) or SECONDS of
# wall time have passed (false).
until_in() {
	local end=$(($(date +%s) + $1))
	shift
	until "$@"; do
		[ "$(date +%s)" -lt "$end" ] || return 1
		sleep 0.1
	done
}

bin=$tmp/nl2sqlbench
t0=$(now)
go build -o "$bin" ./cmd/nl2sqlbench
build_s=$(since "$t0")

# Two free TCP ports on loopback, so another Slurm on this machine is no matter.
read -r ctld_port slurmd_port < <(python3 -c '
import socket
s = [socket.socket() for _ in range(2)]
for x in s: x.bind(("127.0.0.1", 0))
print(*(x.getsockname()[1] for x in s))')

t0=$(now)
mkdir -m 755 "$tmp/munge"
mkdir "$tmp/state" "$tmp/spool" "$tmp/submit"
mungekey --create --keyfile="$tmp/munge/munge.key" || infra "mungekey failed"
munged -F --key-file="$tmp/munge/munge.key" --socket="$tmp/munge/socket" --pid-file="$tmp/munge/munged.pid" \
	--log-file="$tmp/munge/log" --seed-file="$tmp/munge/seed" >"$tmp/munge/out" 2>&1 &
pids+=($!)
until_in 10 test -S "$tmp/munge/socket" || infra "munged did not create its socket: $(tail -n 3 "$tmp/munge/out")"

# The recipe asks 4 CPUs and 4G per task: the node claims 12 CPUs (config_overrides:
# Slurm believes slurm.conf, not the hardware), so the 3 tasks run at once as on a
# cluster; task/none binds nothing, they share the real cores.
cat >"$tmp/slurm.conf" <<EOF
ClusterName=nl2sqlbench-check
SlurmctldHost=localhost
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$tmp/munge/socket
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/slurmctld.log
SlurmdLogFile=$tmp/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SwitchType=switch/none
MpiDefault=none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/builtin
SchedulerParameters=batch_sched_delay=0,sched_interval=1
SlurmdParameters=config_overrides
ReturnToService=2
KillWait=5
MinJobAge=600
InactiveLimit=0
NodeName=localhost NodeAddr=127.0.0.1 CPUs=12 RealMemory=12288 State=UNKNOWN
PartitionName=check Nodes=localhost Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF=$tmp/slurm.conf
slurmctld -D -f "$SLURM_CONF" >"$tmp/slurmctld.out" 2>&1 &
pids+=($!)
slurmd -D -f "$SLURM_CONF" -N localhost >"$tmp/slurmd.out" 2>&1 &
pids+=($!)
node_idle() { [ "$(sinfo -h -n localhost -o %t 2>/dev/null)" = idle ]; }
until_in 30 node_idle || infra "node localhost is '$(sinfo -h -n localhost -o %t 2>/dev/null)' after 30 s, not idle"
# A job that does nothing must run: what fails from here on is the recipe's doing.
probe=$(cd "$tmp" && sbatch --parsable -o "$tmp/probe.log" --wrap true) || infra "sbatch of a probe job refused"
until_in 60 ended "$probe" || infra "a probe job (sbatch --wrap true) not done after 60 s: $(states "$probe")"
[ "$(states "$probe")" = COMPLETED ] || infra "a probe job (sbatch --wrap true) ended $(states "$probe")"
say "setup $(since "$t_setup") s (packages $(since "$t_setup" "$t_installed") s, go build $build_s s, munged, slurmctld, slurmd up and a probe job run $(since "$t0") s)"

# 2. The unsharded run, with the settings every task uses (--workers is
# SLURM_CPUS_PER_TASK, 4).
preds="DAIL=$spider/predictions/DAIL.txt C3=$spider/predictions/C3.txt DIN=$spider/predictions/DIN.txt"
args=(eval --dataset "spider:$spider" --workers 4)
for p in $preds; do args+=(--pred "$p"); done
t0=$(now)
"$bin" "${args[@]}" --json --out "$tmp/unsharded" >/dev/null 2>"$tmp/unsharded.log" || {
	cat "$tmp/unsharded.log"
	fail "the unsharded eval failed"
}
say "unsharded eval (direct) $(since "$t0") s"

# 3. As docs/scale.md: export the variables, submit the array and the dependent merge.
export DATASET=spider:$spider RUNS=$tmp/runs NL2SQLBENCH=$bin PREDS=$preds
cd "$tmp/submit"
t_submit=$(now)
job=$(sbatch --parsable --array=0-2 "$repo/deploy/slurm/eval-array.sh") || fail "sbatch of the array refused"
job=${job%%;*}
merge=$(sbatch --parsable --dependency=afterok:"$job" "$repo/deploy/slurm/merge.sh") || fail "sbatch of the merge refused"
merge=${merge%%;*}
say "submitted array job $job (tasks 0-2) and merge job $merge (afterok:$job)"

# 4. Task 1 mid-run: hold its eval (SIGSTOP) as soon as it runs, let it go on in
# 50 ms steps until it has written records, then requeue it. When the task cannot be
# caught so (it ran too fast), $unchecked says why and the rest is checked all the same.
shard1=$RUNS/shard-1
unchecked=""
records() { { cat "$shard1"/*/records.jsonl 2>/dev/null || true; } | wc -l; }
requeue_mid_run() {
	local pid="" t1 st="" s
	local end=$(($(date +%s) + 30))
	while [ "$(date +%s)" -lt "$end" ]; do
		pid=$(pgrep -f -- "^$bin eval .*--out $shard1( |\$)" || true)
		[ -n "$pid" ] && break
		sleep 0.01
	done
	if [ -z "$pid" ]; then
		t1=$(scontrol -o show job "${job}_1" | grep -oE '(JobState|Reason|ExitCode)=[^ ]+' | tr '\n' ' ')
		case $t1 in
		*JobState=COMPLETED*) unchecked="task ${job}_1 ended before its eval was seen" ;;
		*JobState=FAILED* | *JobState=CANCELLED* | *JobState=TIMEOUT*) fail "task ${job}_1: $t1" ;;
		*) unchecked="task ${job}_1's eval not seen after 30 s: $t1" ;;
		esac
		return
	fi
	kill -STOP "$pid"
	held=$pid
	end=$(($(date +%s) + 60))
	while [ "$(date +%s)" -lt "$end" ]; do
		[ "$(records)" -gt 0 ] && break
		kill -CONT "$pid"
		sleep 0.05
		kill -STOP "$pid" 2>/dev/null || break
	done
	if ! kill -0 "$pid" 2>/dev/null || [ -e "$shard1/summary.json" ]; then
		held=""
		unchecked="task ${job}_1's eval ended before it could be caught mid-run"
		return
	fi
	if [ "$(records)" = 0 ]; then
		kill -CONT "$pid"
		held=""
		unchecked="task ${job}_1's eval wrote no record in 60 s of steps"
		return
	fi
	say "task ${job}_1 held mid-run with $(records) of its 1041 records (347 questions x 3 systems) written; scontrol requeue ${job}_1"
	scontrol requeue "${job}_1" || fail "scontrol requeue ${job}_1 refused"
	held=""
	# Slurm stops the task (SIGCONT, SIGTERM: it may write a few more records first) and
	# sets its begin time two minutes ahead; a user waits, we don't.
	end=$(($(date +%s) + 30))
	while [ "$(date +%s)" -lt "$end" ]; do
		st=$(scontrol -o show job "${job}_1" | grep -o 'JobState=[A-Z_]*' || true)
		[ "$st" = JobState=PENDING ] && ! kill -0 "$pid" 2>/dev/null && break
		sleep 0.1
	done
	[ "$st" = JobState=PENDING ] || fail "task ${job}_1 not pending after the requeue: $st"
	! kill -0 "$pid" 2>/dev/null || fail "task ${job}_1's eval (pid $pid) still runs 30 s after the requeue"
	# What the killed attempt left (complete lines: a line cut by the kill is no record),
	# to find again, unchanged, once the task has resumed.
	mkdir "$tmp/before"
	for s in DAIL C3 DIN; do
		python3 -c 'import sys; d = open(sys.argv[1], "rb").read(); sys.stdout.buffer.write(d[:d.rfind(b"\n") + 1])' \
			"$shard1/$s/records.jsonl" >"$tmp/before/$s.jsonl" 2>/dev/null || : >"$tmp/before/$s.jsonl"
	done
	left=$(cat "$tmp"/before/*.jsonl | wc -l)
	# slurmd revoked the killed attempt's credential, with a time in whole seconds: an
	# attempt launched within the same second carries a credential it still takes for
	# revoked ("Killing non-startable batch JobId=5: Job credential revoked", the task
	# FAILED; round 55's CI). Slurm itself waits two minutes; two seconds are enough.
	sleep 2
	scontrol update JobId="${job}_1" StartTime=now || fail "could not move the requeued task's start to now"
}
requeue_mid_run

# 5. Wait for the array, then the merge (a failed task leaves the merge pending for
# ever: stop as soon as every task has ended).
deadline=$(($(date +%s) + 240))
until ended "$job"; do
	if [ "$(date +%s)" -ge "$deadline" ]; then
		case " $(states "$job") " in
		*" RUNNING "*) fail "array $job not done after 240 s: $(states "$job")" ;;
		*) infra "array $job never ran in 240 s: $(states "$job")" ;;
		esac
	fi
	sleep 0.2
done
t_array=$(now)
[ "$(states "$job")" = "COMPLETED COMPLETED COMPLETED" ] || fail "array $job: $(states "$job") (want 3 COMPLETED)"
until ended "$merge"; do
	[ "$(date +%s)" -lt "$deadline" ] || fail "merge $merge not done after 240 s: $(scontrol -o show job "$merge" | grep -oE 'JobState=[^ ]+|Reason=[^ ]+' | tr '\n' ' ')"
	sleep 0.2
done
t_merge=$(now)
say "array $(since "$t_submit" "$t_array") s (submission to the last task's end, the requeue included); merge $(since "$t_array" "$t_merge") s (from the array's end)"
mline=$(scontrol -o show job "$merge")
[[ $mline == *"JobState=COMPLETED "* && $mline == *"ExitCode=0:0 "* ]] ||
	fail "merge $merge: $(grep -oE '(JobState|ExitCode|Reason)=[^ ]+' <<<"$mline" | tr '\n' ' ')"
for t in 0 1 2; do
	line=$(scontrol -o show job "${job}_$t")
	[[ $line == *"JobState=COMPLETED "* && $line == *"ExitCode=0:0 "* ]] ||
		fail "task ${job}_$t: $(grep -oE '(JobState|ExitCode|Reason)=[^ ]+' <<<"$line" | tr '\n' ' ')"
	want=0
	[ $t = 1 ] && [ -z "$unchecked" ] && want=1
	[[ $line == *"Restarts=$want "* ]] || fail "task ${job}_$t: want Restarts=$want: $(grep -o 'Restarts=[0-9]*' <<<"$line")"
done

# The requeued task's log: both attempts, the second resuming its shard.
if [ -z "$unchecked" ]; then
	log=$tmp/submit/nl2sqlbench-eval-${job}_1.log
	[ -f "$log" ] || fail "no log $log (the recipe's --output)"
	say "task ${job}_1's log (nl2sqlbench-eval-${job}_1.log), the result tables aside:"
	grep -E '^nl2sqlbench-eval|slurmstepd|CANCELLED|judged in|stopped|interrupt' "$log" | sed 's/^/    /'
	grep -q 'restart 0: starting' "$log" || fail "the log does not show the first attempt starting"
	grep -q '^nl2sqlbench: interrupted at [0-9]* of [0-9]* records (those are kept in .*); resume with: ' "$log" ||
		fail "the log does not show the killed attempt stopping on Slurm's SIGTERM with its records kept"
	grep -q "restart 1: resuming $shard1: $left records judged by an earlier attempt" "$log" ||
		fail "the log does not show the requeued attempt resuming its shard with the $left records the killed one left"
	for s in DAIL C3 DIN; do
		n=$(stat -c %s "$tmp/before/$s.jsonl")
		cmp -s -n "$n" "$tmp/before/$s.jsonl" "$shard1/$s/records.jsonl" ||
			fail "task 1's $s records written before the kill are not kept as they were"
	done
	say "the $left records the killed attempt left are kept byte for byte (exec_ms included): resumed, not judged again"
fi

# The merged run against the unsharded one.
result=$(python3 "$repo/scripts/samerun.py" "$RUNS/merged" "$tmp/unsharded" DAIL C3 DIN) || fail "$result"
say "$result"
if [ -n "$unchecked" ]; then
	say "the requeue was not checked: $unchecked"
	exit 3
fi
