package spidersql

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/nl2sqlbench/nl2sqlbench/internal/sqlscan"
)

// longQuery is a valid query with n conditions: long enough that parsing it takes a while.
func longQuery(n int) string {
	return "SELECT name FROM singer WHERE " + strings.Repeat("age > 1 AND ", n) + "age > 1"
}

// longestConds is the most conditions longQuery may have and still be parsed (sqlscan.MaxAnalysed).
const longestConds = (sqlscan.MaxAnalysed - len("SELECT name FROM singer WHERE age > 1")) / len("age > 1 AND ")

// TestParseContext: a done context stops a parse with ctx's error, both before it starts
// and part way through a long query, well before the whole parse would have finished.
// The tokenizer (about a third of the parse) does not look at ctx; on a shared machine one
// attempt can be slowed past the bound, so the best of three counts.
func TestParseContext(t *testing.T) {
	s := concertSchema()
	done, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := ParseContext(done, "SELECT name FROM singer", s); !errors.Is(err, context.Canceled) {
		t.Fatalf("ParseContext with a cancelled context: %v, want context.Canceled", err)
	}
	q := longQuery(longestConds)
	start := time.Now()
	if _, err := Parse(q, s); err != nil {
		t.Fatal(err)
	}
	full := time.Since(start)
	var took time.Duration
	for attempt := range 3 {
		ctx, cancel := context.WithTimeout(context.Background(), full/20)
		start = time.Now()
		_, err := ParseContext(ctx, q, s)
		d := time.Since(start)
		cancel()
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("ParseContext past its deadline: %v, want context.DeadlineExceeded (the whole parse took %v)", err, full)
		}
		if attempt == 0 || d < took {
			took = d
		}
	}
	if took > full/2 {
		t.Errorf("ParseContext with a deadline of %v ran %v, the whole parse %v: it did not stop at the deadline", full/20, took, full)
	}
	t.Logf("whole parse %v, stopped after %v", full, took)
}
