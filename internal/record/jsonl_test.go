package record

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestWriteReadRoundTrip(t *testing.T) {
	recs := []Record{
		{Index: 0, QuestionID: "1", DBID: "a", Verdict: Correct, ExBird: 1, ExSpider: 1, PredSQL: "SELECT '<b>' -- é"},
		{Index: 1, QuestionID: "2", DBID: "a", Verdict: Error, ErrorCategory: Timeout, ErrorMessage: "query timed out",
			Usage: Usage{TotalTokens: 10, LLMCalls: 2}, Candidates: []Candidate{{SQL: "x", Verdict: Error, ErrorCategory: SyntaxError}}},
		// SQL that names no table has an empty schema, not none: the summary of records
		// read back (resume, merge) must count it as the judging run did.
		{Index: 2, QuestionID: "3", DBID: "a", Verdict: Incorrect, PredSQL: "SELECT 1",
			SchemaLinking: SchemaLinking{GoldSchema: map[string][]string{}, PredSchema: map[string][]string{}, PredSchemaSource: "pred_sql"}},
	}
	var buf bytes.Buffer
	w := NewWriter(&buf)
	for i := range recs {
		if err := w.Write(&recs[i]); err != nil {
			t.Fatal(err)
		}
	}
	if !strings.Contains(buf.String(), "'<b>'") {
		t.Errorf("HTML characters were escaped: %s", buf.String())
	}
	got, n, err := ReadJSONL(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(recs, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	if n == 0 {
		t.Error("valid byte count is 0")
	}
}

func TestReadJSONLTornAndBad(t *testing.T) {
	good := `{"index":0,"verdict":"correct"}` + "\n"
	tests := []struct {
		name      string
		in        string
		recs      int
		valid     int
		wantTorn  bool
		wantOther bool
	}{
		{"complete", good + good, 2, 2 * len(good), false, false},
		{"torn last line", good + `{"index":1,"ver`, 1, len(good), true, false},
		{"last line complete without newline", good + `{"index":1}`, 1, len(good), true, false},
		{"blank lines", good + "\n" + good, 2, 2*len(good) + 1, false, false},
		{"corrupt middle line", good + "nonsense\n" + good, 1, len(good), false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			recs, valid, err := ReadJSONL(strings.NewReader(tt.in))
			if len(recs) != tt.recs || int(valid) != tt.valid {
				t.Errorf("got %d records, %d valid bytes; want %d, %d", len(recs), valid, tt.recs, tt.valid)
			}
			if errors.Is(err, ErrTornLine) != tt.wantTorn {
				t.Errorf("torn: got err %v", err)
			}
			if tt.wantOther && (err == nil || errors.Is(err, ErrTornLine) || !strings.Contains(err.Error(), "line 2")) {
				t.Errorf("want an error naming line 2, got %v", err)
			}
		})
	}
}
