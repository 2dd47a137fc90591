package judge

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset"
	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
)

// TestSpider2CSVCaps: a result table given as a CSV obeys the run's row and byte caps as
// a query's result does: over them, the answer is an error of category row_limit (the
// engine's verdict for such a query), and a gold CSV over them is a gold error naming the
// caps. A line longer than the byte cap (a sparse 512 MiB file of NULs) stops at the cap.
func TestSpider2CSVCaps(t *testing.T) {
	dir := t.TempDir()
	write := func(rel, text string) string {
		t.Helper()
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	ids := []string{"local001", "local002", "local003", "local004", "local005"}
	var tasks, cfg strings.Builder
	for _, id := range ids {
		tasks.WriteString(`{"instance_id": "` + id + `", "db": "shop", "question": "q"}` + "\n")
		cfg.WriteString(`{"instance_id": "` + id + `", "condition_cols": [], "ignore_order": true}` + "\n")
	}
	write("spider2-lite.jsonl", tasks.String())
	write("evaluation_suite/gold/spider2lite_eval.jsonl", cfg.String())
	rows := func(n int) string { return "n\n" + strings.Repeat("7\n", n) }
	gold := "evaluation_suite/gold/exec_result/"
	write(gold+"local001.csv", rows(5))
	write(gold+"local002.csv", rows(50)) // over the cap: cannot be judged
	write(gold+"local003.csv", rows(5))
	write(gold+"local004.csv", rows(5))
	write(gold+"local005.csv", rows(5))
	p1 := write("preds/local001.csv", rows(5))  // at the cap: judged, correct
	p2 := write("preds/local002.csv", rows(5))  // its gold is over the cap
	p3 := write("preds/local003.csv", rows(11)) // over the row cap
	// local004: one line of a million bytes, over the byte cap long before its end.
	p4 := write("preds/local004.csv", "n\n"+strings.Repeat("x", 1<<20)+"\n")
	// local005: a sparse file of NUL bytes (valid UTF-8, one endless field).
	p5 := filepath.Join(dir, "preds", "local005.csv")
	f, err := os.Create(p5)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(512 << 20); err != nil {
		t.Fatal(err)
	}
	f.Close()

	ds, err := dataset.Load(context.Background(), "spider2:"+dir, dataset.Options{})
	if err != nil {
		t.Fatal(err)
	}
	preds := make([]*Spider2Pred, len(ds.Questions))
	for i, p := range []string{p1, p2, p3, p4, p5} {
		preds[i] = &Spider2Pred{Path: p}
	}
	var got []*record.Record
	opt := Spider2Options{Mode: Spider2Official, Workers: 1, Limits: engine.Limits{MaxRows: 10, MaxBytes: 64 << 10}}
	err = RunSpider2(context.Background(), ds, []Spider2System{{Name: "s", Preds: preds}}, opt, func(_ int, r *record.Record) error {
		got = append(got, r)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		verdict  record.Verdict
		category record.ErrorCategory
		msg      string
	}{
		{record.Correct, "", ""},
		{record.GoldError, "", "gold result local002.csv is larger than the run's result caps"},
		{record.Error, record.RowLimit, "result exceeds the row limit"},
		{record.Error, record.RowLimit, "result exceeds the byte limit"},
		{record.Error, record.RowLimit, "result exceeds the byte limit"},
	}
	for i, w := range want {
		r := got[i]
		if r.Verdict != w.verdict || r.ErrorCategory != w.category || !strings.Contains(r.ErrorMessage, w.msg) {
			t.Errorf("%s: verdict %s, category %q, message %q; want %s, %q, containing %q", r.QuestionID, r.Verdict, r.ErrorCategory, r.ErrorMessage, w.verdict, w.category, w.msg)
		}
		if w.verdict == record.Error && (r.ExSpider2 == nil || *r.ExSpider2 != 0) {
			t.Errorf("%s: ex_spider2 %v, want 0", r.QuestionID, r.ExSpider2)
		}
	}
}

// TestSpider2HostileSQLAnswers: a .sql answer is a query, read only when it is a regular
// file of at most MaxSQLFile bytes: /dev/zero (os.ReadFile of it never returned), a FIFO
// (blocked forever) and a sparse file over the cap are errors naming the file, at once.
func TestSpider2HostileSQLAnswers(t *testing.T) {
	dir := t.TempDir()
	write := func(rel, text string) string {
		t.Helper()
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	ids := []string{"local001", "local002", "local003"}
	var tasks, cfg strings.Builder
	for _, id := range ids {
		tasks.WriteString(`{"instance_id": "` + id + `", "db": "shop", "question": "q"}` + "\n")
		cfg.WriteString(`{"instance_id": "` + id + `", "condition_cols": [], "ignore_order": true}` + "\n")
		write("evaluation_suite/gold/exec_result/"+id+".csv", "n\n1\n")
	}
	write("spider2-lite.jsonl", tasks.String())
	write("evaluation_suite/gold/spider2lite_eval.jsonl", cfg.String())
	if err := os.MkdirAll(filepath.Join(dir, "preds"), 0o755); err != nil {
		t.Fatal(err)
	}
	zero := filepath.Join(dir, "preds", "local001.sql")
	if err := os.Symlink("/dev/zero", zero); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "preds", "local002.sql")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "preds", "local003.sql")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(MaxSQLFile + 1); err != nil {
		t.Fatal(err)
	}
	f.Close()
	ds, err := dataset.Load(context.Background(), "spider2:"+dir, dataset.Options{})
	if err != nil {
		t.Fatal(err)
	}
	paths := []string{zero, fifo, big}
	preds := make([]*Spider2Pred, len(ds.Questions))
	for i, p := range paths {
		preds[i] = &Spider2Pred{Path: p, SQL: true}
	}
	var got []*record.Record
	err = RunSpider2(context.Background(), ds, []Spider2System{{Name: "s", Preds: preds}}, Spider2Options{Workers: 1}, func(_ int, r *record.Record) error {
		got = append(got, r)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range got {
		if r.Verdict != record.Error || !strings.Contains(r.ErrorMessage, paths[i]) {
			t.Errorf("%s: verdict %s, message %q; want an error naming %s", r.QuestionID, r.Verdict, r.ErrorMessage, paths[i])
		}
	}
}
