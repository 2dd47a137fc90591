package taskcode

import (
	"context"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/nl2sqlbench/nl2sqlbench/internal/taskdb"
)

// TestSandboxDiesWithTool: when the tool is killed with -9 while a test case sleeps
// (its wall clock is the tool's to enforce), the sandbox goes too. Before, the parent-
// death signal was cleared by the sandbox's setuid and its processes ran on as orphans.
// The tool is this test binary, run again as a child that starts a sleeping test case.
func TestSandboxDiesWithTool(t *testing.T) {
	if os.Getenv("NL2SQLBENCH_TASKCODE_ORPHAN") == "1" {
		p := findPython(t)
		p.Limits.Wall = time.Hour
		db := &fakeDB{exec: func(string) (*taskdb.Result, error) { return nil, nil }}
		o, err := p.Run(context.Background(), db, Case{Code: "def test_case(pred_sqls, sol_sqls, db_name, conn):\n    import time\n    time.sleep(3600)\n"})
		t.Logf("%+v %v", o, err)
		return
	}
	findPython(t)
	cmd := exec.Command(os.Args[0], "-test.run=^TestSandboxDiesWithTool$")
	cmd.Env = append(os.Environ(), "NL2SQLBENCH_TASKCODE_ORPHAN=1")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	var sandbox []int
	for i := 0; i < 200 && !runningAsNobody(sandbox); i++ { // past the bootstrap's setuid
		time.Sleep(100 * time.Millisecond)
		sandbox = descendants(cmd.Process.Pid)
	}
	if !runningAsNobody(sandbox) {
		t.Skipf("no sandbox process of nobody under %d (%v): not in Namespaces mode", cmd.Process.Pid, sandbox)
	}
	time.Sleep(200 * time.Millisecond)
	sandbox = descendants(cmd.Process.Pid)
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	var alive []int
	for i := 0; i < 50; i++ {
		alive = alive[:0]
		for _, pid := range sandbox {
			if st, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat"); err == nil && !strings.Contains(string(st), ") Z ") {
				alive = append(alive, pid)
			}
		}
		if len(alive) == 0 {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	for _, pid := range alive {
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
	t.Errorf("sandbox processes %v outlived the tool killed with -9", alive)
}

// descendants lists the processes below pid (children, grandchildren, ...).
func descendants(pid int) []int {
	ents, _ := os.ReadDir("/proc")
	parent := map[int]int{}
	for _, e := range ents {
		n, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		st, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		s := string(st)
		f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
		if len(f) > 1 {
			pp, _ := strconv.Atoi(f[1])
			parent[n] = pp
		}
	}
	var out []int
	for n := range parent {
		for p := parent[n]; p > 1; p = parent[p] {
			if p == pid {
				out = append(out, n)
				break
			}
		}
	}
	return out
}

// runningAsNobody says whether one of pids runs as nobody (the sandbox after its setuid).
func runningAsNobody(pids []int) bool {
	for _, pid := range pids {
		st, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
		if err == nil && strings.Contains(string(st), "\nUid:\t65534\t") {
			return true
		}
	}
	return false
}
