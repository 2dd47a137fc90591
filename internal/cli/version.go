package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/nl2sqlbench/nl2sqlbench/internal/buildid"
)

// versionLine is what `nl2sqlbench version` and `nl2sqlbench --version` print: the
// version set at build time (buildid.Version) and, for a source build, its VCS stamp.
func versionLine() string { return "nl2sqlbench " + buildid.Describe() + "\n" }

func newVersionCmd(e *env) *cobra.Command {
	return &cobra.Command{
		Use:     "version",
		Example: `  nl2sqlbench version`,
		Short:   "Print the version",
		Args:    cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			_, err := fmt.Fprint(e.stdout, versionLine())
			return err
		},
	}
}
