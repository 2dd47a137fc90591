package taskcode

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nl2sqlbench/nl2sqlbench/internal/taskdb"
)

// TestHostile: test code that attacks the machine is stopped or refused, and the next
// test case runs as usual. What "refused" means depends on the isolation mode (see
// docs/taskcode.md): in Namespaces mode the file system outside /usr and the libraries
// is empty and there is no network; in Basic mode only the socket module refuses.
func TestHostile(t *testing.T) {
	if testing.Short() {
		t.Skip("slow (9-15 s, serial: it counts the machine's sandbox processes): runs in go test ./..., not under -short")
	}
	p := findPython(t)
	ns := p.Isolation == Namespaces
	t.Logf("isolation %s", p.Isolation)

	// A listener the sandbox must not reach.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	var accepted atomic.Int32
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			accepted.Add(1)
			c.Close()
		}
	}()
	port := l.Addr().(*net.TCPAddr).Port

	// A secret the tool's environment holds and a root-only file.
	t.Setenv("PGPASSWORD", "hunter2")
	t.Setenv("NL2SQLBENCH_TEST_DSN", "postgres://u:hunter2@localhost/db")
	secret := filepath.Join(t.TempDir(), "secret")
	if err := os.WriteFile(secret, []byte("hunter2"), 0o600); err != nil {
		t.Fatal(err)
	}

	type check func(t *testing.T, o Outcome)
	status := func(s Status, classes ...string) check {
		return func(t *testing.T, o Outcome) {
			t.Helper()
			if o.Status != s || (len(classes) > 0 && !contains(classes, o.Class)) {
				t.Errorf("got %s %s %q, want %s %v\n%s\nstderr %s", o.Status, o.Class, o.Message, s, classes, o.Traceback, o.Stderr)
			}
		}
	}
	readRefused := status(TestError, "FileNotFoundError", "PermissionError")
	if !ns {
		// Basic mode reads what the tool's user may read: the file is there.
		readRefused = status(Passed)
	}
	// An empty network namespace has only a loopback that is down: ENETUNREACH.
	socketRefused := status(TestError, "OSError")
	if !ns {
		socketRefused = status(TestError, "PermissionError")
	}
	cases := []struct {
		name   string
		lim    func(*Limits)
		code   string
		want   check
		budget time.Duration
	}{
		{"socket to 127.0.0.1", nil, fmt.Sprintf(`
def test_case(pred_sqls, sol_sqls, db_name, conn):
    import socket
    s = socket.create_connection(("127.0.0.1", %d), timeout=2)
`, port), socketRefused, 5 * time.Second},
		{"reads /etc/passwd", nil, `
def test_case(pred_sqls, sol_sqls, db_name, conn):
    return open("/etc/passwd").read()
`, readRefused, 5 * time.Second},
		{"reads a root-only file", nil, fmt.Sprintf(`
def test_case(pred_sqls, sol_sqls, db_name, conn):
    return open(%q).read()
`, secret), readRefused, 5 * time.Second},
		{"looks for credentials in its environment", nil, `
def test_case(pred_sqls, sol_sqls, db_name, conn):
    import os
    leaked = [k for k in os.environ if "PG" in k or "DSN" in k or "hunter2" in os.environ[k]]
    assert not leaked, leaked
    assert sorted(os.environ) == ["LANG", "LC_ALL", "PATH", "PYTHONIOENCODING"], sorted(os.environ)
`, status(Passed), 5 * time.Second},
		{"fork bomb", nil, `
def test_case(pred_sqls, sol_sqls, db_name, conn):
    import os
    while True:
        os.fork()
`, status(TestError, "BlockingIOError"), 15 * time.Second},
		{"a child that escapes its process group", nil, `
def test_case(pred_sqls, sol_sqls, db_name, conn):
    import os, time
    if os.fork() == 0:
        os.setsid()
        time.sleep(300)
`, status(Passed), 5 * time.Second},
		{"loops forever (wall clock)", func(l *Limits) { l.Wall = 2 * time.Second }, `
def test_case(pred_sqls, sol_sqls, db_name, conn):
    while True:
        pass
`, status(Timeout), 5 * time.Second},
		{"loops forever (CPU limit)", func(l *Limits) { l.CPU = time.Second }, `
def test_case(pred_sqls, sol_sqls, db_name, conn):
    while True:
        pass
`, status(Killed), 10 * time.Second},
		{"allocates 4 GB", nil, `
def test_case(pred_sqls, sol_sqls, db_name, conn):
    b = bytearray(4 << 30)
`, status(TestError, "MemoryError"), 5 * time.Second},
		{"allocates in steps", func(l *Limits) { l.Memory = 256 << 20 }, `
def test_case(pred_sqls, sol_sqls, db_name, conn):
    keep = []
    while True:
        keep.append(bytearray(64 << 20))
`, status(TestError, "MemoryError"), 10 * time.Second},
		{"fills the disk", nil, `
def test_case(pred_sqls, sol_sqls, db_name, conn):
    with open("big", "wb") as f:
        for _ in range(64):
            f.write(b"0" * (1 << 20))
`, status(TestError, "OSError"), 5 * time.Second},
		{"writes garbage into the protocol", nil, `
def test_case(pred_sqls, sol_sqls, db_name, conn):
    import os
    for fd in range(3, 10):
        try:
            os.write(fd, b"garbage\n")
        except OSError:
            pass
    execute_queries("SELECT 1", db_name, conn)
`, status(TestError, "SandboxError"), 5 * time.Second},
		{"exits", nil, `
def test_case(pred_sqls, sol_sqls, db_name, conn):
    import os
    os._exit(0)
`, status(TestError, "SandboxError"), 5 * time.Second},
	}
	db := &fakeDB{exec: func(string) (*taskdb.Result, error) { return rows([]string{"int4"}, []any{"1"}), nil }}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			q := *p
			if tc.lim != nil {
				tc.lim(&q.Limits)
			}
			o, err := q.Run(context.Background(), db, Case{Code: tc.code})
			if err != nil {
				t.Fatalf("Run: %v", err)
			}
			t.Logf("%s %s %q in %s", o.Status, o.Class, firstLine(o.Message), o.Elapsed.Round(time.Millisecond))
			tc.want(t, o)
			if o.Elapsed > tc.budget {
				t.Errorf("took %s, budget %s", o.Elapsed, tc.budget)
			}
			// The parent goes on: the next test case runs as usual.
			if o := run(t, p, db, "def test_case(pred_sqls, sol_sqls, db_name, conn):\n    assert execute_queries('SELECT 1', db_name, conn)[0] == [(1,)]\n"); o.Status != Passed {
				t.Errorf("the next test case: %s %s %s", o.Status, o.Class, o.Message)
			}
			if ns {
				n := processesOf(65534)
				for i := 0; n > 0 && i < 20; i++ { // the kernel ends a namespace's processes asynchronously
					time.Sleep(50 * time.Millisecond)
					n = processesOf(65534)
				}
				if n > 0 {
					t.Errorf("%d processes of nobody left running", n)
				}
			}
		})
	}
	if n := accepted.Load(); n > 0 {
		t.Errorf("the listener accepted %d connections from the sandbox", n)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func firstLine(s string) string { line, _, _ := strings.Cut(s, "\n"); return line }

// processesOf counts the processes of a user (the sandboxes run as nobody).
func processesOf(uid int) int {
	ents, _ := os.ReadDir("/proc")
	n := 0
	for _, e := range ents {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/status")
		if err != nil {
			continue
		}
		for _, line := range strings.Split(string(b), "\n") {
			if f := strings.Fields(line); len(f) > 1 && f[0] == "Uid:" && f[1] == strconv.Itoa(uid) {
				n++
			}
		}
	}
	return n
}
