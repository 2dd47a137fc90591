package predict

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/testutil"
)

// questionRefs reads a BIRD or Spider question file straight from JSON (this package
// must not depend on the dataset loader), ids as BIRD gives them or the index.
func questionRefs(tb testing.TB, path string) []QuestionRef {
	tb.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	var raw []struct {
		QuestionID *int   `json:"question_id"`
		DBID       string `json:"db_id"`
		Question   string `json:"question"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		tb.Fatal(err)
	}
	qs := make([]QuestionRef, len(raw))
	for i, r := range raw {
		id := strconv.Itoa(i)
		if r.QuestionID != nil {
			id = strconv.Itoa(*r.QuestionID)
		}
		qs[i] = QuestionRef{Index: i, ID: id, DBID: r.DBID, Text: r.Question}
	}
	return qs
}

func globShared(tb testing.TB, rel, pattern string) []string {
	tb.Helper()
	dir := testutil.Shared(tb, rel)
	files, err := filepath.Glob(filepath.Join(dir, pattern))
	if err != nil || len(files) == 0 {
		tb.Fatalf("no %s in %s (%v)", pattern, dir, err)
	}
	return files
}

// truncatedCopy writes the first n lines of src into a temporary file.
func truncatedCopy(tb testing.TB, src string, n int) string {
	tb.Helper()
	data, err := os.ReadFile(src)
	if err != nil {
		tb.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	return writeFile(tb, filepath.Base(src), strings.Join(lines[:n], ""))
}

func TestRealSpiderPredictions(t *testing.T) {
	qs := questionRefs(t, testutil.Shared(t, "data/spider/dev.json"))
	files := globShared(t, "data/spider/predictions", "*.txt")
	if len(files) != 7 {
		t.Errorf("%d Spider prediction files, want 7", len(files))
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			set, err := Read(f)
			if err != nil {
				t.Fatal(err)
			}
			if set.Format != FormatSpider || len(set.Items) != 1034 {
				t.Fatalf("format %q with %d items, want spider with 1034", set.Format, len(set.Items))
			}
			paired, err := Pair(set, qs, PairOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if paired[1033] != &set.Items[1033] || paired[1033].SQL == "" {
				t.Errorf("last question paired with %+v", paired[1033])
			}
			short, err := Read(truncatedCopy(t, f, 1000))
			if err != nil {
				t.Fatal(err)
			}
			_, err = Pair(short, qs, PairOptions{})
			if !errors.Is(err, ErrCountMismatch) || !strings.Contains(err.Error(), "1000 lines for 1034 questions") {
				t.Errorf("truncated copy: %v", err)
			}
		})
	}
}

func TestRealBIRDDevPredictions(t *testing.T) {
	qs := questionRefs(t, testutil.Shared(t, "data/bird/dev.json"))
	files := globShared(t, "data/bird/predictions/dev", "*")
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			set, err := Read(f)
			if err != nil {
				t.Fatal(err)
			}
			wantFormat := FormatSpider
			if strings.HasSuffix(f, ".json") {
				wantFormat = FormatBIRD
			}
			if set.Format != wantFormat || len(set.Items) != 1534 {
				t.Fatalf("format %q with %d items, want %s with 1534", set.Format, len(set.Items), wantFormat)
			}
			paired, err := Pair(set, qs, PairOptions{})
			if err != nil {
				t.Fatal(err)
			}
			for i, p := range paired {
				if p == nil || (p.DBID != "" && p.DBID != qs[i].DBID) {
					t.Fatalf("question %d paired with %+v", i, p)
				}
			}
			if filepath.Base(f) == "C3.txt" {
				// Line 1295 indents a subquery with tabs: it must stay whole.
				if got := paired[1294].SQL; !strings.HasSuffix(got, `FROM examination) );`) || paired[1294].DBID != "" {
					t.Errorf("C3 line 1295 read as SQL %q, db %q", got, paired[1294].DBID)
				}
			}
		})
	}
}

func TestRealBIRDMiniDevPredictions(t *testing.T) {
	qs := questionRefs(t, testutil.Shared(t, "data/bird/mini_dev_sqlite.json"))
	files := globShared(t, "data/bird/predictions/mini_dev", "*.json")
	if len(files) != 31 {
		t.Errorf("%d mini-dev prediction files, want 31", len(files))
	}
	for _, f := range files {
		set, err := Read(f)
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		if set.Format != FormatBIRD || len(set.Items) != 500 {
			t.Errorf("%s: format %q with %d items, want bird with 500", f, set.Format, len(set.Items))
			continue
		}
		if _, err := Pair(set, qs, PairOptions{}); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}

	// A copy cut off mid-object is malformed at its last line; one cut at a key
	// boundary and closed again pairs with missing questions named.
	f := files[0]
	if _, err := Read(truncatedCopy(t, f, 100)); !errors.Is(err, ErrMalformed) || !strings.Contains(err.Error(), ":100:") {
		t.Errorf("truncated copy: %v", err)
	}
	set, err := Read(f)
	if err != nil {
		t.Fatal(err)
	}
	set.Items = set.Items[:450]
	_, err = Pair(set, qs, PairOptions{})
	if !errors.Is(err, ErrMissing) || !errors.Is(err, ErrCountMismatch) || !strings.Contains(err.Error(), `key "450"`) {
		t.Errorf("pairing 450 of 500: %v", err)
	}

	// Paired with the wrong dataset (dev instead of mini-dev), db_ids disagree.
	dev := questionRefs(t, testutil.Shared(t, "data/bird/dev.json"))
	set, _ = Read(f)
	_, err = Pair(set, dev, PairOptions{IgnoreExtra: true, AllowMissing: true})
	if !errors.Is(err, ErrDBMismatch) {
		t.Errorf("mini-dev predictions against dev: %v", err)
	}
}
