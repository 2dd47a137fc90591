package engine_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
)

// TestServerForeignCancel (issue 45, faults never verdicts): a statement that another
// session cancels (pg_cancel_backend, KILL QUERY) fails with the same code as one that
// ran out of its limit, and was judged "query timed out": a 4 s query under a 10 s
// limit, cancelled by an administrator, became a wrong verdict. It is now a fault (the
// run stops or retries, the question stays unjudged); a statement that does reach its
// limit is still ErrTimeout.
func TestServerForeignCancel(t *testing.T) {
	if testing.Short() {
		t.Skip("runs statements for seconds on the servers")
	}
	for _, tc := range []struct {
		name, env string
		open      func(dsn string) engine.Engine
		db, slow  string
		cancel    func(t *testing.T, dsn, marker string) error
	}{
		{"postgres", pgDSNVar, func(d string) engine.Engine { return engine.NewPostgres(d, 2) }, "public",
			"SELECT pg_sleep(4), '%s' AS marker", cancelPG},
		{"mysql", mysqlDSNVar, func(d string) engine.Engine { return engine.NewMySQL(d, 2) }, "information_schema",
			"SELECT COUNT(*) FROM (SELECT SLEEP(4) AS s) t, information_schema.schemata WHERE '%s' <> ''", func(t *testing.T, dsn, marker string) error { killMarked(t, dsn, marker); return nil }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dsn := serverDSN(t, tc.env)
			e := tc.open(dsn)
			defer e.Close()
			marker := fmt.Sprintf("foreign_%d", time.Now().UnixNano())
			go func() {
				time.Sleep(700 * time.Millisecond)
				if err := tc.cancel(t, dsn, marker); err != nil {
					t.Errorf("cancel from another session: %v", err)
				}
			}()
			_, err := e.Query(context.Background(), tc.db, fmt.Sprintf(tc.slow, marker), engine.Limits{Timeout: 20 * time.Second})
			if !errors.Is(err, engine.ErrInfrastructure) || errors.Is(err, engine.ErrTimeout) {
				t.Fatalf("a statement cancelled by another session after 0.7 s of its 20 s: %v; want an infrastructure fault, not a timeout", err)
			}
			t.Logf("cancelled by another session: %v", err)
			// Its own limit is still a timeout.
			_, err = e.Query(context.Background(), tc.db, fmt.Sprintf(tc.slow, marker+"_own"), engine.Limits{Timeout: 300 * time.Millisecond})
			if !errors.Is(err, engine.ErrTimeout) {
				t.Errorf("a statement past its own 300 ms limit: %v; want ErrTimeout", err)
			}
		})
	}
}

// cancelPG cancels, from a session of its own, the statements whose text holds marker.
func cancelPG(_ *testing.T, dsn, marker string) error {
	c, err := sql.Open("pgx", strings.ReplaceAll(dsn, engine.DBPlaceholder, "public"))
	if err != nil {
		return err
	}
	defer c.Close()
	var n int
	err = c.QueryRow("SELECT count(pg_cancel_backend(pid)) FROM pg_stat_activity WHERE query LIKE $1 AND pid <> pg_backend_pid()", "%"+marker+"%").Scan(&n)
	if err == nil && n == 0 {
		err = errors.New("no statement found to cancel")
	}
	return err
}
