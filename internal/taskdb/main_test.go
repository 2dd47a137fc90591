package taskdb

import (
	"flag"
	"os"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/testutil"
)

func TestMain(m *testing.M) {
	flag.Parse()
	// Four parallel tests a core: they wait on the servers creating and dropping
	// databases (issue 44). TestPool's timing and the tests that look for this process's
	// leftovers (TestSweep, TestDropCopiesAfterLostConnection) are serial: they run
	// before any parallel test starts.
	testutil.ParallelUnlessSet()
	os.Exit(m.Run())
}
