package dataset

import (
	"bufio"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/testutil"
)

func difficulties(d *Dataset) map[string]int {
	m := map[string]int{}
	for _, q := range d.Questions {
		m[q.Difficulty]++
	}
	return m
}

func TestRealBIRD(t *testing.T) {
	dir := testutil.Shared(t, "data/bird")
	tests := []struct {
		spec      string
		n         int
		tables    string
		diff      map[string]int
		warnings  int
		superhero int // questions on the one database present
	}{
		{"bird:" + dir, 1534, "dev_tables.json", map[string]int{"simple": 925, "moderate": 464, "challenging": 145}, 0, 129},
		{"bird:" + filepath.Join(dir, "mini_dev_sqlite.json"), 500, "mini_dev_sqlite_tables.json",
			map[string]int{"simple": 148, "moderate": 250, "challenging": 102}, 2, 52},
		{"bird:" + filepath.Join(dir, "mini_dev_postgresql.json"), 500, "dev_tables.json",
			map[string]int{"simple": 148, "moderate": 250, "challenging": 102}, 2, 52},
	}
	for _, tt := range tests {
		t.Run(filepath.Base(tt.spec), func(t *testing.T) {
			d := load(t, tt.spec, Options{})
			if len(d.Questions) != tt.n {
				t.Fatalf("%d questions, want %d", len(d.Questions), tt.n)
			}
			if filepath.Base(d.Tables) != tt.tables {
				t.Errorf("tables %s, want %s", d.Tables, tt.tables)
			}
			if got := difficulties(d); !equalCounts(got, tt.diff) {
				t.Errorf("difficulties %v, want %v", got, tt.diff)
			}
			if len(d.Warnings) != tt.warnings {
				t.Errorf("warnings %q, want %d", d.Warnings, tt.warnings)
			}
			found := 0
			for _, q := range d.Questions {
				if p, ok := d.DBPath(q.DBID); ok {
					found++
					if q.DBID != "superhero" || !strings.HasSuffix(p, "dev_databases/superhero/superhero.sqlite") {
						t.Errorf("question %d: database %s", q.Index, p)
					}
				}
			}
			if found != tt.superhero {
				t.Errorf("%d questions have a database, want %d (superhero's)", found, tt.superhero)
			}
		})
	}
}

func TestRealSpider(t *testing.T) {
	dir := testutil.Shared(t, "data/spider")
	d := load(t, "spider:"+dir, Options{})
	g := load(t, "spider:"+filepath.Join(dir, "dev_gold.sql"), Options{})
	if len(d.Questions) != 1034 || len(g.Questions) != 1034 {
		t.Fatalf("%d questions from dev.json, %d from dev_gold.sql; want 1034", len(d.Questions), len(g.Questions))
	}
	missingDB := map[string]int{}
	for i, q := range d.Questions {
		if q.DBID != g.Questions[i].DBID || q.ID != strconv.Itoa(i) {
			t.Fatalf("question %d: dev.json %+v, dev_gold.sql %+v", i, q, g.Questions[i])
		}
		if _, ok := d.DBPath(q.DBID); !ok {
			missingDB[q.DBID]++
		}
	}
	if len(missingDB) != 1 || missingDB["wta_1"] != 62 {
		t.Errorf("questions without a database: %v, want 62 on wta_1", missingDB)
	}
	for k := range difficulties(d) {
		switch k {
		case "easy", "medium", "hard", "extra", Unknown:
		default:
			t.Errorf("difficulty %q is not a Spider hardness", k)
		}
	}
	// Spider hardness comes from internal/spidersql; compare with the official
	// evaluation's labels. Disagreements are that package's to fix; here we only report.
	ref := readHardness(t, filepath.Join(dir, "reference", "DAIL.tsv"))
	agree := 0
	for idx, h := range ref {
		if d.Questions[idx].Difficulty == h {
			agree++
		}
	}
	t.Logf("hardness agrees with the official labels on %d of %d questions; %d warnings", agree, len(ref), len(d.Warnings))
	if agree == 0 {
		t.Errorf("no question's hardness agrees with the reference")
	}
}

// readHardness reads index -> hardness from a Spider reference TSV.
func readHardness(tb testing.TB, path string) map[int]string {
	tb.Helper()
	f, err := os.Open(path)
	if err != nil {
		tb.Skipf("skipping hardness comparison: %v", err)
	}
	defer f.Close()
	out := map[int]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		cols := strings.Split(sc.Text(), "\t")
		if len(cols) < 3 || cols[0] == "index" {
			continue
		}
		i, err := strconv.Atoi(cols[0])
		if err != nil {
			tb.Fatalf("%s: %v", path, err)
		}
		out[i] = cols[2]
	}
	return out
}

func TestRealSpiderTrainGold(t *testing.T) {
	p := testutil.Shared(t, "data/spider/train_gold.sql")
	d := load(t, "spider:"+p, Options{})
	if len(d.Questions) != 8659 {
		t.Errorf("%d questions, want 8659", len(d.Questions))
	}
}

func TestRealScienceBenchmark(t *testing.T) {
	for _, db := range []string{"cordis", "sdss", "oncomx"} {
		dir := testutil.Shared(t, "data/sciencebenchmark/"+db)
		d := load(t, "spider:"+dir, Options{})
		if len(d.Questions) == 0 || d.Tables == "" {
			t.Errorf("%s: %d questions, tables %q", db, len(d.Questions), d.Tables)
		}
	}
}

func equalCounts(a, b map[string]int) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}
