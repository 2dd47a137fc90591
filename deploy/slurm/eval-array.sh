#!/usr/bin/env bash
# nl2sqlbench eval as a Slurm job array: task SLURM_ARRAY_TASK_ID judges its shard
# (--shard auto: the task id less SLURM_ARRAY_TASK_MIN, of SLURM_ARRAY_TASK_COUNT shards)
# into $RUNS/shard-<task id> on a shared file system; deploy/slurm/merge.sh, started
# once every task succeeded, merges them (docs/scale.md):
#
#   export DATASET=spider:/shared/spider PREDS="DAIL=/shared/p/DAIL.txt C3=/shared/p/C3.txt"
#   export RUNS=/shared/runs/spider-dev
#   job=$(sbatch --parsable deploy/slurm/eval-array.sh)
#   sbatch --dependency=afterok:$job deploy/slurm/merge.sh
#
# The array must be one range with step 1 (0-6 and 1-7 both give 7 shards); its size is
# the number of shards; --array on sbatch's command line overrides the one below
# (sbatch --array=0-2 for 3 shards). sbatch exports the submitting shell's environment
# (DATASET, PREDS, RUNS, NL2SQLBENCH, EXTRA) to every task, which runs in the directory
# sbatch was called from: give absolute paths. A requeued or resubmitted task continues
# its shard (--resume); a requeued task appends to its log (--open-mode=append), so the
# log keeps every attempt, each opened by a line saying whether it starts or resumes.
#
#SBATCH --job-name=nl2sqlbench-eval
#SBATCH --array=0-6
#SBATCH --cpus-per-task=4
#SBATCH --mem=4G
#SBATCH --time=04:00:00
#SBATCH --output=nl2sqlbench-eval-%A_%a.log
#SBATCH --open-mode=append
set -euo pipefail

nl2sqlbench=${NL2SQLBENCH:-nl2sqlbench} # the binary
: "${DATASET:?set DATASET=KIND:PATH (e.g. spider:/shared/spider)}"
: "${PREDS:?set PREDS to the NAME=FILE prediction files, separated by spaces}"
: "${RUNS:?set RUNS to the shared directory receiving the shard runs}"
: "${SLURM_ARRAY_TASK_ID:?not a Slurm array task (set SLURM_ARRAY_TASK_ID to run by hand)}"

out=$RUNS/shard-$SLURM_ARRAY_TASK_ID
args=(eval --dataset "$DATASET" --shard auto --resume
	--workers "${SLURM_CPUS_PER_TASK:-4}" --out "$out")
for p in $PREDS; do
	args+=(--pred "$p")
done
# EXTRA: further eval flags for every shard, e.g. "--ves --timing robust".
# shellcheck disable=SC2206
args+=(${EXTRA:-})
mkdir -p "$RUNS"
# Where the shard stands: the judged records an earlier attempt left (complete lines).
done=0
for f in "$out"/*/records.jsonl; do
	if [ -f "$f" ]; then done=$((done + $(wc -l <"$f"))); fi
done
what="starting $out"
[ "$done" = 0 ] || what="resuming $out: $done records judged by an earlier attempt, which --resume keeps"
echo "nl2sqlbench-eval: task $SLURM_ARRAY_TASK_ID of array ${SLURM_ARRAY_JOB_ID:-?} on ${SLURMD_NODENAME:-$(hostname)}, restart ${SLURM_RESTART_COUNT:-0}: $what"
exec "$nl2sqlbench" "${args[@]}"
