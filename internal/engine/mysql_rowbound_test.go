package engine_test

import (
	"context"
	"errors"
	"runtime"
	"strings"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
)

// TestMySQLRowBounded (issue 45, MySQL row memory): go-sql-driver read a whole row, its
// 16 MiB parts appended, before any value was counted against the byte cap: a 900 MB
// row took 3.33 GB. The engine now follows the packet headers on the socket and refuses
// a row longer than what is left of the cap (plus rowSlack) as its header arrives: here
// an 18 MB row (three values, two packets) under a 1 MiB cap allocates a few MB and
// fails with ErrByteLimit naming the cap; later rows are bounded by what is left; the
// refused connection is not reused broken; rows that fit, DECIMALs whose wire text is
// longer than what they count included, come back.
//
// The DSN's options do not undo it: with compress=true the engine switches compression
// off (a compressed row of one letter is a few KB on the socket), and over TLS the bound
// counts the socket's bytes (the driver still allocates a 16 MiB part whose header it
// has read, so there a refused row costs up to a part more). Before, both DSNs read the
// whole row: 81 MB allocated here.
// Not parallel: the allocation count is the process's.
func TestMySQLRowBounded(t *testing.T) {
	dsn := serverDSN(t, mysqlDSNVar)
	sep := "?"
	if strings.Contains(dsn, "?") {
		sep = "&"
	}
	for _, tc := range []struct {
		name, opt string
		alloc     uint64 // the most a refused 18 MB row may allocate
	}{
		{"plain", "", 12 << 20},
		{"compress", "compress=true", 12 << 20},
		{"tls", "tls=skip-verify", 40 << 20},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := dsn
			if tc.opt != "" {
				d += sep + tc.opt
			}
			if tc.name == "tls" {
				requireMySQLTLS(t, d)
			}
			mysqlRowBounded(t, d, tc.alloc)
		})
	}
}

// requireMySQLTLS skips unless the server at dsn speaks TLS (.ci/servers.sh turns it on).
func requireMySQLTLS(t *testing.T, dsn string) {
	t.Helper()
	e := engine.NewMySQL(dsn, 1)
	defer e.Close()
	res, err := e.Query(context.Background(), "information_schema", "SELECT @@have_ssl", engine.Limits{})
	if err == nil && res.NumRows() == 1 && res.Text(0, 0) == "YES" {
		return
	}
	t.Skipf("the MySQL server has no TLS (%v): .ci/servers.sh gives MariaDB a certificate", err)
}

func mysqlRowBounded(t *testing.T, dsn string, alloc uint64) {
	e := engine.NewMySQL(dsn, 2)
	t.Cleanup(func() { e.Close() })
	ctx := context.Background()
	const db = "information_schema"

	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := e.Query(ctx, db, "SELECT REPEAT('a', 6000000) AS a, REPEAT('b', 6000000) AS b, REPEAT('c', 6000000) AS c", engine.Limits{MaxBytes: 1 << 20})
	runtime.ReadMemStats(&after)
	if !errors.Is(err, engine.ErrByteLimit) || !strings.Contains(err.Error(), "1048576 bytes") {
		t.Fatalf("an 18 MB row under a 1 MiB cap: %v; want ErrByteLimit naming the cap", err)
	}
	// The row was 18 MB; reading it took 81 MB before.
	got := after.TotalAlloc - before.TotalAlloc
	t.Logf("an 18 MB row refused under a 1 MiB cap allocated %.1f MB", float64(got)/(1<<20))
	if got > alloc {
		t.Errorf("an 18 MB row refused under a 1 MiB cap allocated %d MB: it was read before the cap was checked", got>>20)
	}
	lim := engine.Limits{MaxBytes: 16 << 20}
	_, err = e.Query(ctx, db, "SELECT REPEAT('a', 6000000) FROM (SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3 UNION ALL SELECT 4) t", lim)
	if !errors.Is(err, engine.ErrByteLimit) {
		t.Fatalf("four 6 MB rows under a 16 MiB cap: %v; want ErrByteLimit", err)
	}
	for range 3 {
		res, err := e.Query(ctx, db, "SELECT REPEAT('a', 4000000) AS a, 1 AS b", lim)
		if err != nil || res.NumRows() != 1 || len(res.Text(0, 0)) != 4000000 {
			t.Fatalf("a 4 MB row under a 16 MiB cap: %v", err)
		}
	}
	// 40 DECIMAL(65,30) columns of 1.5 are 1.3 KB on the wire a row (32 characters
	// each), 640 bytes in a Result (floats: exact).
	cols := strings.TrimSuffix(strings.Repeat("CAST(1.5 AS DECIMAL(65,30)), ", 40), ", ")
	res, err := e.Query(ctx, db, "SELECT "+cols, engine.Limits{MaxBytes: 40 * 16})
	if err != nil || res.NumRows() != 1 {
		t.Fatalf("40 DECIMAL(65,30) columns under a 640-byte cap: %v", err)
	}
}
