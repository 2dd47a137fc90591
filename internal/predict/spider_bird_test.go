package predict

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Issue 45, failure 10: a Spider text file with BIRD's separator after each line kept the
// whole line as SQL (EX unchanged, the separator starting a comment, but ESM fell from
// 73.33 to 28.89 without a word). It reads as Spider's evaluation.py reads it, the text
// before the first tab, with a note naming the file and the first such line.
func TestReadSpiderWithBIRDSeparator(t *testing.T) {
	content := "SELECT count(*) FROM singer\t----- bird -----\tconcert_singer\n" +
		"SELECT 2\n" +
		"SELECT name FROM t WHERE a = 'x\ty'\t----- bird -----\tpets_1\n"
	path := writeFile(t, "p.txt", content)
	set, err := ReadFormat(path, "")
	if err != nil {
		t.Fatal(err)
	}
	want := []Prediction{
		{Key: "0", Line: 1, SQL: "SELECT count(*) FROM singer", DBID: "concert_singer"},
		{Key: "1", Line: 2, SQL: "SELECT 2"},
		// Before the separator, not before the first tab inside a literal: the separator
		// is unambiguous, and the tab in the literal is the SQL's.
		{Key: "2", Line: 3, SQL: "SELECT name FROM t WHERE a = 'x\ty'", DBID: "pets_1"},
	}
	if diff := cmp.Diff(want, set.Items); diff != "" {
		t.Errorf("items (-want +got):\n%s", diff)
	}
	if len(set.Notes) != 1 || !strings.Contains(set.Notes[0], path) || !strings.Contains(set.Notes[0], "2 lines (the first: line 1)") || !strings.Contains(set.Notes[0], "evaluation.py") {
		t.Errorf("notes %q", set.Notes)
	}
	// A plain file has no note.
	set, err = ReadFormat(writeFile(t, "q.txt", "SELECT 1\n"), "")
	if err != nil || len(set.Notes) != 0 {
		t.Errorf("plain file: %v, notes %q", err, set.Notes)
	}
}
