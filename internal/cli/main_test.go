package cli

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
)

// testTimeout replaces the 30 s default per-query timeout in this package's tests: the
// demo data has questions that run until the timeout (their verdict is "timeout"), and
// each would otherwise hold a core for 30 s. Every default timeout (eval, audit,
// export-docs, a matrix cell, a pipeline's exec_timeout) reads engine.DefaultTimeout, so
// the verdicts are the same as at 30 s; TestDefaultTimeout checks what users get.
const testTimeout = 2 * time.Second

// userTimeout is engine.DefaultTimeout as users get it, read before TestMain shortens it.
var userTimeout = engine.DefaultTimeout

func TestMain(m *testing.M) {
	engine.DefaultTimeout = testTimeout
	code := m.Run()
	if sealedRoot != "" {
		os.RemoveAll(sealedRoot)
	}
	os.Exit(code)
}

// TestDefaultTimeout: users get 30 s, and every command's --timeout default is the one
// variable (here shortened to testTimeout), so the shortened tests judge as users do.
func TestDefaultTimeout(t *testing.T) {
	if userTimeout != 30*time.Second {
		t.Errorf("engine.DefaultTimeout is %s; the documented default is 30s", userTimeout)
	}
	for _, cmd := range []string{"eval", "audit", "export-docs"} {
		_, stdout, stderr := run(cmd, "--help")
		if want := "(default " + testTimeout.String() + ")"; !strings.Contains(stdout+stderr, want) {
			t.Errorf("%s --help: the --timeout default is not engine.DefaultTimeout (no %q)", cmd, want)
		}
	}
}
