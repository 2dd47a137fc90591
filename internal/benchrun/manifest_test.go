package benchrun

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
)

func sha256Of(tb testing.TB, path string) string {
	tb.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

func TestNewManifest(t *testing.T) {
	cfg := demoConfig(t)
	cfg.Semantics = "spider"
	p, err := Prepare(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	m := p.Manifest
	if m == nil {
		t.Fatal("Prepare gave no manifest")
	}
	if m.Version == "" || m.GoVersion == "" || m.SQLiteVersion == "" || len(m.Executable) != 64 {
		t.Errorf("build: version %q, go %q, sqlite %q, executable %q", m.Version, m.GoVersion, m.SQLiteVersion, m.Executable)
	}
	if s := m.Settings; s.Semantics != "spider" || s.TimeoutS != cfg.Timeout.Seconds() || s.MaxRows != 10_000 || s.Engine != "sqlite" || len(s.PassK) == 0 {
		t.Errorf("settings %+v", s)
	}
	if m.Dataset.SHA256 != sha256Of(t, p.Dataset.Path) {
		t.Errorf("dataset sha256 %s, want the file's", m.Dataset.SHA256)
	}
	if len(m.Predictions) != len(cfg.Preds) {
		t.Fatalf("%d prediction files, want %d", len(m.Predictions), len(cfg.Preds))
	}
	for i, pf := range m.Predictions {
		_, path := splitPredSpec(cfg.Preds[i])
		if pf.System != p.Systems[i].Name || pf.SHA256 != sha256Of(t, path) || !filepath.IsAbs(pf.Path) {
			t.Errorf("prediction %d: %+v", i, pf)
		}
	}
	var present, missing int
	for _, d := range m.Databases {
		switch {
		case d.Missing:
			missing++
		case d.Size > 0 && !d.ModTime.IsZero() && d.SHA256 == "":
			present++
		default:
			t.Errorf("database %+v", d)
		}
	}
	if present == 0 || missing != 1 { // the demo has one question on a missing database
		t.Errorf("%d databases present, %d missing", present, missing)
	}

	cfg.HashDBs = true
	p, err = Prepare(context.Background(), cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range p.Manifest.Databases {
		if !d.Missing && d.SHA256 != sha256Of(t, d.Path) {
			t.Errorf("database %s: sha256 %q with HashDBs", d.DBID, d.SHA256)
		}
	}
}

func TestCompareManifests(t *testing.T) {
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	base := func() *rundir.Manifest {
		return &rundir.Manifest{
			Version: "v1", GoVersion: "go1", SQLiteVersion: "3.45", Executable: "e1e1e1e1e1e1e1e1",
			Settings:    rundir.ManifestSettings{Semantics: "spider", TimeoutS: 30, PassK: []int{1, 5}},
			Dataset:     rundir.FileDigest{Path: "/d/dev.json", SHA256: "aaaa1111aaaa1111"},
			Predictions: []rundir.PredictionFile{{System: "DAIL", FileDigest: rundir.FileDigest{Path: "/p/DAIL.txt", SHA256: "ab12ab12ab12ab12"}}},
			Databases: []rundir.DatabaseFile{
				{DBID: "a", Path: "/db/a.sqlite", Size: 10, ModTime: at},
				{DBID: "b", Missing: true},
			},
		}
	}
	tests := []struct {
		name   string
		change func(*rundir.Manifest)
		want   []string // every one in the error; none: no error
	}{
		{"same", func(m *rundir.Manifest) { m.StartedAt = at }, nil},
		{"semantics", func(m *rundir.Manifest) { m.Settings.Semantics = "bird" }, []string{"setting semantics changed (spider → bird)"}},
		{"pass-k", func(m *rundir.Manifest) { m.Settings.PassK = []int{1} }, []string{"setting pass_k changed ([1,5] → [1])"}},
		{"two settings", func(m *rundir.Manifest) { m.Settings.TimeoutS, m.Settings.Flex = 5, true },
			[]string{"setting flex changed (false → true)", "setting timeout_s changed (30 → 5)"}},
		{"prediction content", func(m *rundir.Manifest) { m.Predictions[0].SHA256 = "cd34cd34cd34cd34" },
			[]string{"prediction file for system DAIL changed (/p/DAIL.txt: sha256 ab12ab12ab12… → cd34cd34cd34…)"}},
		{"prediction file", func(m *rundir.Manifest) { m.Predictions[0].Path = "/p/other.txt" },
			[]string{"prediction file for system DAIL changed (/p/DAIL.txt, sha256 ab12ab12ab12… → /p/other.txt"}},
		{"systems", func(m *rundir.Manifest) { m.Predictions[0].System = "C3" }, []string{"systems changed (DAIL → C3)"}},
		{"dataset", func(m *rundir.Manifest) { m.Dataset.SHA256 = "bbbb" }, []string{"dataset file changed (/d/dev.json: sha256 aaaa1111aaaa… → bbbb)"}},
		{"tables added", func(m *rundir.Manifest) { m.Tables = &rundir.FileDigest{Path: "/d/tables.json"} }, []string{"tables file /d/tables.json was not part of the run"}},
		{"tool", func(m *rundir.Manifest) { m.Revision, m.Modified = "abc", true }, []string{"VCS revision changed (none → abc (modified))"}},
		{"build without VCS", func(m *rundir.Manifest) { m.Executable = "e2e2e2e2e2e2e2e2" }, []string{"nl2sqlbench executable changed (sha256 e1e1e1e1e1e1… → e2e2e2e2e2e2…: another build)"}},
		{"database time", func(m *rundir.Manifest) { m.Databases[0].ModTime = at.Add(time.Hour) }, []string{"database a changed (10 bytes modified 2026-01-02T03:04:05Z → 10 bytes modified 2026-01-02T04:04:05Z)"}},
		{"database appeared", func(m *rundir.Manifest) {
			m.Databases[1] = rundir.DatabaseFile{DBID: "b", Path: "/db/b.sqlite", Size: 1}
		},
			[]string{"database b: missing → present at /db/b.sqlite"}},
		{"database dropped", func(m *rundir.Manifest) { m.Databases = m.Databases[:1] }, []string{"database b of the run is not judged now"}},
	}
	// A clean build of one revision is the same source, whatever its executable.
	clean := func() *rundir.Manifest { m := base(); m.Revision = "abc"; return m }
	cur := clean()
	cur.Executable = "e2e2e2e2e2e2e2e2"
	if err := CompareManifests(clean(), cur); err != nil {
		t.Errorf("clean builds of one revision: %v", err)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cur := base()
			tt.change(cur)
			err := CompareManifests(base(), cur)
			if len(tt.want) == 0 {
				if err != nil {
					t.Fatalf("unexpected: %v", err)
				}
				return
			}
			if !errors.Is(err, ErrResumeMismatch) {
				t.Fatalf("error %v, want ErrResumeMismatch", err)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("%q\ndoes not say %q", err, w)
				}
			}
			if n := len(err.(*MismatchError).Diffs); n != len(tt.want) {
				t.Errorf("%d differences, want %d: %v", n, len(tt.want), err)
			}
		})
	}
}

