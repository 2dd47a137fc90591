package benchrun

import (
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset"
	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
)

// Environment variables --shard auto reads. A Kubernetes Indexed Job gives each pod its
// 0-based JOB_COMPLETION_INDEX but not the number of completions, so the job spec sets
// EnvShards to it; a Slurm job array gives SLURM_ARRAY_TASK_ID with the array's
// SLURM_ARRAY_TASK_MIN and SLURM_ARRAY_TASK_COUNT (EnvShards, when set, must agree).
// EnvHost names the machine in the manifest instead of the host name (a pod's host
// name is the pod's, not the node's: the Kubernetes recipe sets it to the node name).
const (
	EnvShards    = "NL2SQLBENCH_SHARDS"
	EnvHost      = "NL2SQLBENCH_HOST"
	envK8sIndex  = "JOB_COMPLETION_INDEX"
	envSlurmID   = "SLURM_ARRAY_TASK_ID"
	envSlurmMin  = "SLURM_ARRAY_TASK_MIN"
	envSlurmMax  = "SLURM_ARRAY_TASK_MAX"
	envSlurmN    = "SLURM_ARRAY_TASK_COUNT"
	envSlurmStep = "SLURM_ARRAY_TASK_STEP"
)

// ParseShard reads a --shard value: INDEX/COUNT with a 0-based INDEX (0/3, 1/3 and 2/3
// are the three shards of 3), or "auto", which takes both from a Kubernetes Indexed Job
// or a Slurm job array through getenv (see EnvShards). A mistake is an ErrConfig error
// saying what was wrong.
func ParseShard(arg string, getenv func(string) string) (dataset.Shard, error) {
	if arg == "auto" {
		return shardFromEnv(getenv)
	}
	is, ns, ok := strings.Cut(arg, "/")
	if !ok {
		return dataset.Shard{}, configf("--shard %q: want INDEX/COUNT (0-based INDEX, e.g. 0/3, 1/3, 2/3) or auto", arg)
	}
	i, err1 := natural(is)
	n, err2 := natural(ns)
	if err1 != nil || err2 != nil {
		return dataset.Shard{}, configf("--shard %q: INDEX and COUNT must be whole numbers (e.g. 0/3)", arg)
	}
	return checkShard(fmt.Sprintf("--shard %q", arg), i, n)
}

// checkShard refuses a count below 1 and an index outside 0..n-1, saying that indexes
// are 0-based (the usual slip is a 1-based last shard, n/n).
func checkShard(what string, i, n int) (dataset.Shard, error) {
	switch {
	case n < 1:
		return dataset.Shard{}, configf("%s: COUNT must be at least 1", what)
	case i >= n:
		return dataset.Shard{}, configf("%s: INDEX is 0-based and must be below COUNT: the shards of %d are 0/%d ... %d/%d", what, n, n, n-1, n)
	}
	return dataset.Shard{Index: i, Count: n}, nil
}

// natural parses a decimal number without sign or spaces.
func natural(s string) (int, error) {
	if s == "" || strings.TrimLeft(s, "0123456789") != "" {
		return 0, fmt.Errorf("not a number: %q", s)
	}
	return strconv.Atoi(s)
}

// shardFromEnv is --shard auto.
func shardFromEnv(getenv func(string) string) (dataset.Shard, error) {
	k8s, slurm := getenv(envK8sIndex), getenv(envSlurmID)
	switch {
	case k8s != "" && slurm != "":
		return dataset.Shard{}, configf("--shard auto: both %s (Kubernetes) and %s (Slurm) are set; give --shard INDEX/COUNT", envK8sIndex, envSlurmID)
	case k8s != "":
		i, err := envNumber(getenv, envK8sIndex)
		if err != nil {
			return dataset.Shard{}, err
		}
		if getenv(EnvShards) == "" {
			return dataset.Shard{}, configf("--shard auto: %s=%s is set (a Kubernetes Indexed Job) but %s is not: set it to the Job's completions", envK8sIndex, k8s, EnvShards)
		}
		n, err := envNumber(getenv, EnvShards)
		if err != nil {
			return dataset.Shard{}, err
		}
		return checkShard(fmt.Sprintf("--shard auto (%s=%d, %s=%d)", envK8sIndex, i, EnvShards, n), i, n)
	case slurm != "":
		return slurmShard(getenv)
	}
	return dataset.Shard{}, configf("--shard auto: neither %s (Kubernetes Indexed Job) nor %s (Slurm job array) is set; give --shard INDEX/COUNT", envK8sIndex, envSlurmID)
}

