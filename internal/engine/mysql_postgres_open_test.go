package engine

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"
)

func TestOpenServer(t *testing.T) {
	tests := []struct {
		kind, dsn string
		wantErr   error
	}{
		{"postgres", "postgres://u@127.0.0.1:1/x?search_path={db}", nil},
		{"mysql", "u@tcp(127.0.0.1:1)/{db}", nil},
		{"mariadb", "u@tcp(127.0.0.1:1)/{db}", nil},
		{"oracle", "x", ErrUnknownEngine},
		{"postgres", "", ErrNoDSN},
	}
	for _, tc := range tests {
		e, err := OpenServer(tc.kind, tc.dsn, 2)
		if !errors.Is(err, tc.wantErr) {
			t.Errorf("OpenServer(%q): %v, want %v", tc.kind, err, tc.wantErr)
		}
		if err == nil {
			if err := e.Close(); err != nil {
				t.Errorf("Close: %v", err)
			}
		}
	}
}

func TestDSNFromEnv(t *testing.T) {
	t.Setenv("NL2SQLBENCH_TEST_DSN", "")
	if _, err := DSNFromEnv("NL2SQLBENCH_TEST_DSN"); !errors.Is(err, ErrNoDSN) || !strings.Contains(err.Error(), "NL2SQLBENCH_TEST_DSN") {
		t.Errorf("unset variable: %v", err)
	}
	t.Setenv("NL2SQLBENCH_TEST_DSN", "u:secret@tcp(h)/{db}")
	if got, err := DSNFromEnv("NL2SQLBENCH_TEST_DSN"); err != nil || got != "u:secret@tcp(h)/{db}" {
		t.Errorf("got %q, %v", got, err)
	}
}

// TestServerGuardsBeforeConnecting: refusals that need no server come before any
// connection attempt (the DSN points at a closed port), and an unreachable server is an
// error that does not echo the DSN's password.
func TestServerGuardsBeforeConnecting(t *testing.T) {
	for _, e := range []Engine{
		NewPostgres("postgres://u:topsecret@127.0.0.1:1/x?connect_timeout=1", 1),
		NewMySQL("u:topsecret@tcp(127.0.0.1:1)/{db}?timeout=1s", 1),
	} {
		ctx := context.Background()
		for q, want := range map[string]error{
			"DELETE FROM t":            ErrNotReadOnly,
			"  /* c */ DROP TABLE t":   ErrNotReadOnly,
			"-- only a comment\n;":     ErrEmptyQuery,
			"# mysql comment\nSET x=1": ErrNotReadOnly,
		} {
			if _, err := e.Query(ctx, "db", q, Limits{}); !errors.Is(err, want) {
				t.Errorf("%T %q: %v, want %v", e, q, err, want)
			}
		}
		_, err := e.Query(ctx, "db", "SELECT 1", Limits{})
		if err == nil || strings.Contains(err.Error(), "topsecret") {
			t.Errorf("%T unreachable server: %v (want an error without the password)", e, err)
		}
		e.Close()
	}
	if _, err := (Postgres{newServerEngine(pgDialect{}, "", 1)}).Query(context.Background(), "db", "SELECT 1", Limits{}); !errors.Is(err, ErrNoDSN) {
		t.Errorf("empty DSN: %v", err)
	}
}

func TestFirstKeyword(t *testing.T) {
	tests := map[string]string{
		"SELECT 1":                 "select",
		"  with x as (select 1)":   "with",
		"(SELECT 1) UNION ALL":     "(",
		"-- c\n/* d */ Values (1)": "values",
		"# c\nselect":              "select",
		"":                         "",
		"1":                        "",
	}
	for q, want := range tests {
		if got := firstKeyword(q); got != want {
			t.Errorf("firstKeyword(%q) = %q, want %q", q, got, want)
		}
	}
}

func TestParseDecimal(t *testing.T) {
	tests := []struct {
		in   string
		want any
	}{
		{"42", int64(42)},
		{"-7", int64(-7)},
		{"42.000", 42.0},
		{"2.5", 2.5},
		{"-0.000", 0.0},
		{"0.5", 0.5},
		{"9223372036854775808", 9223372036854775808.0},                // 2^63: a float64 exactly
		{"1000000000000000019884624838656", 1e30},                     // 1e30's exact value
		{"99999999999999999999", DecimalText("99999999999999999999")}, // not 1e20
		{"123456789012345678901234567890", DecimalText("123456789012345678901234567890")},
		{"0.1", DecimalText("0.1")}, // Decimal('0.1') != 0.1 in Python
		{"31.2000000000000000", DecimalText("31.2")},
		{"-0012.3400", DecimalText("-12.34")},
		{"60.8695652173913043", DecimalText("60.8695652173913043")},
		{"1.5e-3", DecimalText("0.0015")},
		{"12e3", 12000.0},
		{"1.2345e3", 1234.5},
		{"1.2346e3", DecimalText("1234.6")},
		{"0.30000000000000004440892098500626161694526672363281250", 0.30000000000000004}, // that float, exactly
		{"Infinity", math.Inf(1)},
		{"-Infinity", math.Inf(-1)},
		{"NaN", nil},
	}
	for _, tc := range tests {
		got, err := parseDecimal(tc.in)
		if tc.want == nil {
			if f, ok := got.(float64); !ok || f == f || err != nil {
				t.Errorf("parseDecimal(%q) = %v, %v; want NaN", tc.in, got, err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("parseDecimal(%q) = %#v, %v; want %#v", tc.in, got, err, tc.want)
		}
	}
	for _, bad := range []string{"abc", "1e99999", ""} {
		if got, err := parseDecimal(bad); err == nil {
			t.Errorf("parseDecimal(%q) = %#v: no error", bad, got)
		}
	}
}

func TestRedactDSNError(t *testing.T) {
	tests := []struct{ dsn, msg, want string }{
		{"postgres://u:s3cret@h:5432/d?search_path={db}", "connect u:s3cret@h failed", "connect u:***@h failed"},
		{"host=h user=u password=s3cret dbname=d", "bad password=s3cret", "bad password=***"},
		{"u:s3cret@tcp(127.0.0.1:3306)/{db}", "dial u:s3cret@tcp: refused", "dial u:***@tcp: refused"},
		{"u@tcp(127.0.0.1:3306)/{db}", "dial refused", "dial refused"},
	}
	for _, tt := range tests {
		got := RedactDSNError(errors.New(tt.msg), tt.dsn).Error()
		if got != tt.want {
			t.Errorf("RedactDSNError(%q, %q) = %q, want %q", tt.msg, tt.dsn, got, tt.want)
		}
	}
	if RedactDSNError(nil, "x") != nil {
		t.Error("nil error should stay nil")
	}
}

// TestServerErrorsRedacted: an error a server engine returns never carries the DSN's
// password, and a database error keeps its class.
func TestServerErrorsRedacted(t *testing.T) {
	s := newServerEngine(pgDialect{}, "postgres://u:s3cret@127.0.0.1:1/x?search_path={db}", 1)
	got := s.redact(&DBError{Message: "auth u:s3cret failed", Class: ClassSyntax})
	var dbe *DBError
	if !errors.As(got, &dbe) || dbe.Message != "auth u:*** failed" || dbe.Class != ClassSyntax {
		t.Errorf("redacted DBError = %#v", got)
	}
	if got := s.redact(errors.New("dial s3cret")); got.Error() != "dial ***" {
		t.Errorf("redacted error = %q", got)
	}
	plain := errors.New("no secret here")
	if got := s.redact(plain); got != plain {
		t.Errorf("an error without the password should pass unchanged, got %v", got)
	}
}
