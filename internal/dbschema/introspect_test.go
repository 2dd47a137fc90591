package dbschema

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func col(name, typ string, notNull, pk bool) *Column {
	return &Column{Name: name, Type: typ, NotNull: notNull, PrimaryKey: pk}
}

func TestIntrospect(t *testing.T) {
	tests := []struct {
		name  string
		stmts []string
		want  []*Table
	}{
		{
			name: "composite primary key in key order, not column order",
			stmts: []string{
				`CREATE TABLE enrol (student INTEGER NOT NULL, course TEXT NOT NULL, grade REAL,
				  PRIMARY KEY (course, student))`,
			},
			want: []*Table{{
				Name: "enrol",
				Columns: []*Column{
					col("student", "INTEGER", true, true),
					col("course", "TEXT", true, true),
					col("grade", "REAL", false, false),
				},
				PrimaryKey: []string{"course", "student"},
			}},
		},
		{
			name: "multi-column, single-column and implicit foreign keys in declaration order",
			stmts: []string{
				`CREATE TABLE owner (id INTEGER PRIMARY KEY, name TEXT)`,
				`CREATE TABLE parent (a INT, b INT, PRIMARY KEY (a, b))`,
				`CREATE TABLE child (id INTEGER PRIMARY KEY, x INT, y INT, owner_id INT REFERENCES owner,
				  p2 INT REFERENCES parent, o2 INT,
				  FOREIGN KEY (x, y) REFERENCES parent (a, b),
				  FOREIGN KEY (o2) REFERENCES owner (id))`,
			},
			want: []*Table{
				{Name: "owner", Columns: []*Column{col("id", "INTEGER", false, true), col("name", "TEXT", false, false)}, PrimaryKey: []string{"id"}},
				// A rowid table's PRIMARY KEY does not imply NOT NULL in SQLite: only declared NOT NULL counts.
				{Name: "parent", Columns: []*Column{col("a", "INT", false, true), col("b", "INT", false, true)}, PrimaryKey: []string{"a", "b"}},
				{
					Name: "child",
					Columns: []*Column{
						col("id", "INTEGER", false, true), col("x", "INT", false, false), col("y", "INT", false, false),
						col("owner_id", "INT", false, false), col("p2", "INT", false, false), col("o2", "INT", false, false),
					},
					PrimaryKey: []string{"id"},
					ForeignKeys: []ForeignKey{
						{Columns: []string{"owner_id"}, RefTable: "owner", RefColumns: []string{"id"}},
						// REFERENCES parent with no columns: parent's key has two columns, so
						// the reference is broken and no target columns can be named.
						{Columns: []string{"p2"}, RefTable: "parent"},
						{Columns: []string{"x", "y"}, RefTable: "parent", RefColumns: []string{"a", "b"}},
						{Columns: []string{"o2"}, RefTable: "owner", RefColumns: []string{"id"}},
					},
				},
			},
		},
		{
			name: "unique constraints and indexes; partial, expression and plain indexes ignored",
			stmts: []string{
				`CREATE TABLE u (id INTEGER PRIMARY KEY, email TEXT UNIQUE NOT NULL, a INT, b INT, c INT,
				  UNIQUE (b, a))`,
				`CREATE UNIQUE INDEX u_c ON u (c)`,
				`CREATE INDEX u_plain ON u (a)`,
				`CREATE UNIQUE INDEX u_partial ON u (a) WHERE a > 0`,
				`CREATE UNIQUE INDEX u_expr ON u (lower(email))`,
				`CREATE UNIQUE INDEX u_dup ON u (A, B)`, // same set as UNIQUE (b, a): kept once
			},
			want: []*Table{{
				Name: "u",
				Columns: []*Column{
					col("id", "INTEGER", false, true), col("email", "TEXT", true, false),
					col("a", "INT", false, false), col("b", "INT", false, false), col("c", "INT", false, false),
				},
				PrimaryKey: []string{"id"},
				Unique:     [][]string{{"email"}, {"b", "a"}, {"c"}},
			}},
		},
		{
			name: "quoted names with spaces, quotes and brackets",
			stmts: []string{
				`CREATE TABLE "my table" ("the id" INTEGER PRIMARY KEY, "say ""hi""" TEXT NOT NULL)`,
				`CREATE TABLE [it's] ([x y] INT REFERENCES "my table" ("the id"), "q""" INT UNIQUE)`,
				`CREATE UNIQUE INDEX "idx ""odd""" ON "it's" ("x y", "q""")`,
			},
			want: []*Table{
				{
					Name:       "my table",
					Columns:    []*Column{col("the id", "INTEGER", false, true), col(`say "hi"`, "TEXT", true, false)},
					PrimaryKey: []string{"the id"},
				},
				{
					Name:        "it's",
					Columns:     []*Column{col("x y", "INT", false, false), col(`q"`, "INT", false, false)},
					ForeignKeys: []ForeignKey{{Columns: []string{"x y"}, RefTable: "my table", RefColumns: []string{"the id"}}},
					Unique:      [][]string{{`q"`}, {"x y", `q"`}},
				},
			},
		},
		{
			name: "declared types kept as written; untyped column; WITHOUT ROWID key not repeated in Unique",
			stmts: []string{
				`CREATE TABLE w (code varchar(20) NOT NULL, born DATE, flag BOOLEAN, anything, PRIMARY KEY (code)) WITHOUT ROWID`,
			},
			want: []*Table{{
				Name: "w",
				Columns: []*Column{
					col("code", "varchar(20)", true, true), col("born", "DATE", false, false),
					col("flag", "BOOLEAN", false, false), col("anything", "", false, false),
				},
				PrimaryKey: []string{"code"},
			}},
		},
		{
			name: "generated columns are listed (SELECT * shows them)",
			stmts: []string{
				`CREATE TABLE g (a INT NOT NULL, b INT GENERATED ALWAYS AS (a * 2) VIRTUAL, c TEXT AS (a || 'x') STORED)`,
			},
			want: []*Table{{
				Name:    "g",
				Columns: []*Column{col("a", "INT", true, false), col("b", "INT", false, false), col("c", "TEXT", false, false)},
			}},
		},
		{
			name: "views and sqlite_ internal tables are skipped",
			stmts: []string{
				`CREATE TABLE a (id INTEGER PRIMARY KEY AUTOINCREMENT, v TEXT)`, // creates sqlite_sequence
				`INSERT INTO a (v) VALUES ('x')`,
				`CREATE VIEW av AS SELECT v FROM a`,
				`ANALYZE`, // creates sqlite_stat1
			},
			want: []*Table{{
				Name:       "a",
				Columns:    []*Column{col("id", "INTEGER", false, true), col("v", "TEXT", false, false)},
				PrimaryKey: []string{"id"},
			}},
		},
		{
			name:  "empty database",
			stmts: nil,
			want:  nil,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := makeDB(t, "db.sqlite", tc.stmts...)
			before := fileSum(t, path)
			got, err := Introspect(context.Background(), path)
			if err != nil {
				t.Fatalf("Introspect: %v", err)
			}
			if got.DBID != "db" {
				t.Errorf("DBID = %q, want %q", got.DBID, "db")
			}
			if diff := cmp.Diff(tc.want, got.Tables); diff != "" {
				t.Errorf("tables (-want +got):\n%s", diff)
			}
			if fileSum(t, path) != before {
				t.Errorf("Introspect modified %s", path)
			}
		})
	}
}

