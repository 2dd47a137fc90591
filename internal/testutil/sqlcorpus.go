package testutil

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// SQLCorpus returns every SQL string of the real data under ../shared, for differential
// tests that check a fast implementation against its reference one: Spider dev and train
// gold, the seven Spider dev prediction files, BIRD dev and mini-dev gold (SQLite, MySQL,
// PostgreSQL), the BIRD dev prediction files and the mini-dev prediction files. Strings are
// taken as written (not trimmed), duplicates kept once. It skips the test when the Spider
// dev gold is absent; the other sources are used when present.
func SQLCorpus(tb testing.TB) []string {
	tb.Helper()
	Shared(tb, "data/spider/dev_gold.sql")
	seen := map[string]bool{}
	var out []string
	add := func(s string) {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	// One SQL per line, optionally followed by a tab and a db_id.
	lines := func(rel string) {
		p, ok := SharedIfPresent(tb, rel)
		if !ok {
			return
		}
		b, err := os.ReadFile(p)
		if err != nil {
			tb.Fatalf("read %s: %v", p, err)
		}
		for _, l := range strings.Split(string(b), "\n") {
			sql, _, _ := strings.Cut(l, "\t")
			add(sql)
			add(strings.TrimSpace(sql))
		}
	}
	glob := func(pattern string) []string {
		p, _ := SharedIfPresent(tb, pattern)
		m, err := filepath.Glob(p)
		if err != nil {
			tb.Fatal(err)
		}
		sort.Strings(m)
		return m
	}
	rel := func(abs string) string {
		root, _ := SharedIfPresent(tb, "")
		r, _ := filepath.Rel(root, abs)
		return r
	}
	lines("data/spider/dev_gold.sql")
	lines("data/spider/train_gold.sql")
	for _, f := range glob("data/spider/predictions/*.txt") {
		lines(rel(f))
	}
	for _, f := range glob("data/bird/*_gold.sql") {
		lines(rel(f))
	}
	for _, f := range glob("data/bird/predictions/dev/*.txt") {
		lines(rel(f))
	}
	// JSON question lists with an "SQL" field.
	for _, f := range append(glob("data/bird/dev.json"), glob("data/bird/mini_dev_*.json")...) {
		var qs []struct {
			SQL string `json:"SQL"`
		}
		readJSON(tb, f, &qs)
		for _, q := range qs {
			add(q.SQL)
		}
	}
	// BIRD-format predictions: {"0": "SQL\t----- bird -----\tdb_id", ...}.
	preds := append(glob("data/bird/predictions/dev/*.json"), glob("data/bird/predictions/mini_dev/*.json")...)
	for _, f := range preds {
		var m map[string]string
		readJSON(tb, f, &m)
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			sql, _, _ := strings.Cut(m[k], "\t----- bird -----\t")
			add(sql)
		}
	}
	return out
}

func readJSON(tb testing.TB, path string, v any) {
	tb.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		tb.Fatalf("read %s: %v", path, err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		tb.Fatalf("decode %s: %v", path, err)
	}
}
