package dataset

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestHardnessCache: with a build of known identity, the second load of a Spider file
// reads the difficulties and warnings (with their databases) from the cache; another
// tables.json, another build or a build of unknown identity computes them again.
func TestHardnessCache(t *testing.T) {
	dir := t.TempDir()
	cacheDir := filepath.Join(dir, "cache")
	t.Setenv("NL2SQLBENCH_CACHE_DIR", cacheDir)
	rev := "rev:1"
	old := buildIdentity
	buildIdentity = func() string { return rev }
	t.Cleanup(func() { buildIdentity = old })

	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	dev := write("dev.json", `[{"db_id": "concert_singer", "query": "SELECT count(*) FROM singer", "question": "q1"},
 {"db_id": "concert_singer", "query": "SELECT name FROM singer WHERE age > 3 ORDER BY age", "question": "q2"},
 {"db_id": "other_db", "query": "SELECT 1", "question": "q3"}]`)
	write("tables.json", fuzzTables)
	load := func() *Dataset {
		t.Helper()
		d, err := Load(context.Background(), "spider:"+dev, Options{})
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	difficulties := func(d *Dataset) []string {
		var out []string
		for _, q := range d.Questions {
			out = append(out, q.Difficulty)
		}
		return out
	}
	cached := func() []string {
		m, _ := filepath.Glob(filepath.Join(cacheDir, "hardness", "*.json"))
		return m
	}

	first := load()
	if len(cached()) != 1 {
		t.Fatalf("cache files after the first load: %v", cached())
	}
	second := load()
	if !slices.Equal(difficulties(first), difficulties(second)) || !slices.Equal(first.Warnings, second.Warnings) || len(first.Warnings) == 0 {
		t.Errorf("cached load differs: %v %q vs %v %q", difficulties(first), first.Warnings, difficulties(second), second.Warnings)
	}
	second.NarrowWarnings(map[string]bool{"concert_singer": true})
	if len(second.Warnings) != 0 {
		t.Errorf("the warning about other_db survived narrowing after a cached load: %q", second.Warnings)
	}

	// The cache is read: a planted answer comes back.
	planted := `{"difficulties": ["cached", "cached", "cached"], "warnings": []}`
	if err := os.WriteFile(cached()[0], []byte(planted), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := difficulties(load()); !slices.Equal(got, []string{"cached", "cached", "cached"}) {
		t.Errorf("planted cache not read: %v", got)
	}
	// Another tables.json is another key, and so is another build; a build of unknown
	// identity neither reads nor writes.
	write("tables.json", fuzzTables+"\n")
	if got := difficulties(load()); slices.Contains(got, "cached") || len(cached()) != 2 {
		t.Errorf("other tables.json: %v, %d cache files", got, len(cached()))
	}
	rev = "exe:2"
	if got := difficulties(load()); slices.Contains(got, "cached") || len(cached()) != 3 {
		t.Errorf("another build: %v, %d cache files", got, len(cached()))
	}
	rev = ""
	write("tables.json", fuzzTables+"\n\n")
	if got := difficulties(load()); slices.Contains(got, "cached") || len(cached()) != 3 {
		t.Errorf("a build of unknown identity used the cache: %v, %d cache files", got, len(cached()))
	}
}
