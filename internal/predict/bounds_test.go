package predict

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/inputfile"
)

// TestHostilePredictionFiles: what a prediction file can do to the reader. Each is
// refused with an error naming the file (and line), before the file or a value of it is
// held more than once: a single prediction over MaxSQLBytes is found by a scan of the
// bytes, never decoded.
func TestHostilePredictionFiles(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	huge := strings.Repeat("x", MaxSQLBytes+1)
	rawSep := `\t----- bird -----\t` // as JSON writes it
	atCap := strings.Repeat("y", MaxSQLBytes-len(rawSep)-2) + rawSep + "db"
	sparse := filepath.Join(dir, "sparse.json")
	f, err := os.Create(sparse)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(inputfile.MaxSize + 1); err != nil {
		t.Fatal(err)
	}
	f.Close()
	fifo := filepath.Join(dir, "fifo.json")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, path string
		want       error
		line       string // the error names path:line
	}{
		{"one BIRD value over the cap", write("bird.json", "{\"0\": \"SELECT 1\",\n \"1\": \""+huge+"\"}"), ErrTooLong, ":2:"},
		{"escaped quotes do not end the value", write("esc.json", `{"0": "`+strings.Repeat(`\"`, MaxSQLBytes/2+1)+`"}`), ErrTooLong, ":1:"},
		{"a key over the cap", write("key.json", `{"`+huge+`": "x"}`), ErrTooLong, ":1:"},
		{"a list value over the cap", write("list.json", "[\"a\",\n\n\""+huge+"\"]"), ErrTooLong, ":3:"},
		{"a records line over the cap", write("records.jsonl", `{"question_id": 0, "sql": "`+huge+`"}`), ErrTooLong, ":1:"},
		{"a Spider line over the cap", write("spider.txt", "SELECT 1\n"+huge+"\n"), ErrTooLong, ":2:"},
		{"an unterminated Spider line over the cap", write("spider2.txt", huge), ErrTooLong, ":1:"},
		{"a million nested arrays", write("deep.json", strings.Repeat("[", 1<<20)+strings.Repeat("]", 1<<20)), ErrMalformed, ""},
		{"a sparse file over the size cap", sparse, inputfile.ErrTooLarge, ""},
		{"a FIFO", fifo, inputfile.ErrNotRegular, ""},
		{"/dev/zero", "/dev/zero", inputfile.ErrNotRegular, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Read(tc.path)
			if !errors.Is(err, tc.want) {
				t.Fatalf("err %v, want %v", err, tc.want)
			}
			if !strings.Contains(err.Error(), tc.path+tc.line) {
				t.Errorf("error %q does not name %s%s", err, tc.path, tc.line)
			}
		})
	}
	// A value of exactly the cap is read.
	s, err := Read(write("cap.json", `{"0": "`+atCap+`"}`))
	if err != nil || len(s.Items) != 1 || len(s.Items[0].SQL) != MaxSQLBytes-len(rawSep)-2 {
		t.Fatalf("a value at the cap: %v", err)
	}
}

// TestItemBound: a reader given a bound stops at the first item over it, naming the file
// and that item's line, in every format; a file of exactly the bound reads.
func TestItemBound(t *testing.T) {
	dir := t.TempDir()
	const limit = 10
	shapes := []struct {
		name, open, sep, end string
		item                 func(i int) string
		line                 string // the line of item limit (0-based)
	}{
		{"records array", "[\n", ",\n", "\n]", func(i int) string { return fmt.Sprintf(`{"question_id": %d, "PREDICTED_SQL": "SELECT 1"}`, i) }, ":12:"},
		{"records jsonl", "", "\n", "\n", func(i int) string { return fmt.Sprintf(`{"question_id": %d, "PREDICTED_SQL": "SELECT 1"}`, i) }, ":11:"},
		{"module nodes", "", "\n", "\n", func(i int) string {
			return fmt.Sprintf(`{"node_type": "candidate_generation", "question_id": 1, "SQL": "SELECT %d"}`, i)
		}, ":11:"},
		{"bird", "{\n", ",\n", "\n}", func(i int) string { return fmt.Sprintf(`"%d": "SELECT 1\t----- bird -----\tdb"`, i) }, ":12:"},
		{"list", "[\n", ",\n", "\n]", func(i int) string { return fmt.Sprintf(`"SELECT %d"`, i) }, ":12:"},
		{"spider", "", "\n", "\n", func(i int) string { return "SELECT 1" }, ":11:"},
		{"spider blank lines", "", "\n", "\n", func(i int) string { return "" }, ":11:"},
	}
	for _, sh := range shapes {
		for _, n := range []int{limit, limit + 1, 3 * limit} {
			t.Run(fmt.Sprintf("%s/%d", sh.name, n), func(t *testing.T) {
				items := make([]string, n)
				for i := range items {
					items[i] = sh.item(i)
				}
				p := filepath.Join(dir, fmt.Sprintf("%s-%d", strings.ReplaceAll(sh.name, " ", "_"), n))
				if err := os.WriteFile(p, []byte(sh.open+strings.Join(items, sh.sep)+sh.end), 0o644); err != nil {
					t.Fatal(err)
				}
				set, err := readFormat(p, "", itemCap{limit: limit, questions: 1})
				if n <= limit {
					if err != nil {
						t.Fatalf("%d items under a bound of %d: %v", n, limit, err)
					}
					if unbounded, err := Read(p); err != nil || len(set.Items) != len(unbounded.Items) {
						t.Fatalf("bounded read gave %d items, unbounded %v", len(set.Items), err)
					}
					return
				}
				if !errors.Is(err, ErrTooMany) {
					t.Fatalf("%d items over a bound of %d: err %v, want ErrTooMany", n, limit, err)
				}
				if !strings.Contains(err.Error(), p+sh.line) {
					t.Errorf("error %q does not name %s%s", err, p, sh.line)
				}
				if _, err := Read(p); errors.Is(err, ErrTooMany) {
					t.Errorf("Read applies a bound: %v", err)
				}
			})
		}
	}
	if got := ItemBound(5); got != MinItemBound {
		t.Errorf("ItemBound(5) = %d, want the floor %d", got, MinItemBound)
	}
	if got := ItemBound(10_000); got != 10_000*ItemsPerQuestion {
		t.Errorf("ItemBound(10000) = %d, want %d", got, 10_000*ItemsPerQuestion)
	}
	// ReadFor applies ItemBound: one line too many for a 5-question dataset.
	p := filepath.Join(dir, "blank.txt")
	if err := os.WriteFile(p, []byte(strings.Repeat("\n", MinItemBound+1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadFor(p, 5); !errors.Is(err, ErrTooMany) {
		t.Errorf("ReadFor of %d lines for 5 questions: %v, want ErrTooMany", MinItemBound+1, err)
	}
}
