package cli

import "github.com/nl2sqlbench/nl2sqlbench/internal/rundir"

// The run directory's file names, short for the tests that read them.
const (
	manifestFile = rundir.ManifestFile
	recordsFile  = rundir.RecordsFile
)
