// Package schemacheck checks the Kubernetes recipes in deploy/k8s against the Kubernetes
// API types: each manifest must decode strictly (every field known, every value of its
// type) into a batch/v1 Job, as `kubectl apply --dry-run=client` would check it. It is a
// module of its own so that nl2sqlbench itself does not depend on the Kubernetes API; run
// it with `cd deploy/k8s/schemacheck && go test`.
package schemacheck

import (
	"os"
	"strings"
	"testing"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/yaml"
)

func decodeJob(t *testing.T, path string) *batchv1.Job {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var j batchv1.Job
	if err := yaml.UnmarshalStrict(b, &j); err != nil {
		t.Fatalf("%s is not a valid batch/v1 Job: %v", path, err)
	}
	if j.APIVersion != "batch/v1" || j.Kind != "Job" {
		t.Fatalf("%s: apiVersion %q kind %q", path, j.APIVersion, j.Kind)
	}
	ps := j.Spec.Template.Spec
	if ps.RestartPolicy != corev1.RestartPolicyNever && ps.RestartPolicy != corev1.RestartPolicyOnFailure {
		t.Errorf("%s: a Job's restartPolicy must be Never or OnFailure, not %q", path, ps.RestartPolicy)
	}
	for _, c := range ps.Containers {
		for _, m := range c.VolumeMounts {
			found := false
			for _, v := range ps.Volumes {
				found = found || v.Name == m.Name
			}
			if !found {
				t.Errorf("%s: container %s mounts volume %s, which the pod does not declare", path, c.Name, m.Name)
			}
		}
		for _, q := range []corev1.ResourceList{c.Resources.Requests, c.Resources.Limits} {
			for name, v := range q {
				if v.Sign() <= 0 {
					t.Errorf("%s: container %s resource %s = %s", path, c.Name, name, v.String())
				}
			}
		}
	}
	return &j
}

func TestIndexedJob(t *testing.T) {
	j := decodeJob(t, "../indexed-job.yaml")
	s := j.Spec
	if s.CompletionMode == nil || *s.CompletionMode != batchv1.IndexedCompletion {
		t.Errorf("completionMode %v, want Indexed", s.CompletionMode)
	}
	if s.Completions == nil || s.Parallelism == nil || *s.Parallelism > *s.Completions {
		t.Errorf("completions %v parallelism %v", s.Completions, s.Parallelism)
	}
	// backoffLimitPerIndex is only allowed for Indexed Jobs whose pods never restart in place.
	if s.BackoffLimitPerIndex != nil && j.Spec.Template.Spec.RestartPolicy != corev1.RestartPolicyNever {
		t.Error("backoffLimitPerIndex needs restartPolicy Never")
	}
	if s.MaxFailedIndexes != nil && s.BackoffLimitPerIndex == nil {
		t.Error("maxFailedIndexes needs backoffLimitPerIndex")
	}
}

func TestMergeJob(t *testing.T) {
	decodeJob(t, "../merge-job.yaml")
}

// TestStrictDecodingCatchesMistakes shows the check is not vacuous: a misspelt field, a
// value of the wrong type and a field at the wrong level are each refused.
func TestStrictDecodingCatchesMistakes(t *testing.T) {
	good, err := os.ReadFile("../indexed-job.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, from, to string }{
		{"misspelt field", "completionMode: Indexed", "completionsMode: Indexed"},
		{"wrong type", "completions: 7", "completions: seven"},
		{"wrong level", "      restartPolicy: Never", "      restartPolicy: Never\n      completions: 7"},
		{"misspelt env field", "valueFrom:", "valueFrm:"},
	} {
		bad := []byte(strings.Replace(string(good), tc.from, tc.to, 1))
		if string(bad) == string(good) {
			t.Fatalf("%s: %q not found in the manifest", tc.name, tc.from)
		}
		var j batchv1.Job
		if err := yaml.UnmarshalStrict(bad, &j); err == nil {
			t.Errorf("%s: accepted", tc.name)
		}
	}
}