// TestCompareManifestsHashedDBs: with both sha256s a database is compared by content,
// so a copy with a new modification time is the same database.
func TestCompareManifestsHashedDBs(t *testing.T) {
	db := func(sum string, mod time.Time) *rundir.Manifest {
		return &rundir.Manifest{Databases: []rundir.DatabaseFile{{DBID: "a", Path: "/a", Size: 1, ModTime: mod, SHA256: sum}}}
	}
	t0 := time.Unix(0, 0)
	if err := CompareManifests(db("s1", t0), db("s1", t0.Add(time.Hour))); err != nil {
		t.Errorf("same content, new time: %v", err)
	}
	if err := CompareManifests(db("s1", t0), db("s2", t0)); err == nil || !strings.Contains(err.Error(), "database a changed (sha256 s1 → s2)") {
		t.Errorf("new content, same time: %v", err)
	}
}

// TestEvalResumeForeignRecords: resumed records that are not the run's first questions
// (another dataset, or another --db-id) are refused, naming the record.
func TestEvalResumeForeignRecords(t *testing.T) {
	if testing.Short() {
		t.Skip("interrupt and resume is slow for -short; go test ./... runs it")
	}
	t.Parallel()
	cfg := demoConfig(t)
	cfg.DBIDs = []string{"shop"}
	p, res, _, _ := evalDemo(t, cfg, nil)
	tests := []struct {
		name   string
		change func(*record.Record)
		want   string
	}{
		{"question_id", func(r *record.Record) { r.QuestionID = "no-such-question" }, `record 2 is question`},
		{"index", func(r *record.Record) { r.Index = 99_999 }, "is question 99999"},
		{"db_id", func(r *record.Record) { r.DBID = "library" }, "db library"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resumed := make([][]record.Record, len(res.Systems))
			for i, s := range res.Systems {
				resumed[i] = append([]record.Record(nil), s.Records[:3]...)
			}
			tt.change(&resumed[1][1])
			_, err := Eval(context.Background(), p, resumed, newMemSink(len(p.Systems)), nil)
			if !errors.Is(err, ErrResumeMismatch) || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), "system "+p.Systems[1].Name) {
				t.Errorf("error %v, want ErrResumeMismatch naming system %s and %q", err, p.Systems[1].Name, tt.want)
			}
		})
	}
	// Records of a --db-id run keep their index in the whole dataset: resuming them works.
	resumed := make([][]record.Record, len(res.Systems))
	for i, s := range res.Systems {
		resumed[i] = append([]record.Record(nil), s.Records[:3]...)
	}
	if _, err := Eval(context.Background(), p, resumed, newMemSink(len(p.Systems)), nil); err != nil {
		t.Errorf("resume of a --db-id run: %v", err)
	}
}

func TestPrepareNoDatabases(t *testing.T) {
	cfg := demoConfig(t)
	empty := t.TempDir()
	tests := []struct{ name, root, want string }{
		{"absent root", filepath.Join(empty, "nope"), filepath.Join(empty, "nope") + " is not a directory"},
		{"empty root", empty, "none of the dataset's databases is under " + empty},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := cfg
			c.DBRoot = tt.root
			_, err := Prepare(context.Background(), c, nil)
			if !errors.Is(err, ErrNoDatabases) || errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want ErrNoDatabases saying %q", err, tt.want)
			}
		})
	}
}