func TestIntrospectPaths(t *testing.T) {
	ctx := context.Background()
	t.Run("odd characters in the path", func(t *testing.T) {
		path := makeDB(t, "a b?c#d%20e.sqlite", `CREATE TABLE t (x INT)`)
		s, err := Introspect(ctx, path)
		if err != nil {
			t.Fatalf("Introspect: %v", err)
		}
		if s.DBID != "a b?c#d%20e" || s.Table("t") == nil {
			t.Errorf("got DBID %q, tables %v", s.DBID, s.TableColumns())
		}
	})
	t.Run("missing file", func(t *testing.T) {
		missing := filepath.Join(t.TempDir(), "nope.sqlite")
		_, err := Introspect(ctx, missing)
		if !errors.Is(err, ErrNoDatabase) {
			t.Errorf("err = %v, want ErrNoDatabase", err)
		}
		if _, statErr := os.Stat(missing); !os.IsNotExist(statErr) {
			t.Errorf("Introspect created %s", missing)
		}
	})
	t.Run("directory", func(t *testing.T) {
		if _, err := Introspect(ctx, t.TempDir()); !errors.Is(err, ErrNoDatabase) {
			t.Errorf("err = %v, want ErrNoDatabase", err)
		}
	})
	t.Run("not a database", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "junk.sqlite")
		if err := os.WriteFile(path, []byte("this is not an SQLite file, not at all, no header here"), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := Introspect(ctx, path); err == nil {
			t.Error("Introspect of a non-database file succeeded")
		}
	})
	t.Run("cancelled context", func(t *testing.T) {
		path := makeDB(t, "c.sqlite", `CREATE TABLE t (x INT)`)
		cctx, cancel := context.WithCancel(ctx)
		cancel()
		if _, err := Introspect(cctx, path); !errors.Is(err, context.Canceled) {
			t.Errorf("err = %v, want context.Canceled", err)
		}
	})
}
