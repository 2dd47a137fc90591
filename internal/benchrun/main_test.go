package benchrun

import (
	"flag"
	"os"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/testutil"
)

func TestMain(m *testing.M) {
	flag.Parse()
	// Four parallel tests a core: the slow ones mostly wait (PostgreSQL creating and
	// dropping task copies, python test code, the judge's retries). Issue 44, measured on
	// this 2-core machine under a load of 8: 103 s at one a core, 83 s at four.
	testutil.ParallelUnlessSet()
	os.Exit(m.Run())
}
