package cli

import "github.com/spf13/pflag"

// bindDatasetFlags declares --dataset, --db-root and --tables the one way every command that
// loads a dataset shows them; datasetHelp is --dataset's help, which names the kinds the
// command takes.
func bindDatasetFlags(f *pflag.FlagSet, spec, dbRoot, tables *string, datasetHelp string) {
	f.StringVar(spec, "dataset", "", datasetHelp)
	f.StringVar(dbRoot, "db-root", "", "directory holding the databases (overrides the dataset's default)")
	f.StringVar(tables, "tables", "", "tables.json schema file (overrides the dataset's default)")
}