// slurmShard is the shard of a Slurm array task: its id less the array's first id, of
// the array's task count. An array with a step (--array=0-12:2) is refused: its ids do
// not number the shards 0..n-1.
func slurmShard(getenv func(string) string) (dataset.Shard, error) {
	id, err := envNumber(getenv, envSlurmID)
	if err != nil {
		return dataset.Shard{}, err
	}
	if step := getenv(envSlurmStep); step != "" && step != "1" {
		return dataset.Shard{}, configf("--shard auto: %s=%s: the array must have step 1 (e.g. --array=0-6)", envSlurmStep, step)
	}
	lo, n := 0, 0
	if getenv(envSlurmMin) != "" {
		if lo, err = envNumber(getenv, envSlurmMin); err != nil {
			return dataset.Shard{}, err
		}
	}
	switch {
	case getenv(envSlurmN) != "":
		if n, err = envNumber(getenv, envSlurmN); err != nil {
			return dataset.Shard{}, err
		}
	case getenv(EnvShards) != "":
	default:
		return dataset.Shard{}, configf("--shard auto: %s=%d is set but neither %s nor %s says how many shards", envSlurmID, id, envSlurmN, EnvShards)
	}
	if getenv(EnvShards) != "" {
		want, err := envNumber(getenv, EnvShards)
		if err != nil {
			return dataset.Shard{}, err
		}
		if n != 0 && n != want {
			return dataset.Shard{}, configf("--shard auto: %s=%d but %s=%d", envSlurmN, n, EnvShards, want)
		}
		n = want
	}
	if hi := getenv(envSlurmMax); hi != "" && getenv(envSlurmN) != "" {
		h, err := envNumber(getenv, envSlurmMax)
		if err != nil {
			return dataset.Shard{}, err
		}
		if h-lo+1 != n {
			return dataset.Shard{}, configf("--shard auto: the array %d-%d has gaps (%s=%d): give it one contiguous range, e.g. --array=0-%d", lo, h, envSlurmN, n, n-1)
		}
	}
	if id < lo {
		return dataset.Shard{}, configf("--shard auto: %s=%d is below %s=%d", envSlurmID, id, envSlurmMin, lo)
	}
	return checkShard(fmt.Sprintf("--shard auto (%s=%d, %s=%d, %d shards)", envSlurmID, id, envSlurmMin, lo, n), id-lo, n)
}

func envNumber(getenv func(string) string, name string) (int, error) {
	v := getenv(name)
	n, err := natural(v)
	if err != nil {
		return 0, configf("--shard auto: %s=%q is not a whole number", name, v)
	}
	return n, nil
}

// keepShard narrows the dataset and the systems to shard s of the questions left after
// --db-id, through keepDBs (a shard is a set of databases), and describes it for the
// manifest. Records keep their question's index in the whole dataset.
func keepShard(ds *dataset.Dataset, systems []System, s *dataset.Shard) (*rundir.ShardInfo, error) {
	if s == nil {
		return nil, nil
	}
	if s.Count < 1 || s.Index < 0 || s.Index >= s.Count {
		return nil, configf("--shard %s: want INDEX/COUNT with 0 <= INDEX < COUNT", s)
	}
	parts, err := dataset.SplitShards(ds.Questions, s.Count)
	if err != nil {
		return nil, configf("--shard %s: %v", s, err)
	}
	all := len(ds.Questions)
	part := parts[s.Index]
	if err := keepDBs(ds, systems, part.DBIDs); err != nil {
		return nil, err
	}
	return &rundir.ShardInfo{Index: s.Index, Count: s.Count, Questions: len(ds.Questions), DatasetQuestions: all,
		DBIDs: part.DBIDs, IndexesSHA256: dataset.IndexDigest(ds.Questions)}, nil
}

// hostName names the machine for the manifest: EnvHost when set, else the host name.
func hostName() string {
	if h := os.Getenv(EnvHost); h != "" {
		return h
	}
	h, _ := os.Hostname()
	return h
}
