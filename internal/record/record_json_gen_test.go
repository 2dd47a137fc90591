package record_test

import (
	"bytes"
	"os"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/record/internal/gencodec"
)

// TestGeneratedUpToDate: record_json_gen.go is what the generator writes for today's
// Record. A field added, removed or retyped without regenerating fails here (and a new
// field would be missing from records.jsonl).
func TestGeneratedUpToDate(t *testing.T) {
	want, err := gencodec.Generate(gencodec.RecordConfig())
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(gencodec.RecordFile)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s is out of date: run go generate ./internal/record", gencodec.RecordFile)
	}
}
