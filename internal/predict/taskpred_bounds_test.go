package predict

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTaskPredBounds: a task prediction line with one statement over MaxSQLBytes, or a
// turn of more than MaxTaskStatements statements, is refused naming the file, the line
// and (for the count) the key. Before, a 200 MB statement was judged (2 GB of memory,
// 106 s) and a million "SELECT 1" ran one round trip each for hours.
func TestTaskPredBounds(t *testing.T) {
	many := `"SELECT 1"` + strings.Repeat(`, "SELECT 1"`, MaxTaskStatements)
	cases := []struct {
		name string
		line string
		err  error
		want string
	}{
		{"statement over the cap", `{"instance_id": "a", "pred_sqls": ["SELECT '` + strings.Repeat("x", MaxSQLBytes) + `'"]}`, ErrTooLong, "p.jsonl:2"},
		{"too many statements", `{"instance_id": "a", "pred_sqls": [` + many + `]}`, ErrTaskPred, `p.jsonl:2: key "pred_sqls"`},
		{"too many follow-up statements", `{"instance_id": "a", "pred_sqls": "SELECT 1", "follow_up_pred_sqls": [` + many + `]}`, ErrTaskPred, `key "follow_up_pred_sqls"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "p.jsonl")
			if err := os.WriteFile(p, []byte(`{"instance_id": "b", "pred_sqls": ["SELECT 1"]}`+"\n"+tc.line+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := ReadTaskPreds(p)
			if !errors.Is(err, tc.err) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err %v, want %v naming %s", err, tc.err, tc.want)
			}
		})
	}
	// At the caps, accepted.
	p := filepath.Join(t.TempDir(), "p.jsonl")
	at := `{"instance_id": "a", "pred_sqls": ["SELECT 1"` + strings.Repeat(`, "SELECT 1"`, MaxTaskStatements-1) + `]}`
	if err := os.WriteFile(p, []byte(at+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if m, err := ReadTaskPreds(p); err != nil || len(m["a"].SQL) != MaxTaskStatements {
		t.Errorf("%d statements: %v (%d read)", MaxTaskStatements, err, len(m["a"].SQL))
	}
}

// TestTaskPredMalformed: each malformed line of a task prediction file is an error
// naming the file, the line and the key, never a crash.
func TestTaskPredMalformed(t *testing.T) {
	good := `{"instance_id": "b", "pred_sqls": ["SELECT 1"]}` + "\n"
	cases := []struct{ name, line, want string }{
		{"pred_sqls a number", `{"instance_id": "a", "pred_sqls": 5}`, `p.jsonl:2: key "pred_sqls"`},
		{"follow-up an object", `{"instance_id": "a", "pred_sqls": "x", "follow_up_pred_sqls": {"a": 1}}`, `p.jsonl:2: key "follow_up_pred_sqls"`},
		{"a null statement", `{"instance_id": "a", "pred_sqls": ["x", null]}`, `p.jsonl:2: key "pred_sqls"`},
		{"instance_id twice", `{"instance_id": "b", "pred_sqls": "x"}`, `p.jsonl:2: key "instance_id"`},
		{"instance_id an object", `{"instance_id": {}, "pred_sqls": "x"}`, `p.jsonl:2: key "instance_id"`},
		{"no pred_sqls", `{"instance_id": "a"}`, `p.jsonl:2: key "pred_sqls"`},
		{"an array line", `[{"instance_id": "a", "pred_sqls": "x"}]`, `p.jsonl:2`},
		{"deep nesting", `{"instance_id": "a", "pred_sqls": ` + strings.Repeat("[", 100000) + strings.Repeat("]", 100000) + `}`, `p.jsonl:2`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "p.jsonl")
			if err := os.WriteFile(p, []byte(good+tc.line+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := ReadTaskPreds(p)
			if !errors.Is(err, ErrTaskPred) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err %v, want %v naming %s", err, ErrTaskPred, tc.want)
			}
		})
	}
}
