package dbschema

import (
	"os"
	"sync"
	"time"
)

// A run reads its tables.json several times (hardness when the dataset loads, schema
// linking for databases without a file, ESM's foreign-key maps), and parsing it is most
// of the cost. So a parsed file is kept, keyed by its path and checked against the file
// itself on every use: a file whose size, modification time or identity changed is
// parsed again. Only files that parsed are kept (an error is recomputed, with its
// message), and only the last few.

// maxTablesCache is how many parsed tables.json files are kept (a process reads one or
// two datasets).
const maxTablesCache = 4

type tablesCacheEntry struct {
	path string
	size int64
	mod  time.Time
	info os.FileInfo
	file *tablesFile
}

var tablesCache struct {
	mu      sync.Mutex
	entries []tablesCacheEntry // most recently stored last
}

// readTablesFile is parseTablesJSON, cached while the file stays the same.
func readTablesFile(path string) (*tablesFile, error) {
	st, statErr := os.Stat(path)
	if statErr == nil {
		if f := cachedTables(path, st); f != nil {
			return f, nil
		}
	}
	f, err := parseTablesJSON(path)
	if err != nil {
		return nil, err
	}
	// Stored under the Stat taken before reading: a file changed since then has
	// another size, time or identity at the next use, and is read again.
	if statErr == nil {
		storeTables(tablesCacheEntry{path: path, size: st.Size(), mod: st.ModTime(), info: st, file: f})
	}
	return f, nil
}

func cachedTables(path string, st os.FileInfo) *tablesFile {
	tablesCache.mu.Lock()
	defer tablesCache.mu.Unlock()
	for _, e := range tablesCache.entries {
		if e.path == path && e.size == st.Size() && e.mod.Equal(st.ModTime()) && os.SameFile(e.info, st) {
			return e.file
		}
	}
	return nil
}

func storeTables(e tablesCacheEntry) {
	tablesCache.mu.Lock()
	defer tablesCache.mu.Unlock()
	kept := tablesCache.entries[:0]
	for _, old := range tablesCache.entries {
		if old.path != e.path {
			kept = append(kept, old)
		}
	}
	if len(kept) >= maxTablesCache {
		kept = append(kept[:0], kept[len(kept)-maxTablesCache+1:]...)
	}
	tablesCache.entries = append(kept, e)
}
