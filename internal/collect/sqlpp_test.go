package collect

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/collect/fakellm"
	"github.com/nl2sqlbench/nl2sqlbench/internal/demo"
	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
	"github.com/nl2sqlbench/nl2sqlbench/internal/engine/sqlppfake"
	"github.com/nl2sqlbench/nl2sqlbench/internal/predict"
)

// A sqlpp pipeline prompts with document shapes and executes its queries on the engine
// Options.Engine names, at the database Options.Locate gives: here execution_guided
// revision on the fake query service, for the demo exported as documents.
func TestRunSQLPPExecutesOnEngine(t *testing.T) {
	ctx := context.Background()
	ds := demoDataset(t)
	files, err := demo.Materialize(ctx, filepath.Join(os.TempDir(), "nl2sqlbench-collect-test-demo"))
	if err != nil {
		t.Fatal(err)
	}
	docs := filepath.Join(t.TempDir(), "docs")
	for _, db := range []string{"library", "shop"} {
		writeDocs(t, filepath.Join(files.DBRoot, db, db+".sqlite"), filepath.Join(docs, db))
	}
	cb := sqlppfake.New(files.DBRoot)
	defer cb.Close()
	eng, err := engine.NewSQLPP(cb.URL(), "", "", "bench")
	if err != nil {
		t.Fatal(err)
	}
	gold := map[string]string{}
	for _, q := range ds.Questions {
		gold[q.Text] = q.Gold[0]
	}
	const broken = "SELECT nope FROM no_such_collection"
	srv := fakellm.New(func(r fakellm.Request) fakellm.Reply {
		p := r.Prompt()
		sql := gold[questionOf(p)]
		if strings.HasPrefix(p, "### Task: text to SQL++\n") {
			sql = broken
		}
		return fakellm.Reply{Choices: []string{"```sql\n" + sql + "\n```"}, Prompt: fakellm.Words(p), Completion: 5}
	}, 1000)
	defer srv.Close()
	dir := t.TempDir()
	cfg := writeConfig(t, dir, srv.BaseURL, "pipeline:\n  dialect: sqlpp\n  documents: "+docs+"\n  query_revision: {strategy: execution_guided, rounds: 1}\n")
	var located sync.Map // Locate is called from the workers
	sum, err := Run(ctx, Options{Config: cfg, Dataset: ds, OutDir: filepath.Join(dir, "out"), Getenv: getenv, Limit: 6,
		Engine: eng, Locate: func(db string) (string, bool) { located.Store(db, true); return db, true }})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Collected != 6 || sum.Failed != 0 {
		t.Fatalf("summary %+v", sum)
	}
	recs, err := ReadRecords(filepath.Join(dir, "out", ModulesFile))
	if err != nil {
		t.Fatal(err)
	}
	revised := 0
	for _, r := range recs {
		if r.Pass != 0 {
			t.Errorf("record %s has pass %d in a one-pass run", r.QuestionID, r.Pass)
		}
		if r.NodeType != predict.NodeQueryRevision {
			continue
		}
		revised++
		if r.RevisionRounds != 1 || len(r.Feedback) != 1 || !strings.Contains(r.Feedback[0], "SQL++ error 12003") {
			t.Errorf("question %s: rounds %d feedback %q", r.QuestionID, r.RevisionRounds, r.Feedback)
		}
	}
	if _, ok := located.Load("library"); revised != 6 || !ok {
		t.Errorf("%d revised, library located %v", revised, ok)
	}
	sawBroken := false
	for _, s := range cb.Seen() {
		sawBroken = sawBroken || (s.Statement == broken && s.QueryContext == "default:`bench`.`library`")
	}
	if !sawBroken {
		t.Errorf("the broken candidate never reached the query service: %+v", cb.Seen())
	}
	for _, r := range srv.Requests() {
		if p := r.Prompt(); strings.Contains(p, "CREATE TABLE") || !strings.Contains(p, "collection ") {
			t.Fatalf("sqlpp prompt without document shapes:\n%s", p)
		}
	}
}
