package cli

import (
	"context"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
)

// privatePG is a PostgreSQL server of the test's own, in a temporary data directory on
// a free loopback port, so a test can stop and restart it without disturbing the shared
// server other tests use. Trust authentication: it listens on 127.0.0.1 only and lives
// as long as the test.
type privatePG struct {
	bin, dir, data, port string
	asUser               []string // the command prefix that runs a binary as postgres when we are root
}

// startPrivatePG initialises and starts a private server, or skips when PostgreSQL's
// binaries are absent. The cleanup stops it and removes its directory.
func startPrivatePG(t *testing.T) *privatePG {
	t.Helper()
	bins, _ := filepath.Glob("/usr/lib/postgresql/*/bin/initdb")
	sort.Strings(bins)
	bin := ""
	if len(bins) > 0 {
		bin = filepath.Dir(bins[len(bins)-1])
	} else if p, err := exec.LookPath("initdb"); err == nil {
		bin = filepath.Dir(p)
	}
	if bin == "" {
		t.Skip("skipping: PostgreSQL's initdb and pg_ctl not found")
	}
	dir, err := os.MkdirTemp("", "nl2sqlbench-pg-")
	if err != nil {
		t.Fatal(err)
	}
	pg := &privatePG{bin: bin, dir: dir, data: filepath.Join(dir, "data")}
	t.Cleanup(func() {
		pg.ctl(t, "stop", "-m", "immediate") //nolint:errcheck // already stopped is fine
		os.RemoveAll(dir)
	})
	if os.Geteuid() == 0 { // initdb refuses to run as root
		u, err := user.Lookup("postgres")
		if err != nil {
			t.Skip("skipping: running as root and there is no postgres user for initdb")
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		if err := os.Chown(dir, uid, gid); err != nil {
			t.Fatal(err)
		}
		pg.asUser = []string{"runuser", "-u", "postgres", "--"}
	}
	if out, err := pg.run("initdb", "-D", pg.data, "-A", "trust", "-U", "postgres", "-E", "UTF8", "--locale=C", "--no-sync"); err != nil {
		t.Fatalf("initdb: %v\n%s", err, out)
	}
	pg.port = freePort(t)
	if err := pg.start(t); err != nil {
		t.Fatal(err)
	}
	return pg
}

// dsn is the DSN template eval and load-db take: one schema per db_id.
func (pg *privatePG) dsn() string {
	return "postgres://postgres@127.0.0.1:" + pg.port + "/postgres?sslmode=disable&search_path={db}"
}

func (pg *privatePG) start(t *testing.T) error {
	return pg.ctl(t, "start", "-w", "-t", "30", "-l", filepath.Join(pg.dir, "log"),
		"-o", "-p "+pg.port+" -k "+pg.dir+" -c listen_addresses=127.0.0.1 -c fsync=off")
}

// stop stops the server the way a crash or an administrator does: SIGQUIT to every
// backend, no checkpoint.
func (pg *privatePG) stop(t *testing.T) error { return pg.ctl(t, "stop", "-m", "immediate", "-w") }

func (pg *privatePG) ctl(t *testing.T, args ...string) error {
	out, err := pg.run("pg_ctl", append([]string{"-D", pg.data}, args...)...)
	if err != nil {
		t.Logf("pg_ctl %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return err
}

// run runs one of the server's binaries, as postgres when we are root, for at most a
// minute, and returns its output.
func (pg *privatePG) run(name string, args ...string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	argv := append(append(append([]string(nil), pg.asUser...), filepath.Join(pg.bin, name)), args...)
	return exec.CommandContext(ctx, argv[0], argv[1:]...).CombinedOutput()
}

// freePort is a loopback port nobody listened on a moment ago.
func freePort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return strconv.Itoa(l.Addr().(*net.TCPAddr).Port)
}
