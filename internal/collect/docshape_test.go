package collect

import (
	"context"
	"database/sql"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	_ "github.com/mattn/go-sqlite3"

	"github.com/nl2sqlbench/nl2sqlbench/internal/export"
	"github.com/nl2sqlbench/nl2sqlbench/internal/predict"
)

var update = flag.Bool("update", false, "rewrite golden files under testdata/")

// exportedDocs exports a small SQLite database with export-docs' writer into
// root/shop/ and adds a hand-written collection with what SQLite exports never have:
// nested objects, fields some documents lack, and mixed types.
func exportedDocs(tb testing.TB) string {
	tb.Helper()
	tmp := tb.TempDir()
	dbPath := filepath.Join(tmp, "shop.sqlite")
	db, err := sql.Open("sqlite3", dbPath)
	if err != nil {
		tb.Fatal(err)
	}
	for _, s := range []string{
		"CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT, price REAL, `Stock Count` INTEGER)",
		"INSERT INTO item VALUES (1, 'pen', 1.5, 10), (2, 'ink', NULL, 0), (3, 'a very long product name that goes on and on', 2, NULL)",
	} {
		if _, err := db.Exec(s); err != nil {
			tb.Fatal(err)
		}
	}
	db.Close()
	root := filepath.Join(tmp, "docs")
	writeDocs(tb, dbPath, filepath.Join(root, "shop"))
	hand := `{"_key":"c1","id":1,"name":"Ana","address":{"city":"Porto","geo":{"lat":41.1}},"tags":["a"]}
{"_key":"c2","id":"2","name":"Rui","address":{"city":"Braga"},"vip":true}
{"_key":"c3","id":3,"name":null}
`
	if err := os.WriteFile(filepath.Join(root, "shop", "customer.jsonl"), []byte(hand), 0o644); err != nil {
		tb.Fatal(err)
	}
	return root
}

func TestDocShapesRender(t *testing.T) {
	root := exportedDocs(t)
	shapes, err := readDocShapes(filepath.Join(root, "shop"), 100, 2)
	if err != nil {
		t.Fatal(err)
	}
	got := shapes.render(nil)
	golden := filepath.Join("testdata", "docshapes.golden")
	if *update {
		if err := os.WriteFile(golden, []byte(got+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), got+"\n"); diff != "" {
		t.Errorf("shapes (-golden +got):\n%s", diff)
	}
	// The properties the golden file shows, asserted directly too.
	for _, line := range []string{
		"collection customer (3 documents sampled)",
		"  id: number|string  -- examples: 1, \"2\"",
		"  address: object, optional (nested object: its fields follow)",
		"    address.city: string, optional",
		"      address.geo.lat: number, optional",
		"  vip: boolean, optional",
		"  `Stock Count`: number|null",
		"  price: number|null  -- examples: 1.5, 2",
	} {
		if !strings.Contains(got, line) {
			t.Errorf("shapes lack %q", line)
		}
	}
	if strings.Contains(got, "_key") {
		t.Errorf("the document key field is shown:\n%s", got)
	}

	// Only the first n documents are sampled.
	one, err := readDocShapes(filepath.Join(root, "shop"), 1, 2)
	if err != nil {
		t.Fatal(err)
	}
	if r := one.render(nil); !strings.Contains(r, "collection customer (1 documents sampled)") || strings.Contains(r, "vip") || strings.Contains(r, "optional") {
		t.Errorf("one document sampled:\n%s", r)
	}

	// A selection keeps its collections and fields (and the objects around them).
	sel := shapes.render(map[string][]string{"customer": {"address.city", "id"}})
	if strings.Contains(sel, "collection item") || !strings.Contains(sel, "  address: object") || !strings.Contains(sel, "address.city") ||
		strings.Contains(sel, "vip") || strings.Contains(sel, "name") {
		t.Errorf("selected shapes:\n%s", sel)
	}
	if s := shapes.schema("shop"); s.Table("customer") == nil || len(s.Table("customer").Columns) != 8 {
		t.Errorf("schema %+v", s.Table("customer"))
	}

	if _, err := readDocShapes(t.TempDir(), 10, 2); !errors.Is(err, errNoDatabase) {
		t.Errorf("empty dir: %v", err)
	}
}

func TestConfigDialectAndSecondPass(t *testing.T) {
	dir := t.TempDir()
	os.Mkdir(filepath.Join(dir, "docs"), 0o755)
	os.WriteFile(filepath.Join(dir, "second.tmpl"), []byte("again {{.Question}}"), 0o644)
	const head = "llm: {model: m}\n"
	tests := []struct {
		name, yaml, wantErr string
	}{
		{"sqlpp with documents", "pipeline: {dialect: sqlpp, documents: docs}\n", ""},
		{"sqlpp without documents", "pipeline: {dialect: sqlpp}\n", "pipeline.dialect sqlpp needs pipeline.documents"},
		{"sqlpp documents missing", "pipeline: {dialect: sqlpp, documents: nowhere}\n", "pipeline.documents " + filepath.Join(dir, "nowhere") + ": not a directory"},
		{"documents without sqlpp", "pipeline: {documents: docs}\n", "pipeline.documents is set but pipeline.dialect is sqlite"},
		{"unknown dialect", "pipeline: {dialect: mysql}\n", `pipeline.dialect "mysql"`},
		{"second pass default compare", "second_pass: {enabled: true}\n", ""},
		{"second pass prompt", "second_pass: {enabled: true, prompt: second.tmpl, compare: ex}\n", ""},
		{"unknown compare", "second_pass: {enabled: true, compare: exact}\n", `second_pass.compare "exact": want one of flex, ex`},
		{"second pass prompt missing", "second_pass: {enabled: true, prompt: gone.tmpl}\n", "second_pass.prompt " + filepath.Join(dir, "gone.tmpl")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(dir, "p.yaml")
			os.WriteFile(path, []byte(head+tt.yaml), 0o644)
			c, err := LoadConfig(path)
			if tt.wantErr == "" {
				if err != nil {
					t.Fatal(err)
				}
				if _, err := loadPrompts(c); err != nil {
					t.Fatalf("prompts: %v", err)
				}
				return
			}
			if err == nil || !errors.Is(err, ErrBadConfig) || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("error %v, want %q", err, tt.wantErr)
			}
		})
	}
	c, err := ParseConfig([]byte(head + "second_pass: {enabled: true}\n"))
	if err != nil || c.SecondPass.Compare != CompareFlex || !c.TwoPass() || c.SQLPP() {
		t.Errorf("defaults: %+v %v", c.SecondPass, err)
	}
}

