package predict

import (
	"errors"
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
