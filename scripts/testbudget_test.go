package scripts_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

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
	within := log("ok  \tgithub.com/x/a\t119.5s", "ok  \tgithub.com/x/b\t(cached)", "?   \tgithub.com/x/c\t[no test files]")
	slowPkg := log("ok  \tgithub.com/x/a\t3.1s", "FAIL\tgithub.com/x/slow\t600.105s")
	tests := []struct {
		name, log, key, wall string
		fails                bool
		say                  string
	}{
		{"within", within, "total", "300", false, "300s of its 360s budget (total)"},
		{"a package over", slowPkg, "total", "300", true, "600.1s  github.com/x/slow"},
		{"whole run over", within, "total", "361", true, "took 361s, over its 360s budget (total)"},
		{"short run over", within, "short", "101", true, "over its 100s budget (short)"},
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
