package demo

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"
)

// snapshot maps every file under dir to its modification time.
func snapshot(tb testing.TB, dir string) map[string]time.Time {
	tb.Helper()
	out := map[string]time.Time{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		st, err := d.Info()
		if err != nil {
			return err
		}
		out[p] = st.ModTime()
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	return out
}

func TestMaterializeBuildsThenReuses(t *testing.T) {
	dir := t.TempDir()
	start := time.Now()
	f, err := Materialize(context.Background(), dir)
	if err != nil {
		t.Fatalf("first Materialize: %v", err)
	}
	took := time.Since(start)
	t.Logf("first build: %v", took)
	if took > 2*time.Second {
		t.Errorf("building the demo took %v, want well under 2s", took)
	}

	if filepath.Dir(f.Dir) != dir || len(filepath.Base(f.Dir)) != hashDigits {
		t.Errorf("Dir = %s, want %s/<%d hex digits>", f.Dir, dir, hashDigits)
	}
	want := []string{
		f.Questions,
		filepath.Join(f.DBRoot, "library", "library.sqlite"),
		filepath.Join(f.DBRoot, "shop", "shop.sqlite"),
	}
	for _, name := range []string{"baseline", "reviser", "sampler-5"} {
		p, ok := f.Systems[name]
		if !ok {
			t.Errorf("system %s missing from %v", name, f.Systems)
			continue
		}
		want = append(want, p)
	}
	for _, p := range want {
		if st, err := os.Stat(p); err != nil || st.Size() == 0 {
			t.Errorf("%s: missing or empty (%v)", p, err)
		}
	}
	if got := strings.Join(f.SystemOrder, ","); got != "baseline,reviser,sampler-5" {
		t.Errorf("SystemOrder = %s", got)
	}
	if _, err := os.Stat(filepath.Join(f.DBRoot, "archive")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("archive database should not exist (its question demonstrates 'skipped'): %v", err)
	}

	before := snapshot(t, dir)
	for p := range before {
		if strings.HasSuffix(p, ".tmp") {
			t.Errorf("temporary file left behind: %s", p)
		}
	}
	time.Sleep(20 * time.Millisecond) // make a rewrite visible in mtimes
	g, err := Materialize(context.Background(), dir)
	if err != nil {
		t.Fatalf("second Materialize: %v", err)
	}
	if g.Dir != f.Dir || g.Questions != f.Questions || g.DBRoot != f.DBRoot {
		t.Errorf("second call returned other paths: %+v vs %+v", g, f)
	}
	after := snapshot(t, dir)
	if len(after) != len(before) {
		t.Errorf("second call changed the file count: %d -> %d", len(before), len(after))
	}
	for p, m := range before {
		if !after[p].Equal(m) {
			t.Errorf("%s was rewritten (mtime %v -> %v)", p, m, after[p])
		}
	}
}

func TestMaterializeRepairsEditedFile(t *testing.T) {
	dir := t.TempDir()
	f, err := Materialize(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	orig, err := os.ReadFile(f.Questions)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(f.Questions, []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Materialize(context.Background(), dir); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(f.Questions)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(orig) {
		t.Errorf("an edited questions file was not restored")
	}
}

// smallData is a miniature demo tree for tests that change the embedded content.
func smallData(script string) fstest.MapFS {
	return fstest.MapFS{
		"questions.jsonl":      {Data: []byte(`{"question_id": "t-1", "db_id": "tiny", "question": "q", "gold": "SELECT 1"}` + "\n")},
		"systems/only.jsonl":   {Data: []byte(`{"question_id": "t-1", "db_id": "tiny", "PREDICTED_SQL": "SELECT 1"}` + "\n")},
		"sql/tiny.sql":         {Data: []byte(script)},
		"sql/README-not-a.txt": {Data: []byte("ignored: not a .sql file")},
	}
}

func TestMaterializeRebuildsWhenScriptsChange(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	tests := []struct {
		name, script string
		want         int
	}{
		{"v1", "CREATE TABLE t (x INTEGER PRIMARY KEY); INSERT INTO t VALUES (1), (2);", 2},
		{"v2", "CREATE TABLE t (x INTEGER PRIMARY KEY); INSERT INTO t VALUES (1), (2), (3);", 3},
	}
	seen := map[string]bool{}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := materialize(ctx, smallData(tt.script), dir)
			if err != nil {
				t.Fatal(err)
			}
			if seen[f.Dir] {
				t.Errorf("a changed script reused directory %s", f.Dir)
			}
			seen[f.Dir] = true
			db := openRO(t, filepath.Join(f.DBRoot, "tiny", "tiny.sqlite"))
			var n int
			if err := db.QueryRow("SELECT COUNT(*) FROM t").Scan(&n); err != nil {
				t.Fatal(err)
			}
			if n != tt.want {
				t.Errorf("rows = %d, want %d", n, tt.want)
			}
		})
	}
}

