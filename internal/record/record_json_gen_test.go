package record_test

import (
	"bytes"
	"flag"
	"os"
	"reflect"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record/internal/gencodec"
)

var update = flag.Bool("update", false, "rewrite the generated encoders (go generate ./internal/record)")

// TestGeneratedUpToDate: record_json_gen.go (and the test fixture's encoder) is what the
// generator writes for today's types. A field added, removed or retyped without
// regenerating fails here (and a new field would be missing from records.jsonl).
func TestGeneratedUpToDate(t *testing.T) {
	for _, g := range []struct {
		typ  reflect.Type
		file string
	}{
		{reflect.TypeFor[record.Record](), "record_json_gen.go"},
		{reflect.TypeFor[record.GenFixture](), "jsonfixture_gen_test.go"},
	} {
		want, err := gencodec.Generate(gencodec.Config{Type: g.typ, Command: "go generate ./internal/record", Tag: "gencodec"})
		if err != nil {
			t.Fatal(err)
		}
		if *update {
			if err := os.WriteFile(g.file, want, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		got, err := os.ReadFile(g.file)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s is out of date: run go generate ./internal/record", g.file)
		}
	}
}
