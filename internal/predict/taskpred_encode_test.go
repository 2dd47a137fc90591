package predict

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// TestEncodeTaskPreds: what EncodeTaskPreds writes, ReadTaskPreds reads back, and a
// follow-up never asked stays absent (nil), not an empty prediction.
func TestEncodeTaskPreds(t *testing.T) {
	in := []TaskPred{
		{ID: "a", SQL: []string{"UPDATE t SET x = 1; DELETE FROM u"}, FollowUp: []string{"SELECT <b> & 1"}},
		{ID: "b", SQL: []string{}},
		{ID: "c", SQL: []string{"SELECT 2"}},
	}
	b, err := EncodeTaskPreds(in)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "p.jsonl")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := ReadTaskPreds(path)
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range in {
		g := got[p.ID]
		g.Line = 0
		want := p
		if len(want.SQL) == 0 {
			want.SQL = []string{}
		}
		if !reflect.DeepEqual(g.SQL, want.SQL) || !reflect.DeepEqual(g.FollowUp, want.FollowUp) {
			t.Errorf("line %d: read %+v, wrote %+v\n%s", i+1, g, want, b)
		}
	}
}
