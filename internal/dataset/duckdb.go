package dataset

import (
	"os"
	"path/filepath"
)

// DuckDBCandidates lists, in order, the files where dbID's DuckDB database may be under
// the dataset's root: <root>/<db>.duckdb (Spider 2.0's flat layout, as for its SQLite
// files) and <root>/<db>/<db>.duckdb (one directory per database, as spider2-dbt's
// projects and BIRD/Spider lay theirs out). An id that could escape the root has none.
func (d *Dataset) DuckDBCandidates(dbID string) []string {
	if !safeDBID(dbID) {
		return nil
	}
	return []string{filepath.Join(d.DBRoot, dbID+".duckdb"), filepath.Join(d.DBRoot, dbID, dbID+".duckdb")}
}

// DuckDBPath returns the first DuckDB candidate for dbID that exists.
func (d *Dataset) DuckDBPath(dbID string) (path string, ok bool) {
	for _, c := range d.DuckDBCandidates(dbID) {
		if fi, err := os.Stat(c); err == nil && fi.Mode().IsRegular() {
			return c, true
		}
	}
	return "", false
}
