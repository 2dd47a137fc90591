package engine

import "sync"

// maxRan bounds how many texts an SQLite engine remembers having run (Ran): past it the
// engine stops adding, and callers simply prepare for themselves.
const maxRan = 1 << 20

// ranKey names one query text run on one database file.
type ranKey struct{ path, query string }

// ranSet is the texts an SQLite engine ran without error, by file. Safe for concurrent use.
type ranSet struct {
	mu sync.Mutex
	m  map[ranKey]struct{}
}

func (r *ranSet) add(path, query string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.m == nil {
		r.m = map[ranKey]struct{}{}
	}
	if len(r.m) < maxRan {
		r.m[ranKey{path, query}] = struct{}{}
	}
}

func (r *ranSet) has(path, query string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	_, ok := r.m[ranKey{path, query}]
	return ok
}

// Ran reports whether Query ran exactly this text (byte for byte) on the file at path
// without error since the engine was made. Such a text prepares on any read-only
// connection to that file that is not more restricted than the engine's (the engine adds
// an authorizer and lowers SQLITE_LIMIT_LENGTH, never loosens SQLite's defaults): Query
// prepared it whole, or, when a semicolon and only white space or comments follow,
// prepared the statement before the semicolon, which is what SQLite compiles from the
// whole text. So a caller that must know whether SQLite prepares a text (ETM) may skip
// its own prepare. A text that failed, or was never run, is not known: ask SQLite.
func (s *SQLite) Ran(path, query string) bool { return s.ran.has(path, query) }
