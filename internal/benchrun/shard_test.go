package benchrun

import (
	"errors"
	"strings"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset"
)

func TestParseShard(t *testing.T) {
	tests := []struct {
		arg  string
		env  map[string]string
		want dataset.Shard
		err  string // part of the error; "" = no error
	}{
		{arg: "0/3", want: dataset.Shard{Index: 0, Count: 3}},
		{arg: "2/3", want: dataset.Shard{Index: 2, Count: 3}},
		{arg: "0/1", want: dataset.Shard{Index: 0, Count: 1}},
		{arg: "3/3", err: "INDEX is 0-based and must be below COUNT: the shards of 3 are 0/3 ... 2/3"},
		{arg: "1/0", err: "COUNT must be at least 1"},
		{arg: "-1/3", err: "whole numbers"},
		{arg: "+1/3", err: "whole numbers"},
		{arg: " 1/3", err: "whole numbers"},
		{arg: "1/3/5", err: "whole numbers"},
		{arg: "1", err: "want INDEX/COUNT"},
		{arg: "a/b", err: "whole numbers"},
		{arg: "/3", err: "whole numbers"},
		// Kubernetes Indexed Job.
		{arg: "auto", env: map[string]string{"JOB_COMPLETION_INDEX": "4", "NL2SQLBENCH_SHARDS": "7"}, want: dataset.Shard{Index: 4, Count: 7}},
		{arg: "auto", env: map[string]string{"JOB_COMPLETION_INDEX": "7", "NL2SQLBENCH_SHARDS": "7"}, err: "must be below COUNT"},
		{arg: "auto", env: map[string]string{"JOB_COMPLETION_INDEX": "4"}, err: "NL2SQLBENCH_SHARDS is not"},
		{arg: "auto", env: map[string]string{"JOB_COMPLETION_INDEX": "x", "NL2SQLBENCH_SHARDS": "7"}, err: `JOB_COMPLETION_INDEX="x" is not a whole number`},
		// Slurm arrays: --array=0-6 and --array=1-7 number the same 7 shards.
		{arg: "auto", env: map[string]string{"SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_MAX": "6", "SLURM_ARRAY_TASK_COUNT": "7"}, want: dataset.Shard{Index: 3, Count: 7}},
		{arg: "auto", env: map[string]string{"SLURM_ARRAY_TASK_ID": "7", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_MAX": "7", "SLURM_ARRAY_TASK_COUNT": "7"}, want: dataset.Shard{Index: 6, Count: 7}},
		{arg: "auto", env: map[string]string{"SLURM_ARRAY_TASK_ID": "2", "NL2SQLBENCH_SHARDS": "3"}, want: dataset.Shard{Index: 2, Count: 3}},
		{arg: "auto", env: map[string]string{"SLURM_ARRAY_TASK_ID": "2"}, err: "neither SLURM_ARRAY_TASK_COUNT nor NL2SQLBENCH_SHARDS"},
		{arg: "auto", env: map[string]string{"SLURM_ARRAY_TASK_ID": "2", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_COUNT": "3", "NL2SQLBENCH_SHARDS": "4"}, err: "SLURM_ARRAY_TASK_COUNT=3 but NL2SQLBENCH_SHARDS=4"},
		{arg: "auto", env: map[string]string{"SLURM_ARRAY_TASK_ID": "4", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_MAX": "8", "SLURM_ARRAY_TASK_COUNT": "5", "SLURM_ARRAY_TASK_STEP": "2"}, err: "step 1"},
		{arg: "auto", env: map[string]string{"SLURM_ARRAY_TASK_ID": "4", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_MAX": "9", "SLURM_ARRAY_TASK_COUNT": "5"}, err: "has gaps"},
		{arg: "auto", env: map[string]string{"SLURM_ARRAY_TASK_ID": "0", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_COUNT": "3"}, err: "below SLURM_ARRAY_TASK_MIN"},
		{arg: "auto", env: map[string]string{"SLURM_ARRAY_TASK_ID": "0", "JOB_COMPLETION_INDEX": "0", "NL2SQLBENCH_SHARDS": "2"}, err: "both JOB_COMPLETION_INDEX"},
		{arg: "auto", err: "neither JOB_COMPLETION_INDEX"},
	}
	for _, tt := range tests {
		t.Run(tt.arg+envText(tt.env), func(t *testing.T) {
			got, err := ParseShard(tt.arg, func(k string) string { return tt.env[k] })
			if tt.err == "" {
				if err != nil || got != tt.want {
					t.Fatalf("ParseShard = %v, %v; want %v", got, err, tt.want)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Fatalf("ParseShard = %v, %v; want an error containing %q", got, err, tt.err)
			}
			if !errors.Is(err, ErrConfig) {
				t.Errorf("error %v does not match ErrConfig (the cli's usage error)", err)
			}
		})
	}
}

func envText(env map[string]string) string {
	var b strings.Builder
	for k, v := range env {
		b.WriteString(" " + k + "=" + v)
	}
	return b.String()
}

func TestIndexRanges(t *testing.T) {
	for _, tt := range []struct {
		in   []int
		want string
	}{
		{[]int{0, 1, 2, 5, 7, 8}, "0-2, 5, 7-8"},
		{[]int{4}, "4"},
		{nil, ""},
	} {
		if got := indexRanges(tt.in); got != tt.want {
			t.Errorf("indexRanges(%v) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
