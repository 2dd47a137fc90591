// Command printversion prints buildid.Version() and Describe(): the smallest program
// TestVersionSetByLdflags can build with scripts/release.sh's -ldflags -X to check that
// the flag reaches the variable (a build of the whole command links for several seconds).
package main

import (
	"fmt"

	"github.com/nl2sqlbench/nl2sqlbench/internal/buildid"
)

func main() {
	fmt.Println(buildid.Version())
	fmt.Println(buildid.Describe())
}
