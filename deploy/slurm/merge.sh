#!/usr/bin/env bash
# Merges the shard runs deploy/slurm/eval-array.sh wrote into $RUNS/merged; submit it with
# --dependency=afterok:<array job id> (docs/scale.md). merge refuses a missing, duplicated
# or foreign shard, naming it.
#
#SBATCH --job-name=nl2sqlbench-merge
#SBATCH --cpus-per-task=1
#SBATCH --mem=2G
#SBATCH --time=00:30:00
#SBATCH --output=nl2sqlbench-merge-%j.log
set -euo pipefail

nl2sqlbench=${NL2SQLBENCH:-nl2sqlbench}
: "${RUNS:?set RUNS to the directory holding the shard runs}"
shopt -s nullglob
shards=("$RUNS"/shard-*/)
[ ${#shards[@]} -gt 0 ] || { echo "merge: no shard run under $RUNS" >&2; exit 1; }
# MERGE_FLAGS: further merge flags, split into words (e.g. "--allow-mixed-hosts").
# shellcheck disable=SC2086
exec "$nl2sqlbench" merge "${shards[@]%/}" --out "$RUNS/merged" ${MERGE_FLAGS:-}
