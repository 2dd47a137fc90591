package dataset

import (
	"os"
)

// DBCandidates lists, in order, the files where dbID's SQLite database may be. Each
// benchmark lays its databases out its own way:
//
//	bird:   <root>/<db>/<db>.sqlite, <root>/dev_databases/<db>/<db>.sqlite
//	spider: <root>/<db>/<db>.sqlite
//	spider2: <root>/<db>.sqlite, <root>/<db>/<db>.sqlite
//	jsonl:  <root>/<db>/<db>.sqlite, <root>/<db>.sqlite, <root>/databases/<db>/<db>.sqlite
//
// An id that could escape the root (a path separator, "." or "..") has no candidates.
func (d *Dataset) DBCandidates(dbID string) []string {
	if !safeDBID(dbID) {
		return nil
	}
	if k, ok := KindNamed(d.Kind); ok {
		return k.Layout(d.DBRoot, dbID)
	}
	return permissiveLayout(d.DBRoot, dbID) // datasets built by hand: the most permissive layout
}

// DBPath returns the first candidate database file for dbID that exists.
func (d *Dataset) DBPath(dbID string) (path string, ok bool) {
	for _, c := range d.DBCandidates(dbID) {
		if fi, err := os.Stat(c); err == nil && fi.Mode().IsRegular() {
			return c, true
		}
	}
	return "", false
}
