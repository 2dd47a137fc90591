package benchrun

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
	"github.com/nl2sqlbench/nl2sqlbench/internal/taskdb"
)

// TestEvalBenchOfficialQuirks judges predictions of a tiny EvalBench dataset
// (testdata/evalbench_quirks, SQLite) in both modes: each case shows one of EvalBench's
// rules (named in tasks_evalbench_official.go) by a verdict that the corrected mode
// (bags of rows, every statement) gives otherwise.
func TestEvalBenchOfficialQuirks(t *testing.T) {
	t.Parallel()
	cases := []struct {
		quirk, task, pred   string
		official, corrected record.Verdict
	}{
		{"gold", "q1", "SELECT id, name FROM t ORDER BY id", record.Correct, record.Correct},
		{"ordered_records: row order", "q1", "SELECT id, name FROM t ORDER BY id DESC", record.Incorrect, record.Correct},
		{"ordered_records: column order", "q1", "SELECT name, id FROM t ORDER BY id", record.Correct, record.Incorrect},
		{"ordered_records: column names", "q1", "SELECT id AS ident, name FROM t ORDER BY id", record.Incorrect, record.Correct},
		{"ordered_records: a duplicated name keeps the last", "q1", "SELECT id, name, id FROM t ORDER BY id", record.Correct, record.Incorrect},
		{"ordered_records: 1.0 == 1", "q1", "SELECT id * 1.0 AS id, name FROM t ORDER BY id", record.Correct, record.Correct},
		{"ordered_records: '1' != 1", "q1", "SELECT CAST(id AS TEXT) AS id, name FROM t ORDER BY id", record.Incorrect, record.Correct},
		{"dql_first_statement", "q1", "SELECT id, name FROM t ORDER BY id; SELECT 1", record.Correct, record.Incorrect},
		{"dql_first_statement: the first decides", "q1", "SELECT 1; SELECT id, name FROM t ORDER BY id", record.Incorrect, record.Correct},
		{"sanitize_sql: fences removed", "q1", "```sql\nSELECT id, name FROM t ORDER BY id\n```", record.Correct, record.Error},
		{"sanitize_sql: two spaces removed", "q1", "SELECT  id, name FROM t ORDER BY id", record.Error, record.Correct},
		{"sanitize_sql: nothing left", "q1", "```", record.Incorrect, record.Error},
		{"golden_first", "q2", "SELECT 1 AS x", record.Correct, record.Incorrect},
		{"eval_fallback: the statements' rows compared", "m1", "UPDATE t SET name = 'z' WHERE id = 1 RETURNING id", record.Incorrect, record.Correct},
		{"eval_fallback: anything that runs passes", "m1", "DELETE FROM t", record.Correct, record.Correct},
		{"dml gold", "m2", "UPDATE t SET name = 'z' WHERE id = 1", record.Correct, record.Correct},
		{"dml wrong", "m2", "UPDATE t SET name = 'y' WHERE id = 1", record.Incorrect, record.Incorrect},
		{"statements_each", "m2", "UPDATE t SET name = 'y' WHERE id = 1; UPDATE t SET name = 'z' WHERE id = 1", record.Correct, record.Correct},
		{"error_scores_zero", "m2", "UPDATE nowhere SET name = 'z'", record.Error, record.Error},
		{"ddl_metadata: INT is SQLAlchemy's INTEGER", "d1", "ALTER TABLE t ADD COLUMN c INT", record.Correct, record.Incorrect},
		{"ddl_metadata: another type", "d1", "ALTER TABLE t ADD COLUMN c TEXT", record.Incorrect, record.Incorrect},
	}
	dir, err := filepath.Abs("testdata/evalbench_quirks")
	if err != nil {
		t.Fatal(err)
	}
	var preds []string
	for i, c := range cases {
		f := filepath.Join(t.TempDir(), fmt.Sprintf("p%d.jsonl", i))
		writeLines(t, f, []map[string]any{{"instance_id": c.task, "pred_sqls": c.pred}})
		preds = append(preds, fmt.Sprintf("s%d=%s", i, f))
	}
	for _, mode := range []string{LiveSQLOfficial, LiveSQLCorrected} {
		t.Run(mode, func(t *testing.T) {
			t.Parallel()
			cfg := Config{DatasetSpec: "evalbench:" + dir, Engine: "sqlite", Timeout: 10 * time.Second, MaxRows: 1000,
				Workers: 2, TaskDBDir: t.TempDir(), Preds: preds, AllowMissing: true, LiveSQLMode: mode}
			ctx := context.Background()
			p, err := Prepare(ctx, cfg, &notes{})
			if err != nil {
				t.Fatal(err)
			}
			res, err := Eval(ctx, p, nil, newMemSink(len(preds)), &notes{})
			if err != nil {
				t.Fatal(err)
			}
			for i, c := range cases {
				want := c.official
				if mode == LiveSQLCorrected {
					want = c.corrected
				}
				found := false
				for _, r := range res.Systems[i].Records {
					if r.QuestionID != c.task {
						continue
					}
					found = true
					if r.Verdict != want {
						t.Errorf("%s: task %s, %q: %s (%s), want %s", c.quirk, c.task, c.pred, r.Verdict, r.ErrorMessage, want)
					}
				}
				if !found {
					t.Errorf("%s: task %s not judged", c.quirk, c.task)
				}
			}
		})
	}
}

