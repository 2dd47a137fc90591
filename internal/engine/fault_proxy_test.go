package engine_test

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"testing"
	"time"

	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
	"github.com/nl2sqlbench/nl2sqlbench/internal/testutil"
)

// TestServerConnectionCut runs the real drivers against the servers of .ci/servers.sh
// through a loopback proxy that the test cuts, as a server that goes away (without
// stopping the shared server other tests use): a statement whose connection is cut and a
// query while nothing listens are infrastructure faults, never database errors or
// timeouts; once the proxy is back the same engine runs queries again.
func TestServerConnectionCut(t *testing.T) {
	t.Parallel() // waits on its proxy and the servers' probes, 14 s in a row before (issue 44)
	cases := []struct {
		name, envVar string
		hostPort     *regexp.Regexp // the DSN's host:port (group 1), replaced by the proxy's
		wrap         string         // how the DSN writes it
		open         func(dsn string) engine.Engine
		db, sleep    string
	}{
		{"postgres", pgDSNVar, regexp.MustCompile(`@([^/@]+)/`), "@%s/", func(d string) engine.Engine { return engine.NewPostgres(d, 2) },
			"public", "SELECT 1 FROM pg_sleep(5)"},
		{"mysql", mysqlDSNVar, regexp.MustCompile(`tcp\(([^)]+)\)`), "tcp(%s)", func(d string) engine.Engine { return engine.NewMySQL(d, 2) },
			"information_schema", "SELECT SLEEP(5)"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel() // one proxy and one engine each
			dsn := serverDSN(t, tc.envVar)
			m := tc.hostPort.FindStringSubmatch(dsn)
			if m == nil {
				t.Skipf("no host:port in the %s DSN", tc.name)
			}
			px := testutil.StartProxy(t, m[1])
			pdsn := tc.hostPort.ReplaceAllLiteralString(dsn, fmt.Sprintf(tc.wrap, px.Addr()))
			eng := tc.open(pdsn)
			defer eng.Close()
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			lim := engine.Limits{Timeout: 20 * time.Second}
			if _, err := eng.Query(ctx, tc.db, "SELECT 1", lim); err != nil {
				t.Fatalf("through the proxy: %v", err)
			}

			// Cut while a statement runs: the "unexpected EOF" that used to be charged
			// to the system.
			errc := make(chan error, 1)
			go func() {
				_, err := eng.Query(ctx, tc.db, tc.sleep, lim)
				errc <- err
			}()
			time.Sleep(500 * time.Millisecond)
			px.Cut(true)
			err := <-errc
			checkFault(t, "statement cut", err)

			// Nothing listening: every new connection is refused (the old gold_errors).
			_, err = eng.Query(ctx, tc.db, "SELECT 1", lim)
			checkFault(t, "server gone", err)

			px.Cut(false)
			if _, err := eng.Query(ctx, tc.db, "SELECT 1", lim); err != nil {
				t.Errorf("after the proxy is back: %v", err)
			}

			// A server that stops answering: a short statement timeout passes on our
			// side, the ping that follows gets no answer either.
			if testing.Short() {
				return
			}
			px.SetFrozen(true)
			_, err = eng.Query(ctx, tc.db, "SELECT 1", engine.Limits{Timeout: 300 * time.Millisecond})
			checkFault(t, "server silent", err)
			px.SetFrozen(false)
			px.Cut(true) // drop the connections whose bytes the freeze swallowed
			px.Cut(false)
			if _, err := eng.Query(ctx, tc.db, "SELECT 1", lim); err != nil {
				t.Errorf("after the server answers again: %v", err)
			}
		})
	}
}

func checkFault(t *testing.T, what string, err error) {
	t.Helper()
	var dbe *engine.DBError
	switch {
	case !errors.Is(err, engine.ErrInfrastructure):
		t.Errorf("%s: err = %v, want ErrInfrastructure", what, err)
	case errors.As(err, &dbe), errors.Is(err, engine.ErrTimeout):
		t.Errorf("%s: %v is also a database error or a timeout", what, err)
	default:
		t.Logf("%s: %v", what, err)
	}
}

// TestBusyPoolTimeout: a query that runs out of time waiting for a pool whose one
// connection a slow statement holds (longer than the probe waits) is a timeout, not a
// fault: the probe that tells the two apart uses a connection of its own.
func TestBusyPoolTimeout(t *testing.T) {
	if testing.Short() {
		t.Skip("holds a connection for 6 s")
	}
	t.Parallel() // 6 s of waiting, beside the package's other waits
	cases := []struct {
		name, envVar, db, sleep string
		open                    func(dsn string) engine.Engine
	}{
		{"postgres", pgDSNVar, "public", "SELECT 1 FROM pg_sleep(6)", func(d string) engine.Engine { return engine.NewPostgres(d, 1) }},
		{"mysql", mysqlDSNVar, "information_schema", "SELECT SLEEP(6)", func(d string) engine.Engine { return engine.NewMySQL(d, 1) }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			eng := tc.open(serverDSN(t, tc.envVar))
			defer eng.Close()
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			done := make(chan error, 1)
			go func() {
				_, err := eng.Query(ctx, tc.db, tc.sleep, engine.Limits{Timeout: 10 * time.Second})
				done <- err
			}()
			time.Sleep(300 * time.Millisecond)
			_, err := eng.Query(ctx, tc.db, "SELECT 1", engine.Limits{Timeout: 300 * time.Millisecond})
			if !errors.Is(err, engine.ErrTimeout) || errors.Is(err, engine.ErrInfrastructure) {
				t.Errorf("waiting for the busy pool: err = %v, want ErrTimeout and no fault", err)
			}
			if err := <-done; err != nil {
				t.Errorf("slow statement: %v", err)
			}
		})
	}
}
