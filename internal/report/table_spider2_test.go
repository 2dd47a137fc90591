package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/metrics"
	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
)

// TestSpider2Table: the terminal lists both modes' counts and each disagreement with
// why, from the summary alone.
func TestSpider2Table(t *testing.T) {
	s := &rundir.Summary{Spider2: []metrics.Spider2Summary{{System: "sys", Mode: "official", Tasks: 547, Judged: 3, Official: 2, Strict: 1,
		Disagreements: []metrics.Spider2Disagreement{{QuestionID: "bq001", Backend: "bigquery", Official: 1, Strict: 0, Why: "NULL read as 0"}}}}}
	var b bytes.Buffer
	if err := writeSpider2Table(&b, s); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{"official (evaluate.py) vs strict", "547", "bq001", "bigquery", "NULL read as 0"} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
	b.Reset()
	if err := writeSpider2Table(&b, &rundir.Summary{}); err != nil || b.Len() != 0 {
		t.Errorf("a run without Spider 2.0 printed %q", b.String())
	}
}
