package review

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
)

func TestReadAndAppend(t *testing.T) {
	path := filepath.Join(t.TempDir(), "reviews.jsonl")
	if _, err := Read(path); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("missing file: %v", err)
	}
	for _, r := range []Review{{Index: 1, System: "a", Decision: Accept}, {Index: 2, Decision: GoldWrong, SQL: "SELECT 1"}} {
		if err := Append(path, r); err != nil {
			t.Fatal(err)
		}
	}
	rs, err := Read(path)
	if err != nil || len(rs) != 2 || rs[1].SQL != "SELECT 1" {
		t.Fatalf("read back %+v, %v", rs, err)
	}
	if err := Append(path, Review{Index: 3, Decision: Accept}); !errors.Is(err, ErrBadReview) {
		t.Errorf("accept without a system appended: %v", err)
	}
	bad := []struct{ line, want string }{
		{`{"index": 1, "decision": "maybe", "system": "a"}`, "not accept, reject or gold_wrong"},
		{`{"index": 1, "decision": "gold_wrong"}`, "needs the corrected sql"},
		{`{"index": 1, "decision": "accept", "system": "a", "colour": 1}`, "unknown field"},
		{`{"index": -1, "decision": "reject", "system": "a"}`, "negative"},
		{`not json`, "invalid character"},
	}
	for _, b := range bad {
		p := filepath.Join(t.TempDir(), "r.jsonl")
		if err := os.WriteFile(p, []byte(`{"index": 0, "decision": "reject", "system": "a"}`+"\n\n"+b.line+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := Read(p)
		if err == nil || !strings.Contains(err.Error(), "line 3") || !strings.Contains(err.Error(), b.want) {
			t.Errorf("%s: error %v, want line 3 and %q", b.line, err, b.want)
		}
	}
}

func TestApply(t *testing.T) {
	recs := []record.Record{
		{Index: 0, Verdict: record.Correct},
		{Index: 1, Verdict: record.Incorrect},
		{Index: 2, Verdict: record.Error},
		{Index: 3, Verdict: record.Skipped},
		{Index: 4, Verdict: record.Incorrect},
	}
	rs := []Review{
		{Index: 1, System: "a", Decision: Reject},
		{Index: 1, System: "a", Decision: Accept}, // the last decision wins
		{Index: 0, System: "b", Decision: Reject}, // another system's
		{Index: 3, System: "a", Decision: Accept}, // skipped: not judged, stays skipped
		{Index: 4, Decision: GoldWrong, SQL: "SELECT 1"},
		{Index: 2, System: "a", Decision: Reject},
	}
	got, changed := Apply("a", recs, rs, map[int]record.Verdict{4: record.Correct})
	want := []record.Verdict{record.Correct, record.Correct, record.Incorrect, record.Skipped, record.Correct}
	for i := range want {
		if got[i].Verdict != want[i] {
			t.Errorf("question %d: %s, want %s", i, got[i].Verdict, want[i])
		}
	}
	if fmt.Sprint(changed) != "[1 2 4]" {
		t.Errorf("changed %v, want [1 2 4]", changed)
	}
	if recs[1].Verdict != record.Incorrect {
		t.Error("Apply changed the raw records")
	}
}
