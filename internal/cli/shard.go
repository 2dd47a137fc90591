package cli

import (
	"os"

	"github.com/nl2sqlbench/nl2sqlbench/internal/benchrun"
	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset"
)

// shardUsage is the --shard help of eval and collect.
const shardUsage = "run only shard INDEX/COUNT of the questions (0-based: 0/3, 1/3, 2/3), a database's questions kept together; " +
	"auto: from a Kubernetes Indexed Job (JOB_COMPLETION_INDEX, NL2SQLBENCH_SHARDS) or a Slurm array (SLURM_ARRAY_TASK_ID); see docs/scale.md"

// parseShardFlag reads --shard ("" when not given: nil, every question).
func parseShardFlag(arg string) (*dataset.Shard, error) {
	if arg == "" {
		return nil, nil
	}
	s, err := benchrun.ParseShard(arg, os.Getenv)
	if err != nil {
		return nil, err
	}
	return &s, nil
}
