package cli

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"go.yaml.in/yaml/v3"

	"github.com/nl2sqlbench/nl2sqlbench/internal/testutil"
)

// k8sJob is the part of a Kubernetes Job the recipes rely on.
type k8sJob struct {
	APIVersion string `yaml:"apiVersion"`
	Kind       string `yaml:"kind"`
	Metadata   struct {
		Name string `yaml:"name"`
	} `yaml:"metadata"`
	Spec struct {
		CompletionMode       string `yaml:"completionMode"`
		Completions          *int   `yaml:"completions"`
		Parallelism          *int   `yaml:"parallelism"`
		BackoffLimitPerIndex *int   `yaml:"backoffLimitPerIndex"`
		Template             struct {
			Spec struct {
				RestartPolicy string `yaml:"restartPolicy"`
				Containers    []struct {
					Name    string   `yaml:"name"`
					Image   string   `yaml:"image"`
					Command []string `yaml:"command"`
					Args    []string `yaml:"args"`
					Env     []struct {
						Name      string `yaml:"name"`
						Value     string `yaml:"value"`
						ValueFrom *struct {
							FieldRef struct {
								FieldPath string `yaml:"fieldPath"`
							} `yaml:"fieldRef"`
						} `yaml:"valueFrom"`
					} `yaml:"env"`
					VolumeMounts []struct {
						Name      string `yaml:"name"`
						MountPath string `yaml:"mountPath"`
					} `yaml:"volumeMounts"`
				} `yaml:"containers"`
				Volumes []struct {
					Name                  string `yaml:"name"`
					PersistentVolumeClaim struct {
						ClaimName string `yaml:"claimName"`
					} `yaml:"persistentVolumeClaim"`
				} `yaml:"volumes"`
			} `yaml:"spec"`
		} `yaml:"template"`
	} `yaml:"spec"`
}

func readJob(t *testing.T, path string) k8sJob {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var j k8sJob
	if err := yaml.Unmarshal(b, &j); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if j.APIVersion != "batch/v1" || j.Kind != "Job" || j.Metadata.Name == "" {
		t.Errorf("%s: apiVersion %q kind %q name %q, want a batch/v1 Job with a name", path, j.APIVersion, j.Kind, j.Metadata.Name)
	}
	if len(j.Spec.Template.Spec.Containers) != 1 {
		t.Fatalf("%s: %d containers, want 1", path, len(j.Spec.Template.Spec.Containers))
	}
	c := j.Spec.Template.Spec.Containers[0]
	if strings.Join(c.Command, " ") != "/bin/sh -c" || len(c.Args) != 1 {
		t.Fatalf("%s: command %q args %q, want /bin/sh -c and one command line", path, c.Command, c.Args)
	}
	// Every mount names a volume backed by the shared claim.
	for _, m := range c.VolumeMounts {
		found := false
		for _, v := range j.Spec.Template.Spec.Volumes {
			found = found || v.Name == m.Name && v.PersistentVolumeClaim.ClaimName != ""
		}
		if !found {
			t.Errorf("%s: volume mount %s has no persistentVolumeClaim volume", path, m.Name)
		}
	}
	return j
}

// checkCommandLine parses a recipe's shell command line ("exec nl2sqlbench SUB ARGS") with
// the subcommand's own flags, so a flag we do not have, or a bad value, fails here; it
// returns the flag set and the positional arguments.
func checkCommandLine(t *testing.T, where, line, sub string, newCmd func(*env) *cobra.Command) (*cobra.Command, []string) {
	t.Helper()
	words := strings.Fields(line)
	if len(words) < 3 || words[0] != "exec" || words[1] != "nl2sqlbench" || words[2] != sub {
		t.Fatalf("%s: command line %q does not start with exec nl2sqlbench %s", where, line, sub)
	}
	cmd := newCmd(&env{stdout: &bytes.Buffer{}, stderr: &bytes.Buffer{}})
	if err := cmd.ParseFlags(words[3:]); err != nil {
		t.Fatalf("%s: nl2sqlbench %s rejects the recipe's flags: %v", where, sub, err)
	}
	return cmd, cmd.Flags().Args()
}