// TestPyCell: values compare as Python's == compares what the drivers return.
func TestPyCell(t *testing.T) {
	col := func(oid uint32, typ string) taskdb.Column { return taskdb.Column{OID: oid, Type: typ} }
	cases := []struct {
		name  string
		a, b  pyCell
		equal bool
	}{
		{"int == float", pyCellOf("sqlite", taskdb.Column{}, int64(2)), pyCellOf("sqlite", taskdb.Column{}, 2.0), true},
		{"0.1 float != 0.1 Decimal", pyCellOf("postgres", col(701, "float8"), "0.1"), pyCellOf("postgres", col(1700, "numeric"), "0.1"), false},
		{"Decimal 2.50 == 2.5", pyCellOf("postgres", col(1700, "numeric"), "2.50"), pyCellOf("postgres", col(1700, "numeric"), "2.5"), true},
		{"True == 1", pyCellOf("postgres", col(16, "bool"), "t"), pyCellOf("postgres", col(23, "int4"), "1"), true},
		{"'1' != 1", pyCellOf("postgres", col(25, "text"), "1"), pyCellOf("postgres", col(23, "int4"), "1"), false},
		{"json key order", pyCellOf("postgres", col(114, "json"), `{"a": 1, "b": [1.0, true]}`), pyCellOf("postgres", col(3802, "jsonb"), `{"b": [1, 1], "a": 1}`), true},
		{"json text != str", pyCellOf("postgres", col(114, "json"), `"x"`), pyCellOf("postgres", col(25, "text"), `"x"`), false},
		{"NaN != NaN", pyCellOf("postgres", col(701, "float8"), "NaN"), pyCellOf("postgres", col(701, "float8"), "NaN"), false},
		{"None == None", pyCellOf("postgres", col(25, "text"), nil), pyCellOf("postgres", col(23, "int4"), nil), true},
		{"naive != aware", pyCellOf("postgres", col(1114, "timestamp"), "2024-01-01 00:00:00"), pyCellOf("postgres", col(1184, "timestamptz"), "2024-01-01 00:00:00"), false},
		{"date != datetime", pyCellOf("postgres", col(1082, "date"), "2024-01-01"), pyCellOf("postgres", col(1114, "timestamp"), "2024-01-01"), false},
		{"mysql DATETIME(6) == DATETIME", pyCellOf("mysql", taskdb.Column{Type: "datetime"}, "2024-01-01 10:00:00.000000"), pyCellOf("mysql", taskdb.Column{Type: "datetime"}, "2024-01-01 10:00:00"), true},
		{"mysql DECIMAL == BIGINT", pyCellOf("mysql", taskdb.Column{Type: "decimal"}, "3.00"), pyCellOf("mysql", taskdb.Column{Type: "bigint"}, "3"), true},
		{"str != bytes", pyCellOf("sqlite", taskdb.Column{}, "ab"), pyCellOf("sqlite", taskdb.Column{}, []byte("ab")), false},
	}
	for _, c := range cases {
		if got := c.a.equal(c.b); got != c.equal {
			t.Errorf("%s: equal %v, want %v (%+v %+v)", c.name, got, c.equal, c.a, c.b)
		}
	}
}

