package collect

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset"
	"github.com/nl2sqlbench/nl2sqlbench/internal/dbschema"
	"github.com/nl2sqlbench/nl2sqlbench/internal/predict"
)

const hash = "0000000000000000000000000000000000000000000000000000000000000000"

func writeTrace(tb testing.TB, dir, name, text string) {
	tb.Helper()
	b, err := json.Marshal(text)
	if err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
		tb.Fatal(err)
	}
}

func shopSchema() *dbschema.Schema {
	return &dbschema.Schema{DBID: "my_shop", Tables: []*dbschema.Table{
		{Name: "Customers", Columns: []*dbschema.Column{{Name: "id"}, {Name: "Name"}, {Name: "city"}}},
		{Name: "orders", Columns: []*dbschema.Column{{Name: "id"}, {Name: "customer_id"}, {Name: "total"}}},
	}}
}

func schemaFn(ctx context.Context, dbID string) (*dbschema.Schema, error) {
	if dbID != "my_shop" {
		return nil, errors.New("no schema")
	}
	return shopSchema(), nil
}

func TestTASQL(t *testing.T) {
	dir := t.TempDir()
	ds := &dataset.Dataset{Path: "q.json", Questions: []dataset.Question{
		{Index: 0, ID: "7", DBID: "my_shop", Text: "Names of customers in Porto?"},
		{Index: 1, ID: "8", DBID: "my_shop", Text: "Total of order 3?"},
		{Index: 2, ID: "7", DBID: "my_shop", Text: "Names of customers in Porto?"}, // repeated verbatim
	}}
	// q7: parsable dummy SQL in prose; q8: unparsable dummy SQL (lexical fallback) and a
	// generated SQL that starts mid-statement.
	writeTrace(t, dir, "0_my_shop_7_dummy_sql_"+hash+".json", "Here:\n```sql\nSELECT c.Name FROM Customers AS c WHERE c.city = 'Porto';\n```\nDone.")
	writeTrace(t, dir, "0_my_shop_7_sr_"+hash+".json", "```python\ndf.select(name)\n```")
	writeTrace(t, dir, "0_my_shop_7_tmp_sql_"+hash+".json", "```sql\nSELECT Name FROM Customers WHERE city = 'Porto';\n```")
	writeTrace(t, dir, "1_my_shop_8_dummy_sql_"+hash+".json", "```sql\nSELECT total FROM orders WHERE (id = 3\n```")
	writeTrace(t, dir, "1_my_shop_8_tmp_sql_"+hash+".json", "```sql\ntotal FROM orders WHERE id = 3\n```")
	writeTrace(t, dir, "2_my_shop_7_dummy_sql_"+hash+".json", "```sql\nSELECT 1\n```")
	writeTrace(t, dir, "2_my_shop_7_tmp_sql_"+hash+".json", "```sql\nSELECT 1\n```")

	nodes, st, err := TASQL(context.Background(), dir, ds, schemaFn)
	if err != nil {
		t.Fatal(err)
	}
	node := func(nt, qid string, q int, schema map[string][]string, sql string, calls int, src, file string) predict.ModuleRecord {
		r := predict.ModuleRecord{
			ModuleOutput: predict.ModuleOutput{NodeType: nt, QuestionID: predict.QuestionID(qid), DBID: "my_shop", Question: ds.Questions[q].Text,
				ExtractedSchema: schema, LLMCalls: predict.CountOf(calls)},
			ModuleDetails: predict.ModuleDetails{SchemaSource: src, Source: file},
		}
		if sql != "" {
			r.SQL = predict.OneSQL(sql)
		}
		return r
	}
	want := []predict.ModuleRecord{
		node(predict.NodeSchemaSelection, "7", 0, map[string][]string{"Customers": {"Name", "city"}}, "", 1, "dummy_sql", "0_my_shop_7_dummy_sql_"+hash+".json"),
		node(predict.NodeCandidateGeneration, "7", 0, nil, "SELECT Name FROM Customers WHERE city = 'Porto'", 2, "", "0_my_shop_7_tmp_sql_"+hash+".json"),
		node(predict.NodeSchemaSelection, "8", 1, map[string][]string{"orders": {"id", "total"}}, "", 1, "dummy_sql_lexical", "1_my_shop_8_dummy_sql_"+hash+".json"),
		node(predict.NodeCandidateGeneration, "8", 1, nil, "SELECT total FROM orders WHERE id = 3", 2, "", "1_my_shop_8_tmp_sql_"+hash+".json"),
	}
	if d := cmp.Diff(want, nodes); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	if (st != TASQLStats{Questions: 2, Files: 7, SchemaParsed: 1, SchemaLexical: 1, PrefixedSelect: 1}) {
		t.Errorf("stats %+v", st)
	}
	// Token counts are unknown: never written as zero.
	b, err := encodeRecords(nodes)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), "token_cost") || strings.Count(string(b), "\n") != 4 {
		t.Errorf("JSONL:\n%s", b)
	}
}

func TestTASQLErrors(t *testing.T) {
	ds := &dataset.Dataset{Path: "q.json", Questions: []dataset.Question{{Index: 0, ID: "7", DBID: "my_shop"}}}
	tests := []struct {
		name  string
		files map[string]string
		want  error
		msg   string
	}{
		{"missing tmp_sql", map[string]string{"0_my_shop_7_dummy_sql_" + hash + ".json": "SELECT 1"}, ErrMissing, "question 0"},
		{"bad name", map[string]string{"notes.json": "x"}, ErrBadTrace, "notes.json"},
		{"wrong question", map[string]string{"0_my_shop_9_tmp_sql_" + hash + ".json": "SELECT 1"}, ErrBadTrace, "not 9"},
		{"beyond the dataset", map[string]string{"5_my_shop_7_tmp_sql_" + hash + ".json": "SELECT 1"}, ErrBadTrace, "position 5"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			for n, text := range tt.files {
				writeTrace(t, dir, n, text)
			}
			_, _, err := TASQL(context.Background(), dir, ds, schemaFn)
			if !errors.Is(err, tt.want) || !strings.Contains(err.Error(), tt.msg) {
				t.Errorf("err = %v, want %v naming %q", err, tt.want, tt.msg)
			}
		})
	}
	// A trace file that is not a JSON string.
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "0_my_shop_7_dummy_sql_"+hash+".json"), []byte("{"), 0o644)
	writeTrace(t, dir, "0_my_shop_7_tmp_sql_"+hash+".json", "SELECT 1")
	if _, _, err := TASQL(context.Background(), dir, ds, schemaFn); !errors.Is(err, ErrBadTrace) {
		t.Errorf("non-string trace: %v", err)
	}
}

func TestExtractSQL(t *testing.T) {
	tests := []struct {
		in, want string
		prefixed bool
	}{
		{"```sql\nSELECT 1;\n```", "SELECT 1", false},
		{"prose\n```sqlite\nWITH x AS (SELECT 1) SELECT * FROM x\n```\nmore ```sql\nSELECT 2\n```", "WITH x AS (SELECT 1) SELECT * FROM x", false},
		{"  select a from t ;", "select a from t", false},
		{"```sql\nCOUNT(*) FROM t\n```", "SELECT COUNT(*) FROM t", true},
		{"", "", false},
	}
	for _, tt := range tests {
		got, p := ExtractSQL(tt.in)
		if got != tt.want || p != tt.prefixed {
			t.Errorf("ExtractSQL(%q) = %q, %v; want %q, %v", tt.in, got, p, tt.want, tt.prefixed)
		}
	}
}
