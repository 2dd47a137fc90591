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
# the number of shards. sbatch exports the submitting shell's environment (DATASET,
# PREDS, RUNS, NL2SQLBENCH, EXTRA) to every task. A requeued or resubmitted task
# continues its shard (--resume).
#
#SBATCH --job-name=nl2sqlbench-eval
#SBATCH --array=0-6
#SBATCH --cpus-per-task=4
#SBATCH --mem=4G
#SBATCH --time=04:00:00
#SBATCH --output=nl2sqlbench-eval-%A_%a.log
set -euo pipefail

nl2sqlbench=${NL2SQLBENCH:-nl2sqlbench} # the binary
: "${DATASET:?set DATASET=KIND:PATH (e.g. spider:/shared/spider)}"
: "${PREDS:?set PREDS to the NAME=FILE prediction files, separated by spaces}"
: "${RUNS:?set RUNS to the shared directory receiving the shard runs}"
: "${SLURM_ARRAY_TASK_ID:?not a Slurm array task (set SLURM_ARRAY_TASK_ID to run by hand)}"

args=(eval --dataset "$DATASET" --shard auto --resume
	--workers "${SLURM_CPUS_PER_TASK:-4}" --out "$RUNS/shard-$SLURM_ARRAY_TASK_ID")
for p in $PREDS; do
	args+=(--pred "$p")
done
# EXTRA: further eval flags for every shard, e.g. "--ves --timing robust".
# shellcheck disable=SC2206
args+=(${EXTRA:-})
mkdir -p "$RUNS"
exec "$nl2sqlbench" "${args[@]}"
