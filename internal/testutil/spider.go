package testutil

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// SpiderQuestion is one question of Spider's dev.json, as the conformance tests need it.
type SpiderQuestion struct {
	DBID  string `json:"db_id"`
	Query string `json:"query"`
}

// SpiderDev reads ../shared/data/spider/dev.json (skipping the test when it is absent).
func SpiderDev(tb testing.TB) []SpiderQuestion {
	tb.Helper()
	path := Shared(tb, "data/spider/dev.json")
	b, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	var qs []SpiderQuestion
	if err := json.Unmarshal(b, &qs); err != nil {
		tb.Fatalf("decode %s: %v", path, err)
	}
	return qs
}

// SpiderDB is the database file of a Spider db_id under ../shared.
func SpiderDB(tb testing.TB, dbID string) string {
	tb.Helper()
	return filepath.Join(Shared(tb, "data/spider/database"), dbID, dbID+".sqlite")
}

// SpiderPredictions reads data/spider/predictions/<system>.txt as Spider's evaluation.py
// does: line i answers dev question i, stripped and cut at its first tab.
func SpiderPredictions(tb testing.TB, system string) []string {
	tb.Helper()
	b, err := os.ReadFile(Shared(tb, "data/spider/predictions/"+system+".txt"))
	if err != nil {
		tb.Fatalf("read predictions: %v", err)
	}
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	for i, l := range lines {
		lines[i], _, _ = strings.Cut(strings.TrimSpace(l), "\t")
	}
	return lines
}
