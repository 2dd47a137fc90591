package dbschema

import (
	"bytes"
	"sync"
)

// A run reads its tables.json several times (hardness when the dataset loads, schema
// linking for databases without a file, ESM's foreign-key maps), and parsing it is most
// of the cost. So a parsed file is kept with the bytes it was parsed from, and used
// again only for the very same bytes: the file is read every time (a small cost next to
// parsing), so a file changed in any way is parsed again. Only files that parsed are
// kept (an error is recomputed, with its message), and only the last few.

// maxTablesCache is how many parsed tables.json files are kept (a process reads one or
// two datasets).
const maxTablesCache = 4

type tablesCacheEntry struct {
	path string
	data []byte
	file *tablesFile
}

var tablesCache struct {
	mu      sync.Mutex
	entries []tablesCacheEntry // most recently stored last
}

// readTablesFile is parseTablesJSON, cached while the file's contents stay the same.
func readTablesFile(path string) (*tablesFile, error) {
	data, err := readTablesData(path)
	if err != nil {
		return nil, err
	}
	if f := cachedTables(path, data); f != nil {
		return f, nil
	}
	f, err := parseTablesData(path, data)
	if err != nil {
		return nil, err
	}
	storeTables(tablesCacheEntry{path: path, data: data, file: f})
	return f, nil
}

func cachedTables(path string, data []byte) *tablesFile {
	tablesCache.mu.Lock()
	defer tablesCache.mu.Unlock()
	for _, e := range tablesCache.entries {
		if e.path == path && bytes.Equal(e.data, data) {
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
