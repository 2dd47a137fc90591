package engine_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
)

// Carried from issue 45: a cancelled MySQL/MariaDB statement outlived its KILL when the
// pool was busy, because the KILL waited for a pooled connection behind the statements
// queued for it (578 s on MariaDB under load). Here the pool holds one connection and two
// statements queue for it while the first is cancelled: the KILL, over a connection of
// its own, still stops the first at once. No statement timeout is set, so
// max_statement_time cannot be what stops it.
func TestMySQLKillNotQueuedBehindPool(t *testing.T) {
	t.Parallel()
	dsn := serverDSN(t, mysqlDSNVar)
	if testing.Short() {
		t.Skip("runs statements for seconds on the server")
	}
	e := engine.NewMySQL(dsn, 1)
	defer e.Close()
	const db = "information_schema"
	marker := fmt.Sprintf("kill_%d", time.Now().UnixNano())
	slow := "SELECT BENCHMARK(300000000, MD5('" + marker + "'))" // CPU-bound: a dropped connection alone does not stop it
	// Whatever happens, nothing of this test is left running on the shared server.
	t.Cleanup(func() { killMarked(t, dsn, marker) })
	started := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { // the statement to cancel
		defer wg.Done()
		ctx, cancel := context.WithCancel(context.Background())
		go func() { <-started; time.Sleep(700 * time.Millisecond); cancel() }()
		_, err := e.Query(ctx, db, slow, engine.Limits{})
		if !errors.Is(err, context.Canceled) && !errors.Is(err, engine.ErrTimeout) {
			t.Errorf("cancelled statement: %v", err)
		}
	}()
	close(started)
	time.Sleep(200 * time.Millisecond)
	for range 2 { // queued for the one pooled connection behind it
		wg.Add(1)
		go func() {
			defer wg.Done()
			e.Query(context.Background(), db, "SELECT SLEEP(4)", engine.Limits{})
		}()
	}
	time.Sleep(1500 * time.Millisecond) // the cancel, then the KILL, have had their time
	// Listed over a handle of its own: the engine's pool is busy with the queued sleeps.
	watch := engine.NewMySQL(dsn, 1)
	defer watch.Close()
	res, err := watch.Query(context.Background(), db, "SELECT COUNT(*) FROM information_schema.processlist WHERE info LIKE '%"+marker+"%' AND info NOT LIKE '%processlist%'", engine.Limits{Timeout: 5 * time.Second})
	if err != nil {
		t.Fatalf("list running statements: %v", err)
	}
	if n := res.BoxedRows()[0][0]; fmt.Sprint(n) != "0" {
		t.Errorf("the cancelled statement still runs on the server 1.5 s after its cancel (%v running)", n)
	}
	wg.Wait()
}

// killMarked kills every statement on the server whose text holds marker.
func killMarked(t *testing.T, dsn, marker string) {
	c, err := sql.Open("mysql", strings.ReplaceAll(dsn, engine.DBPlaceholder, "information_schema"))
	if err != nil {
		return
	}
	defer c.Close()
	rows, err := c.Query("SELECT id FROM information_schema.processlist WHERE info LIKE ? AND info NOT LIKE '%processlist%'", "%"+marker+"%")
	if err != nil {
		return
	}
	var ids []int64
	for rows.Next() {
		var id int64
		if rows.Scan(&id) == nil {
			ids = append(ids, id)
		}
	}
	rows.Close()
	for _, id := range ids {
		c.Exec(fmt.Sprintf("KILL QUERY %d", id))
	}
}
