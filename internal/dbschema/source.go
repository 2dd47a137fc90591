package dbschema

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/nl2sqlbench/nl2sqlbench/internal/memo"
)

// ErrNoSchema reports a database whose schema is neither in a database file nor in
// tables.json.
var ErrNoSchema = errors.New("no schema for database")

// Source is the one "database file, else tables.json" lookup: a database's schema is
// introspected from its file when that exists, else read from the dataset's tables.json
// (BIRD dev ships only some databases; its tables.json has them all). Each file's
// existence, each schema and tables.json are read once (memo); a schema's error is
// remembered with it, so every record of a database says the same thing. The zero
// value reads no tables.json; safe for concurrent use. The schemas are shared: read only.
type Source struct {
	// Tables is the dataset's tables.json ("": none).
	Tables string
	// Introspections, when set, is the run's, shared with other annotators (nil: each
	// file is introspected here).
	Introspections *Introspections

	exists  memo.Map[string, bool]               // database file -> whether it existed when first asked
	schemas memo.Map[string, *Schema]            // by database file, or "tables:" + db_id
	tables  memo.Map[string, map[string]*Schema] // tables.json, by path
}

// Schema returns the schema of database dbID: introspected from dbPath when that file
// exists, else from tables.json. Errors wrap ErrNoSchema when neither has it.
func (s *Source) Schema(ctx context.Context, dbID, dbPath string) (*Schema, error) {
	key := "tables:" + dbID
	if dbPath != "" {
		// Whether the file exists is asked once per file, not once per record.
		ok, _ := s.exists.Get(dbPath, func() (bool, error) {
			_, err := os.Stat(dbPath)
			return err == nil, nil
		})
		if ok {
			key = dbPath
		}
	}
	return s.schemas.Get(key, func() (*Schema, error) {
		if key != dbPath {
			return s.fromTables(dbID)
		}
		var sc *Schema
		var err error
		if s.Introspections != nil {
			sc, err = s.Introspections.Introspect(ctx, dbPath)
		} else {
			sc, err = Introspect(ctx, dbPath)
		}
		if err != nil {
			return nil, fmt.Errorf("schema of %s: %w", dbPath, err)
		}
		return sc, nil
	})
}

func (s *Source) fromTables(dbID string) (*Schema, error) {
	if s.Tables == "" {
		return nil, fmt.Errorf("%w %s: database file missing and the dataset has no tables.json", ErrNoSchema, dbID)
	}
	all, err := s.tables.Get(s.Tables, func() (map[string]*Schema, error) { return ReadTablesJSON(s.Tables) })
	if err != nil {
		return nil, fmt.Errorf("schema of %s: %w", dbID, err)
	}
	sc := all[dbID]
	if sc == nil {
		return nil, fmt.Errorf("%w %s: not in %s", ErrNoSchema, dbID, s.Tables)
	}
	return sc, nil
}
