package taskset

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/nl2sqlbench/nl2sqlbench/internal/taskdb"
)

// setupScripts are the SQL files of one dialect's setup folder, in the order they run;
// the CSV rows go between setup.sql and post_setup.sql.
var setupScripts = []string{"pre_setup.sql", "setup.sql"}

// LiveSQLSetup reads how to build database db of a livesql:DIR dataset:
// DIR/setup/<db>/alloydb/ (AlloyDB is PostgreSQL) and DIR/setup/<db>/data/.
func LiveSQLSetup(ctx context.Context, dir, db string) (taskdb.Setup, error) {
	return readSetup(ctx, dir, db, liveSQLDialect)
}

// liveSQLDialect is a livesql dataset's setup folder: AlloyDB, which is PostgreSQL.
const liveSQLDialect = "alloydb"

// LiveSQLDialect is the setup folder of a livesql dataset, for SchemaText.
func LiveSQLDialect() string { return liveSQLDialect }

// EvalBenchSetup reads how to build database db of an evalbench:DIR dataset in one
// dialect ("sqlite", "postgres", "mysql"): DIR/setup/<db>/<dialect>/ and DIR/setup/<db>/data/.
func EvalBenchSetup(ctx context.Context, dir, db, dialect string) (taskdb.Setup, error) {
	if !safeName.MatchString(dialect) {
		return taskdb.Setup{}, fmt.Errorf("read setup: dialect %q: %w", dialect, ErrMalformed)
	}
	return readSetup(ctx, dir, db, dialect)
}

func readSetup(ctx context.Context, dir, db, dialect string) (taskdb.Setup, error) {
	s := taskdb.Setup{Name: db}
	if !safeName.MatchString(db) {
		return s, fmt.Errorf("read setup: database name %q: %w", db, ErrMalformed)
	}
	base := filepath.Join(dir, "setup", db)
	sqlDir := filepath.Join(base, dialect)
	if st, err := os.Stat(sqlDir); err != nil || !st.IsDir() {
		return s, fmt.Errorf("read setup of %s: no folder %s", db, sqlDir)
	}
	script := func(name string) error {
		p := filepath.Join(sqlDir, name)
		if _, err := os.Stat(p); errors.Is(err, os.ErrNotExist) {
			return nil // each script is optional
		}
		data, err := readFile(dir, p, false)
		if err != nil {
			return err
		}
		if len(bytes.TrimSpace(data)) > 0 {
			s.Steps = append(s.Steps, taskdb.Step{Source: rel(dir, p), SQL: string(data), Script: true})
		}
		return nil
	}
	for _, name := range setupScripts {
		if err := script(name); err != nil {
			return s, err
		}
	}
	csvs, err := filepath.Glob(filepath.Join(base, "data", "*.csv"))
	if err != nil {
		return s, fmt.Errorf("read setup of %s: %w", db, err)
	}
	sort.Strings(csvs) // post_setup adds the foreign keys, so the order of tables is free
	for _, p := range csvs {
		if err := ctx.Err(); err != nil {
			return s, err
		}
		steps, err := csvInserts(dir, p)
		if err != nil {
			return s, err
		}
		s.Steps = append(s.Steps, steps...)
	}
	if err := script("post_setup.sql"); err != nil {
		return s, err
	}
	return s, nil
}

func rel(dir, p string) string {
	if r, err := filepath.Rel(dir, p); err == nil {
		return r
	}
	return p
}

// csvInserts turns a data file into one INSERT per row: the file is named for its table,
// has no header, and each cell is an SQL literal ('text', NULL, 1024), in the table's
// column order, quoted as CSV when it holds a comma or a double quote.
func csvInserts(dir, path string) ([]taskdb.Step, error) {
	table := strings.TrimSuffix(filepath.Base(path), ".csv")
	if !safeName.MatchString(table) {
		return nil, fmt.Errorf("%s: %w: the file name is not a table name", path, ErrMalformed)
	}
	data, err := readFile(dir, path, false)
	if err != nil {
		return nil, err
	}
	r := csv.NewReader(bytes.NewReader(data))
	r.FieldsPerRecord = -1 // the table decides; a wrong count is the database's error, named by line
	r.ReuseRecord = true
	var steps []taskdb.Step
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			return steps, nil
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w: %v", path, ErrMalformed, err)
		}
		line, _ := r.FieldPos(0)
		for i, cell := range rec {
			if strings.TrimSpace(cell) == "" {
				return nil, fmt.Errorf("%s:%d: %w: cell %d is empty (want an SQL literal such as NULL)", path, line, ErrMalformed, i+1)
			}
		}
		steps = append(steps, taskdb.Step{
			Source: rel(dir, path) + ":" + strconv.Itoa(line),
			SQL:    "INSERT INTO " + table + " VALUES (" + strings.Join(rec, ", ") + ")",
		})
	}
}

// SchemaText is database db's schema as the dataset ships it, for a prompt: for a
// livesql dataset (dialect LiveSQLDialect()) DIR/<db>/<db>_schema.txt when there is one (LiveSQLBench's schema with a
// few rows per table), else the DDL scripts of the setup folder of dialect ("alloydb"
// for livesql, the engine's for evalbench), pre_setup.sql, setup.sql and
// post_setup.sql, one after another.
func SchemaText(dir, db, dialect string) (string, error) {
	if !safeName.MatchString(db) || !safeName.MatchString(dialect) {
		return "", fmt.Errorf("schema of %q (%s): %w", db, dialect, ErrMalformed)
	}
	if p := filepath.Join(dir, db, db+"_schema.txt"); dialect == liveSQLDialect && fileExists(p) {
		data, err := readFile(dir, p, false)
		if err != nil {
			return "", err
		}
		return strings.TrimSpace(string(data)), nil
	}
	var parts []string
	for _, name := range append(append([]string{}, setupScripts...), "post_setup.sql") {
		p := filepath.Join(dir, "setup", db, dialect, name)
		if !fileExists(p) {
			continue
		}
		data, err := readFile(dir, p, false)
		if err != nil {
			return "", err
		}
		if t := strings.TrimSpace(string(data)); t != "" {
			parts = append(parts, t)
		}
	}
	if len(parts) == 0 {
		return "", fmt.Errorf("schema of %s: neither %s nor DDL in %s", db, filepath.Join(dir, db, db+"_schema.txt"), filepath.Join(dir, "setup", db, dialect))
	}
	return strings.Join(parts, "\n\n"), nil
}

func fileExists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular()
}