// The SQL++ prompts are what a sqlpp pipeline renders: document shapes, the SQL++
// notes, and a different second-pass prompt that carries the first attempt.
func TestSQLPPPrompts(t *testing.T) {
	root := exportedDocs(t)
	c, err := ParseConfig([]byte("llm: {model: m}\npipeline: {dialect: sqlpp, documents: " + root + "}\nsecond_pass: {enabled: true}\n"))
	if err != nil {
		t.Fatal(err)
	}
	ps, err := loadPrompts(c)
	if err != nil {
		t.Fatal(err)
	}
	shapes, _ := readDocShapes(filepath.Join(root, "shop"), 100, 3)
	d := PromptData{Dialect: "SQL++", Schema: shapes.render(nil), Question: "How many items?", PreviousSQL: "SELECT 1", PreviousOutcome: "it ran and returned 1 row, which differs from the expected answer."}
	gen, err := ps.render(promptGenerate, d)
	if err != nil {
		t.Fatal(err)
	}
	second, err := ps.render(promptSecond, d)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("second-pass prompt:\n%s", second)
	for _, want := range []string{"SELECT RAW", "MISSING", "backticks", "collection item", "query context"} {
		if !strings.Contains(gen, want) {
			t.Errorf("generation prompt lacks %q", want)
		}
	}
	if strings.Contains(gen, "CREATE TABLE") || strings.Contains(gen, "SELECT 1") {
		t.Errorf("generation prompt:\n%s", gen)
	}
	if gen == second || !strings.HasPrefix(second, "### Task: text to SQL++, second pass") || !strings.Contains(second, "SELECT 1") ||
		!strings.Contains(second, "differs from the expected answer") {
		t.Errorf("second-pass prompt:\n%s", second)
	}
}

func TestMergePasses(t *testing.T) {
	rec := func(q, nt string, pass int) predict.ModuleRecord {
		return predict.ModuleRecord{
			ModuleOutput:  predict.ModuleOutput{QuestionID: predict.QuestionID(q), DBID: "d", NodeType: nt},
			ModuleDetails: predict.ModuleDetails{Pass: pass},
		}
	}
	first := []predict.ModuleRecord{rec("1", predict.NodeSchemaSelection, 1), rec("1", predict.NodeCandidateGeneration, 1), rec("2", predict.NodeSchemaSelection, 1), rec("2", predict.NodeCandidateGeneration, 1), rec("3", predict.NodeSchemaSelection, 1), rec("3", predict.NodeCandidateGeneration, 1)}
	second := []predict.ModuleRecord{rec("2", predict.NodeSchemaSelection, 2), rec("2", predict.NodeCandidateGeneration, 2), rec("9", predict.NodeSchemaSelection, 2), rec("9", predict.NodeCandidateGeneration, 2)}
	got := MergePasses(first, second, map[string]bool{QuestionKey("d", "2"): true, QuestionKey("d", "3"): true})
	var passes []string
	for _, r := range got {
		passes = append(passes, string(r.QuestionID)+"/"+r.NodeType[:1]+"/"+string(rune('0'+r.Pass)))
	}
	want := []string{"1/s/1", "1/c/1", "2/s/2", "2/c/2", "3/s/1", "3/c/1"}
	if diff := cmp.Diff(want, passes); diff != "" {
		t.Errorf("merged (-want +got):\n%s", diff)
	}
	path := filepath.Join(t.TempDir(), "r.jsonl")
	if err := WriteRecordsFile(path, got); err != nil {
		t.Fatal(err)
	}
	back, err := ReadRecords(path)
	if err != nil || len(back) != len(got) || back[2].Pass != 2 {
		t.Errorf("read back %d records (%v)", len(back), err)
	}
}

// writeDocs exports the SQLite database src as documents into dir, as export-docs does.
func writeDocs(tb testing.TB, src, dir string) {
	tb.Helper()
	d, err := export.OpenDir(dir)
	if err != nil {
		tb.Fatal(err)
	}
	defer d.Close()
	if _, err := export.WriteDocsTo(context.Background(), src, d); err != nil {
		tb.Fatal(err)
	}
}