func TestKubernetesRecipe(t *testing.T) {
	t.Parallel()
	root := testutil.RepoRoot(t)
	evalPath := filepath.Join(root, "deploy", "k8s", "indexed-job.yaml")
	j := readJob(t, evalPath)
	s := j.Spec
	if s.CompletionMode != "Indexed" {
		t.Errorf("completionMode %q, want Indexed (JOB_COMPLETION_INDEX picks the shard)", s.CompletionMode)
	}
	if s.Completions == nil || s.Parallelism == nil || *s.Parallelism > *s.Completions || *s.Parallelism < 1 {
		t.Fatalf("completions %v parallelism %v: want both, 1 <= parallelism <= completions", s.Completions, s.Parallelism)
	}
	if s.BackoffLimitPerIndex != nil && s.Template.Spec.RestartPolicy != "Never" {
		t.Errorf("backoffLimitPerIndex needs restartPolicy Never, not %q", s.Template.Spec.RestartPolicy)
	}
	c := s.Template.Spec.Containers[0]
	env := map[string]string{}
	for _, e := range c.Env {
		env[e.Name] = e.Value
		if e.ValueFrom != nil {
			env[e.Name] = "fieldRef:" + e.ValueFrom.FieldRef.FieldPath
		}
	}
	if n, err := strconv.Atoi(env["NL2SQLBENCH_SHARDS"]); err != nil || n != *s.Completions {
		t.Errorf("NL2SQLBENCH_SHARDS = %q, want the completions, %d", env["NL2SQLBENCH_SHARDS"], *s.Completions)
	}
	if env["NL2SQLBENCH_HOST"] != "fieldRef:spec.nodeName" {
		t.Errorf("NL2SQLBENCH_HOST = %q, want the node name (fieldRef spec.nodeName)", env["NL2SQLBENCH_HOST"])
	}
	if len(c.VolumeMounts) != 1 {
		t.Fatalf("%d volume mounts, want the shared volume", len(c.VolumeMounts))
	}
	mount := c.VolumeMounts[0].MountPath
	cmd, rest := checkCommandLine(t, evalPath, c.Args[0], "eval", newEvalCmd)
	if len(rest) != 0 {
		t.Errorf("eval takes no arguments, the recipe gives %q", rest)
	}
	f := cmd.Flags()
	if v := f.Lookup("shard").Value.String(); v != "auto" {
		t.Errorf("--shard %q, want auto", v)
	}
	if !f.Changed("resume") {
		t.Error("no --resume: a retried pod would be refused its own shard directory")
	}
	out := f.Lookup("out").Value.String()
	if !strings.HasSuffix(out, "$JOB_COMPLETION_INDEX") || !strings.HasPrefix(out, mount+"/") {
		t.Errorf("--out %q: want a directory on the shared volume %s ending in $JOB_COMPLETION_INDEX", out, mount)
	}
	paths := []string{f.Lookup("dataset").Value.String()}
	preds, _ := f.GetStringArray("pred")
	paths = append(paths, preds...)
	for _, p := range paths {
		if !strings.Contains(p, mount+"/") {
			t.Errorf("input %q is not on the shared volume %s", p, mount)
		}
	}

	mergePath := filepath.Join(root, "deploy", "k8s", "merge-job.yaml")
	mj := readJob(t, mergePath)
	mc := mj.Spec.Template.Spec.Containers[0]
	mcmd, dirs := checkCommandLine(t, mergePath, mc.Args[0], "merge", newMergeCmd)
	glob := strings.TrimSuffix(out, "$JOB_COMPLETION_INDEX") + "*"
	if len(dirs) != 1 || dirs[0] != glob {
		t.Errorf("merge reads %q, want the shards' directories %q", dirs, glob)
	}
	if mo := mcmd.Flags().Lookup("out").Value.String(); !strings.HasPrefix(mo, mount+"/") || strings.HasPrefix(mo, strings.TrimSuffix(glob, "*")) {
		t.Errorf("merge --out %q: want a directory on %s that the shard glob %s does not match", mo, mount, glob)
	}
	if len(mc.VolumeMounts) != 1 || mc.VolumeMounts[0].MountPath != mount || mc.Image != c.Image {
		t.Errorf("merge job mounts %+v with image %q, want %s and %q like the eval job", mc.VolumeMounts, mc.Image, mount, c.Image)
	}
}

// TestSlurmScriptByHand runs deploy/slurm/eval-array.sh as the tasks of a 3-task array
// (SLURM_ARRAY_TASK_ID and friends set here, as Slurm sets them) and deploy/slurm/merge.sh
// on the embedded demo, with this test binary run as the command (testBinary), and
// compares the merged run with an unsharded one.
func TestSlurmScriptByHand(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("skipping: five processes of the command (-short)")
	}
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("skipping: no bash")
	}
	root := testutil.RepoRoot(t)
	dir := t.TempDir()
	bin := testBinary(t)
	args, systems, f := demoArgsFiles(t)
	full := filepath.Join(dir, "full")
	// The unsharded run with the same binary, so the manifests' builds agree.
	if out, err := exec.Command(bin, append(append([]string{"eval"}, args...), "--json", "--out", full)...).CombinedOutput(); err != nil {
		t.Fatalf("unsharded eval: %v\n%s", err, out)
	}
	var preds []string
	for _, s := range systems {
		preds = append(preds, s+"="+f.Systems[s])
	}
	runs := filepath.Join(dir, "runs")
	base := append(os.Environ(), "NL2SQLBENCH="+bin, "DATASET=jsonl:"+f.Questions, "PREDS="+strings.Join(preds, " "),
		"RUNS="+runs, "EXTRA=--db-root "+f.DBRoot+" --timeout "+testTimeout.String()+" --max-rows 10000", "SLURM_CPUS_PER_TASK=2") // demoArgs' limits
	for id := range 3 {
		cmd := exec.Command(bash, filepath.Join(root, "deploy", "slurm", "eval-array.sh"))
		cmd.Env = append(base, "SLURM_ARRAY_TASK_ID="+strconv.Itoa(id+1), "SLURM_ARRAY_TASK_MIN=1", "SLURM_ARRAY_TASK_MAX=3", "SLURM_ARRAY_TASK_COUNT=3")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("eval-array.sh as task %d: %v\n%s", id+1, err, out)
		}
	}
	cmd := exec.Command(bash, filepath.Join(root, "deploy", "slurm", "merge.sh"))
	cmd.Env = base
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("merge.sh: %v\n%s", err, out)
	}
	checkSameRun(t, filepath.Join(runs, "merged"), full, systems)
	// Task 2 of --array=1-3 is shard 1/3.
	var m struct {
		Settings struct {
			Shard struct{ Index, Count int }
		}
	}
	readJSON(t, filepath.Join(runs, "shard-2", manifestFile), &m)
	if m.Settings.Shard.Index != 1 || m.Settings.Shard.Count != 3 {
		t.Errorf("task 2 of 1-3 judged shard %d/%d, want 1/3", m.Settings.Shard.Index, m.Settings.Shard.Count)
	}
}
