package testutil

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestReadTSV(t *testing.T) {
	p := filepath.Join(t.TempDir(), "r.tsv")
	if err := os.WriteFile(p, []byte("index\tdb_id\tbird_ex\n0\tshop\t1\n1\tlib\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	want := []map[string]string{{"index": "0", "db_id": "shop", "bird_ex": "1"}, {"index": "1", "db_id": "lib"}}
	if d := cmp.Diff(want, ReadTSV(t, p)); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}
