package testutil

import (
	"flag"
	"runtime"
	"strconv"
)

// ParallelUnlessSet, called from a TestMain after flag.Parse, runs up to four times as
// many parallel tests as cores unless -parallel was given. It is for packages whose
// parallel tests mostly wait (a PostgreSQL task copy, a killed process, a cut proxy, a
// probe timeout): at go test's default of one parallel test a core they hold the core's
// slot idle. Tests whose subject is time stay serial (they run before any parallel test
// starts) or use generous timeouts. Measured in issue 44, warm on the quiet machine: cli
// 151.9 s at two a core and 109.9 s at four; engine 60 s with its waits in a row and
// 28 s; benchrun 103 s and 83 s (under a load of 8).
func ParallelUnlessSet() {
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.parallel" })
	if !set {
		flag.Set("test.parallel", strconv.Itoa(4*runtime.GOMAXPROCS(0)))
	}
}