// TestSQLiteReflectedType: the type names SQLAlchemy 1.4.46 reflected from SQLite for
// these declared types (measured: MetaData.reflect, str(column.type)).
func TestSQLiteReflectedType(t *testing.T) {
	for decl, want := range map[string]string{
		"INT": "INTEGER", "INTEGER": "INTEGER", "int": "INTEGER", "BIGINT": "BIGINT", "TINYINT": "INTEGER",
		"SMALLINT": "SMALLINT", "MEDIUMINT": "INTEGER", "INT8": "INTEGER", "UNSIGNED BIG INT": "INTEGER",
		"VARCHAR(255)": "VARCHAR(255)", "varchar(10)": "VARCHAR(10)", "NVARCHAR(5)": "NVARCHAR(5)", "CHAR(3)": "CHAR(3)",
		"CHARACTER(20)": "TEXT(20)", "VARYING CHARACTER(255)": "TEXT(255)", "NCHAR(55)": "NCHAR(55)",
		"NATIVE CHARACTER(70)": "TEXT(70)", "TEXT": "TEXT", "CLOB": "TEXT", "JSON": "JSON", "BLOB": "BLOB", "": "NULL",
		"REAL": "REAL", "DOUBLE": "FLOAT", "DOUBLE PRECISION": "REAL", "FLOAT": "FLOAT", "NUMERIC": "NUMERIC",
		"DECIMAL(10,5)": "DECIMAL(10, 5)", "DECIMAL": "DECIMAL", "BOOLEAN": "BOOLEAN", "BOOL": "BOOLEAN", "DATE": "DATE",
		"DATETIME": "DATETIME", "TIMESTAMP": "TIMESTAMP", "TIME": "TIME", "STRING": "NUMERIC", "ENUM": "NUMERIC",
		"XYZ": "NUMERIC", "FOO INT": "INTEGER", "NUMERIC(10, 2)": "NUMERIC(10, 2)", "VARCHAR": "VARCHAR",
		"TEXT(5)": "TEXT(5)", "nchar": "NCHAR", "JSONB": "NUMERIC", "UUID": "NUMERIC", "BIT": "NUMERIC",
		"SERIAL": "NUMERIC", "NUMERIC(10)": "NUMERIC(10)", "FLOAT(5)": "FLOAT", "DATETIME(6)": "DATETIME",
	} {
		if got := sqliteReflectedType(decl); got != want {
			t.Errorf("%q: %q, want %q", decl, got, want)
		}
	}
}

// TestSanitizeEvalBench: util/sanitizer.py's sanitize_sql, replacement by replacement.
func TestSanitizeEvalBench(t *testing.T) {
	for in, want := range map[string]string{
		"```sql\nSELECT 1\n```":    "SELECT 1",
		"SELECT  a":                "SELECTa",
		"SELECT   a":               "SELECT a",
		"SELECT `a` FROM t":        "SELECT a FROM t",
		`SELECT 'a\nb'`:            "SELECT 'a b'",
		`SELECT 'it\'s'`:           "SELECT 'it's'",
		`sql: "SELECT 1`:           "SELECT 1",
		"SELECT google_sql FROM t": "SELECT  FROM t",
		"  SELECT 1 \n":            "SELECT 1",
		"SELECT 1;\n    SELECT 2":  "SELECT 1;\nSELECT 2",
	} {
		if got := sanitizeEvalBench(in); got != want {
			t.Errorf("%q: %q, want %q", in, got, want)
		}
	}
}
