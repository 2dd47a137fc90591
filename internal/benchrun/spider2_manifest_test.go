package benchrun

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSpider2ManifestNamesGold: a Spider 2.0 verdict depends on the eval config and the
// gold CSVs as much as on the task file, so the manifest fingerprints both and a resume
// after either changed is refused, naming it.
func TestSpider2ManifestNamesGold(t *testing.T) {
	dir := t.TempDir()
	write := func(rel, text string) {
		t.Helper()
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("spider2-lite.jsonl", `{"instance_id": "local001", "db": "shop", "question": "How many?"}`+"\n")
	write(filepath.Join("evaluation_suite", "gold", "spider2lite_eval.jsonl"), `{"instance_id": "local001", "condition_cols": [], "ignore_order": true}`+"\n")
	write(filepath.Join("evaluation_suite", "gold", "exec_result", "local001.csv"), "n\n3\n")
	preds := filepath.Join(dir, "preds")
	write(filepath.Join("preds", "local001.csv"), "n\n3\n")

	manifest := func() *Plan {
		t.Helper()
		p, err := Prepare(context.Background(), Config{DatasetSpec: "spider2:" + dir, Preds: []string{"sys=" + preds}}, &notes{})
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	before := manifest().Manifest
	if before.Spider2Eval == nil || before.Spider2Gold == nil {
		t.Fatalf("manifest lacks the eval config or gold digests: %+v", before)
	}
	write(filepath.Join("evaluation_suite", "gold", "exec_result", "local001.csv"), "n\n4\n")
	err := CompareManifests(before, manifest().Manifest)
	if err == nil || !strings.Contains(err.Error(), "Spider 2.0 gold results") {
		t.Fatalf("changed gold CSV: want a mismatch naming the gold results, got %v", err)
	}
	if strings.Contains(err.Error(), "eval config") {
		t.Errorf("only the gold changed, the error names the eval config too: %v", err)
	}
}
