package scripts_test

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// budgets reads scripts/test-budget.txt's key and seconds columns, so the test follows
// the numbers when they change.
func budgets(t *testing.T) map[string]int {
	t.Helper()
	f, err := os.Open("test-budget.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]int{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) < 2 || strings.HasPrefix(fields[0], "#") {
			continue
		}
		n, err := strconv.Atoi(fields[1])
		if err != nil {
			t.Fatalf("test-budget.txt: %q: %v", sc.Text(), err)
		}
		out[fields[0]] = n
	}
	for _, k := range []string{"package", "total", "short"} {
		if out[k] == 0 {
			t.Fatalf("test-budget.txt has no %q line", k)
		}
	}
	return out
}

// TestTestBudget: the slow-test guard passes a log within scripts/test-budget.txt and
// fails one whose package or whole run is over it, naming what is over.
func TestTestBudget(t *testing.T) {
	log := func(lines ...string) string {
		p := filepath.Join(t.TempDir(), "go-test.log")
		if err := os.WriteFile(p, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	b := budgets(t)
	pkg, total, short := b["package"], b["total"], b["short"]
	within := log(fmt.Sprintf("ok  \tgithub.com/x/a\t%d.5s", pkg-1), "ok  \tgithub.com/x/b\t(cached)", "?   \tgithub.com/x/c\t[no test files]")
	slowPkg := log("ok  \tgithub.com/x/a\t3.1s", fmt.Sprintf("FAIL\tgithub.com/x/slow\t%d.105s", pkg+1))
	str := strconv.Itoa
	tests := []struct {
		name, log, key, wall string
		fails                bool
		say                  string
	}{
		{"within", within, "total", str(total - 1), false, fmt.Sprintf("%ds of its %ds budget (total)", total-1, total)},
		{"a package over", slowPkg, "total", str(total - 1), true, fmt.Sprintf("%d.1s  github.com/x/slow", pkg+1)},
		{"whole run over", within, "total", str(total + 1), true, fmt.Sprintf("took %ds, over its %ds budget (total)", total+1, total)},
		{"short run within", within, "short", str(short), false, fmt.Sprintf("%ds of its %ds budget (short)", short, short)},
		{"short run over", within, "short", str(short + 1), true, fmt.Sprintf("over its %ds budget (short)", short)},
		{"unknown key", within, "nightly", "1", true, "no 'nightly' line"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := runScript(t, 30*time.Second, "testbudget.sh", nil, tc.log, tc.key, tc.wall)
			if (r.err != nil) != tc.fails || !strings.Contains(r.stdout+r.stderr, tc.say) {
				t.Errorf("err %v, output %q; want failure %v saying %q", r.err, r.stdout+r.stderr, tc.fails, tc.say)
			}
		})
	}
}
