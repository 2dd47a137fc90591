package engine

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// TestByteLimit: a result is bounded in bytes while it is read: one value larger than
// the cap is stopped by SQLite before it is allocated (SELECT zeroblob(999000000) once
// peaked at 4.9 GB), many small values by the running count. The error says bytes and
// matches ErrRowLimit.
func TestByteLimit(t *testing.T) {
	e := NewSQLite()
	e.MaxConnsPerDB = 1 // every query on one pooled connection: the cap must not stick to it
	t.Cleanup(func() { e.Close() })
	many := `WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 100) SELECT randomblob(20) FROM c`
	tests := []struct {
		name     string
		query    string
		maxBytes int64
		wantErr  bool
	}{
		{"one huge value, default cap", "SELECT zeroblob(999000000)", 0, true},
		{"one value over a small cap", "SELECT zeroblob(2000)", 1000, true},
		{"text over a small cap", "SELECT printf('%.*c', 2000, 'x')", 1000, true},
		{"many rows over the cap", many, 1000, true},
		{"many rows under the cap", many, 100 * (20 + cellOverhead), false},
		{"one value under the cap", "SELECT zeroblob(500)", 1000, false},
		{"after a small cap, the default again", "SELECT zeroblob(5000)", 0, false},
		{"no cap", "SELECT zeroblob(2000000)", -1, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, err := e.Query(context.Background(), fixturePath, tc.query, Limits{MaxBytes: tc.maxBytes})
			if !tc.wantErr {
				if err != nil || res.NumRows() == 0 {
					t.Fatalf("Query = %v, %v; want rows", res, err)
				}
				return
			}
			if !errors.Is(err, ErrByteLimit) || !errors.Is(err, ErrRowLimit) || !strings.Contains(err.Error(), "bytes") {
				t.Errorf("err = %v, want ErrByteLimit (also ErrRowLimit) saying bytes", err)
			}
		})
	}
}

// TestByteLimitSQLPP: SQL++ results are counted document by document, and the response
// body itself is capped, so one huge value cannot be read whole.
func TestByteLimitSQLPP(t *testing.T) {
	e, _ := newFakeSQLPP(t)
	_, err := e.Query(context.Background(), "superhero", "MANY", Limits{MaxBytes: 200})
	if !errors.Is(err, ErrByteLimit) || !strings.Contains(err.Error(), "200 bytes") {
		t.Errorf("100 results over 200 bytes: %v, want ErrByteLimit", err)
	}
	if _, err := e.Query(context.Background(), "superhero", "MANY", Limits{}); err != nil {
		t.Errorf("100 results under the default cap: %v", err)
	}
	huge := `{"results":[{"a":"` + strings.Repeat("x", 3<<20) + `"}]}`
	cr := &cappedReader{r: strings.NewReader(huge), left: bodyCap(100), limit: 100}
	if _, err := readSQLPPResponse(cr, 0, 100); !errors.Is(err, ErrByteLimit) {
		t.Errorf("3 MB body with a 100-byte cap: %v, want ErrByteLimit from the body cap", err)
	}
}
