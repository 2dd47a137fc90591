package benchrun

import "github.com/nl2sqlbench/nl2sqlbench/internal/dataset"

// DatasetServer is a Server whose databases are files under the dataset's root (DuckDB
// files), so it must see the loaded dataset to locate them: Eval calls UseDataset before
// Open.
type DatasetServer interface {
	Server
	UseDataset(ds *dataset.Dataset)
}