func TestMaterializeErrors(t *testing.T) {
	// Runs long enough (a few hundred ms) for a cancellation to land mid-build.
	slow := `CREATE TABLE t (x INTEGER);
WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < 50000000)
INSERT INTO t SELECT n FROM s;`
	tests := []struct {
		name    string
		data    fs.FS
		dir     string
		timeout time.Duration
		wantIs  error
	}{
		{"no directory", smallData("CREATE TABLE t (x);"), "", 0, ErrNoDir},
		{"broken script", smallData("CREATE TABLE t (x); INSERT INTO nowhere VALUES (1);"), "tmp", 0, ErrBuild},
		{"foreign key broken", smallData(`CREATE TABLE p (id INTEGER PRIMARY KEY);
CREATE TABLE c (pid INTEGER REFERENCES p (id)); INSERT INTO c VALUES (7);`), "tmp", 0, ErrBuild},
		{"cancelled", smallData(slow), "tmp", 100 * time.Millisecond, context.DeadlineExceeded},
		{"no systems", fstest.MapFS{"questions.jsonl": {Data: []byte("{}\n")}}, "tmp", 0, ErrBadData},
		{"no questions", fstest.MapFS{"systems/a.jsonl": {Data: []byte("{}\n")}}, "tmp", 0, ErrBadData},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := tt.dir
			if dir == "tmp" {
				dir = t.TempDir()
			}
			ctx := context.Background()
			if tt.timeout > 0 {
				var cancel context.CancelFunc
				ctx, cancel = context.WithTimeout(ctx, tt.timeout)
				defer cancel()
			}
			start := time.Now()
			_, err := materialize(ctx, tt.data, dir)
			if !errors.Is(err, tt.wantIs) {
				t.Fatalf("err = %v, want errors.Is %v", err, tt.wantIs)
			}
			if tt.timeout > 0 && time.Since(start) > tt.timeout+2*time.Second {
				t.Errorf("cancellation took %v to stop the build", time.Since(start))
			}
			if dir == "" {
				return
			}
			// Whatever failed, no database (finished or half-built) may be left.
			for p := range snapshot(t, dir) {
				if strings.Contains(filepath.Base(p), ".sqlite") {
					t.Errorf("failed build left %s", p)
				}
			}
		})
	}
}

func TestContentHash(t *testing.T) {
	a := fstest.MapFS{"x": {Data: []byte("ab")}, "y": {Data: []byte("c")}}
	b := fstest.MapFS{"x": {Data: []byte("a")}, "y": {Data: []byte("bc")}}
	c := fstest.MapFS{"x": {Data: []byte("ab")}, "z": {Data: []byte("c")}}
	ha, err := contentHash(a)
	if err != nil {
		t.Fatal(err)
	}
	hb, _ := contentHash(b)
	hc, _ := contentHash(c)
	ha2, _ := contentHash(a)
	if ha != ha2 {
		t.Errorf("hash not stable: %s vs %s", ha, ha2)
	}
	if ha == hb || ha == hc {
		t.Errorf("different trees share a hash: %s %s %s", ha, hb, hc)
	}
	if len(ha) != hashDigits {
		t.Errorf("hash %q has %d digits, want %d", ha, len(ha), hashDigits)
	}
}

func TestDefaultDir(t *testing.T) {
	tests := []struct {
		name, cache string
	}{
		{"cache dir", t.TempDir()},
		{"no cache dir: temp dir", ""},
	}
	if runtime.GOOS != "linux" {
		t.Skip("the cache directory is taken from XDG_CACHE_HOME/HOME only on Linux")
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("XDG_CACHE_HOME", tt.cache)
			if tt.cache == "" {
				t.Setenv("HOME", "")
			}
			d, err := DefaultDir()
			if err != nil {
				t.Fatal(err)
			}
			if !filepath.IsAbs(d) || !strings.HasSuffix(d, filepath.Join("nl2sqlbench", "demo")) {
				t.Errorf("DefaultDir = %s", d)
			}
			if tt.cache != "" && !strings.HasPrefix(d, tt.cache) {
				t.Errorf("DefaultDir = %s, want under %s", d, tt.cache)
			}
			if tt.cache == "" && !strings.HasPrefix(d, os.TempDir()) {
				t.Errorf("DefaultDir = %s, want under %s", d, os.TempDir())
			}
		})
	}
}

func TestMaterializeConcurrently(t *testing.T) {
	dir := t.TempDir()
	const n = 4
	var wg sync.WaitGroup
	files := make([]*Files, n)
	errs := make([]error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			files[i], errs[i] = Materialize(context.Background(), dir)
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("call %d: %v", i, err)
		}
	}
	for _, id := range []string{"library", "shop"} {
		db := openRO(t, filepath.Join(files[0].DBRoot, id, id+".sqlite"))
		var ok string
		if err := db.QueryRow("PRAGMA integrity_check").Scan(&ok); err != nil || ok != "ok" {
			t.Errorf("%s after concurrent builds: %q, %v", id, ok, err)
		}
	}
	for p := range snapshot(t, dir) {
		if strings.HasSuffix(p, ".tmp") {
			t.Errorf("temporary file left behind: %s", p)
		}
	}
}
