package taskcode

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nl2sqlbench/nl2sqlbench/internal/taskdb"
)

// found is Find's answer, once per test binary (resolving a pyenv shim takes a second).
var found = sync.OnceValues(func() (*Python, error) { return Find(context.Background()) })

// findPython is the sandbox for a test, or a skip that says why.
func findPython(t testing.TB) *Python {
	t.Helper()
	p, err := found()
	if errors.Is(err, ErrNoPython) {
		t.Skipf("no python3 on PATH, the sandbox cannot be tested: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	c := *p
	c.Limits.Wall = 20 * time.Second
	return &c
}

// fakeDB answers each statement with exec and records what ran.
type fakeDB struct {
	mu   sync.Mutex
	ran  []string
	exec func(sql string) (*taskdb.Result, error)
}

func (f *fakeDB) Exec(_ context.Context, sql string, _ taskdb.ExecLimits) (*taskdb.Result, error) {
	f.mu.Lock()
	f.ran = append(f.ran, sql)
	f.mu.Unlock()
	if f.exec == nil {
		return &taskdb.Result{Tag: "UPDATE 0"}, nil
	}
	return f.exec(sql)
}

// rows is a PostgreSQL result of text cells; types name each column's type.
func rows(types []string, cells ...[]any) *taskdb.Result {
	r := &taskdb.Result{HasRows: true, Rows: cells, TotalRows: len(cells)}
	for i, t := range types {
		r.Columns = append(r.Columns, taskdb.Column{Name: "c" + string(rune('0'+i)), Type: t, OID: 23})
	}
	return r
}

func run(t *testing.T, p *Python, db DB, code string) Outcome {
	t.Helper()
	o, err := p.Run(context.Background(), db, Case{Code: code, PredSQLs: []string{"SELECT 1"}, SolSQLs: []string{"SELECT 1"}, DBName: "db_blog"})
	if err != nil {
		t.Fatalf("Run: %v (stderr %q)", err, o.Stderr)
	}
	return o
}

func TestOutcomes(t *testing.T) {
	p := findPython(t)
	t.Logf("python %s at %s, isolation %s", p.Version, p.Path, p.Isolation)
	db := &fakeDB{exec: func(sql string) (*taskdb.Result, error) {
		switch sql {
		case "SELECT 1":
			return rows([]string{"int4"}, []any{"1"}), nil
		case "SELECT bad":
			return nil, &taskdb.SQLError{Code: "42703", Message: `column "bad" does not exist`}
		}
		return &taskdb.Result{Tag: "UPDATE 2"}, nil
	}}
	cases := []struct {
		name, code string
		want       Outcome
	}{
		{"pass", `
def test_case(pred_sqls, sol_sqls, db_name, conn):
    res, err, to = execute_queries(pred_sqls, db_name, conn)
    assert not err and not to
    assert res == [(1,)], res
`, Outcome{Status: Passed}},
		{"assertion keeps its message", `
def test_case(pred_sqls, sol_sqls, db_name, conn):
    res, _, _ = execute_queries("SELECT 1", db_name, conn)
    assert res[0][0] == 2, f"expected 2, got {res[0][0]}"
`, Outcome{Status: Assertion, Class: "AssertionError", Message: "expected 2, got 1"}},
		{"exception", `
def test_case(pred_sqls, sol_sqls, db_name, conn):
    raise ValueError("boom")
`, Outcome{Status: TestError, Class: "ValueError", Message: "boom"}},
		{"does not compile", "def test_case(pred_sqls, sol_sqls, db_name, conn):\n\nimport json\n",
			Outcome{Status: TestError, Class: "IndentationError", Compile: true}},
		{"SQL error is an execution error flag", `
def test_case(pred_sqls, sol_sqls, db_name, conn):
    res, err, to = execute_queries(["SELECT 1", "SELECT bad", "SELECT 1"], db_name, conn)
    assert err and not to and res == [(1,)], (res, err, to)
`, Outcome{Status: Passed}},
		{"cursor raises the SQL error", `
def test_case(pred_sqls, sol_sqls, db_name, conn):
    cur = conn.cursor()
    cur.execute("SELECT bad")
`, Outcome{Status: TestError, Class: "DatabaseError", Message: `column "bad" does not exist`}},
		{"cursor rowcount and fetch", `
def test_case(pred_sqls, sol_sqls, db_name, conn):
    with conn.cursor() as cur:
        cur.execute("UPDATE t SET a = 1")
        assert cur.rowcount == 2, cur.rowcount
        cur.execute("SELECT 1")
        assert cur.fetchone() == (1,) and cur.fetchone() is None
    conn.commit()
`, Outcome{Status: Passed}},
		// The official run_test_case execs with separate globals and locals: the `date`
		// it imports first is not visible inside test_case.
		{"official scoping", `
def test_case(pred_sqls, sol_sqls, db_name, conn):
    return date(2024, 1, 1)
`, Outcome{Status: TestError, Class: "NameError", Message: "name 'date' is not defined"}},
		{"printing does not break the channel", `
import sys
def test_case(pred_sqls, sol_sqls, db_name, conn):
    print("hello")
    execute_queries("SELECT 1", db_name, conn)
`, Outcome{Status: Passed, Output: "hello\n"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			o := run(t, p, db, tc.code)
			got := Outcome{Status: o.Status, Class: o.Class, Message: o.Message, Compile: o.Compile, Output: o.Output}
			if tc.want.Compile {
				got.Message = "" // the compiler's wording
			}
			if got != tc.want {
				t.Errorf("got %+v\nwant %+v\ntraceback %s\nstderr %s", got, tc.want, o.Traceback, o.Stderr)
			}
		})
	}
}

// TestParams: cursor.execute with parameters is psycopg2's client-side quoting.
func TestParams(t *testing.T) {
	p := findPython(t)
	db := &fakeDB{exec: func(string) (*taskdb.Result, error) { return rows([]string{"int4"}), nil }}
	o := run(t, p, db, `
def test_case(pred_sqls, sol_sqls, db_name, conn):
    import datetime
    cur = conn.cursor()
    cur.execute("SELECT %s, %s, %s, %s, %s, %s", (1, -2, "it's", None, True, datetime.date(2024, 1, 2)))
    cur.execute("SELECT %(a)s IN %(b)s, 100%%", {"a": 1.5, "b": (1, 2)})
    cur.execute("SELECT 100%")
`)
	want := []string{
		"SELECT 1,  -2, 'it''s', NULL, true, '2024-01-02'::date",
		"SELECT 1.5 IN (1, 2), 100%",
		"SELECT 100%",
	}
	if o.Status != Passed || strings.Join(db.ran, "\n") != strings.Join(want, "\n") {
		t.Errorf("status %s %s %s\nran  %q\nwant %q", o.Status, o.Class, o.Message, db.ran, want)
	}
}

// TestValues: PostgreSQL's text becomes the values psycopg2 gives a test.
func TestValues(t *testing.T) {
	p := findPython(t)
	db := &fakeDB{exec: func(string) (*taskdb.Result, error) {
		return rows([]string{"int8", "numeric", "float8", "bool", "date", "timestamp", "timestamptz", "interval", "jsonb", "_int4", "text", "bytea"},
			[]any{"7", "1.50", "0.25", "t", "2024-01-02", "2024-01-02 03:04:05.5", "2024-01-02 03:04:05+02", "1 day 02:00:00", `{"a": [1, 2.5]}`, "{1,NULL,3}", "x", `\x6869`},
			[]any{nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil, nil}), nil
	}}
	o := run(t, p, db, `
def test_case(pred_sqls, sol_sqls, db_name, conn):
    import datetime
    from decimal import Decimal
    res, err, _ = execute_queries("SELECT", db_name, conn)
    assert not err
    r = res[0]
    tz = datetime.timezone(datetime.timedelta(hours=2))
    want = (7, Decimal("1.50"), 0.25, True, datetime.date(2024, 1, 2),
            datetime.datetime(2024, 1, 2, 3, 4, 5, 500000), datetime.datetime(2024, 1, 2, 3, 4, 5, tzinfo=tz),
            datetime.timedelta(days=1, hours=2), {"a": [1, 2.5]}, [1, None, 3], "x")
    assert r[:11] == want, r
    assert bytes(r[11]) == b"hi" and isinstance(r[11], memoryview)
    assert str(r[1]) == "1.50"
    assert res[1] == (None,) * 12
`)
	if o.Status != Passed {
		t.Errorf("%s %s: %s\n%s", o.Status, o.Class, o.Message, o.Traceback)
	}
}

// TestExBase: the sandbox's ex_base asks the parent, which runs both lists and compares
// them with package livesql's ex_base.
func TestExBase(t *testing.T) {
	p := findPython(t)
	db := &fakeDB{exec: func(sql string) (*taskdb.Result, error) {
		switch sql {
		case "SELECT a":
			return rows([]string{"numeric"}, []any{"1.004"}, []any{"2"}), nil
		case "SELECT b":
			return rows([]string{"numeric"}, []any{"2.00"}, []any{"1.00"}), nil
		case "SELECT c":
			return rows([]string{"numeric"}, []any{"3"}), nil
		case "SELECT none":
			return rows([]string{"numeric"}), nil
		case "SELECT bad":
			return nil, &taskdb.SQLError{Message: "bad"}
		}
		return &taskdb.Result{Tag: "UPDATE 1"}, nil
	}}
	o := run(t, p, db, `
def test_case(pred_sqls, sol_sqls, db_name, conn):
    assert ex_base(["SELECT a"], ["SELECT b"], db_name, conn) == 1
    assert ex_base("SELECT a", "SELECT b", db_name, conn, {"order": True}) == 0
    assert ex_base(["SELECT a"], ["SELECT c"], db_name, conn) == 0
    assert ex_base(["SELECT none"], ["SELECT none"], db_name, conn) == 0   # empty fails, as the official
    assert ex_base(["SELECT bad"], ["SELECT b"], db_name, conn) == 0
    assert ex_base([], ["SELECT b"], db_name, conn) == 0
    try:
        ex_base(["UPDATE t SET a = 1"], ["SELECT b"], db_name, conn)
        assert False, "no TypeError"
    except TypeError as e:
        assert "NoneType" in str(e)
    assert remove_distinct(["SELECT DISTINCT a"]) == ["SELECT a"]
    assert remove_round(["SELECT ROUND(a, 2) FROM t"]) == ["SELECT a FROM t"]
    assert remove_comments(["SELECT 1 -- x\n"]) == ["SELECT 1"]
    assert check_sql_function_usage(["SELECT COALESCE(a)"], ["coalesce"]) == 1
    assert check_sql_function_usage(["SELECT a"], ["coalesce"]) == 0
`)
	if o.Status != Passed {
		t.Errorf("%s %s: %s\n%s\n%s", o.Status, o.Class, o.Message, o.Traceback, o.Stderr)
	}
	want := []string{"SELECT a", "SELECT b", "SELECT a", "SELECT b", "SELECT a", "SELECT c", "SELECT none", "SELECT none", "SELECT bad", "SELECT b", "UPDATE t SET a = 1", "SELECT b"}
	if strings.Join(db.ran, "|") != strings.Join(want, "|") {
		t.Errorf("ran %q\nwant %q", db.ran, want)
	}
}

// TestInfraFault: a lost connection is the caller's error, never a verdict.
func TestInfraFault(t *testing.T) {
	p := findPython(t)
	db := &fakeDB{exec: func(string) (*taskdb.Result, error) { return nil, taskdb.ErrConnection }}
	_, err := p.Run(context.Background(), db, Case{Code: `
def test_case(pred_sqls, sol_sqls, db_name, conn):
    execute_queries("SELECT 1", db_name, conn)
`})
	if !errors.Is(err, taskdb.ErrConnection) {
		t.Errorf("err = %v, want ErrConnection", err)
	}
}

// TestStrptime: datetime.strptime imports _strptime on its first call, after the file
// system is hidden; the bootstrap imports it first (db_blog_M_149's test case calls it,
// and was a ModuleNotFoundError before).
func TestStrptime(t *testing.T) {
	p := findPython(t)
	o := run(t, p, &fakeDB{}, "def test_case(pred_sqls, sol_sqls, db_name, conn):\n    from datetime import datetime\n    assert datetime.strptime('2024-01-02', '%Y-%m-%d').day == 2\n")
	if o.Status != Passed {
		t.Errorf("strptime: %s %s %s", o.Status, o.Class, o.Message)
	}
}
