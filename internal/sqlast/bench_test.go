package sqlast

import (
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/dbschema"
	"github.com/nl2sqlbench/nl2sqlbench/internal/testutil"
)

// benchCorpus is the gold corpus with each query's schema from its tables.json.
func benchCorpus(b *testing.B) ([]corpusItem, []*dbschema.Schema) {
	b.Helper()
	var items []corpusItem
	var schemas []*dbschema.Schema
	add := func(its []corpusItem, tables string) {
		m, err := dbschema.ReadTablesJSON(testutil.Shared(b, tables))
		if err != nil {
			b.Fatal(err)
		}
		for _, it := range its {
			items = append(items, it)
			schemas = append(schemas, m[it.db])
		}
	}
	add(readBirdJSON(b, testutil.Shared(b, "data/bird/dev.json")), "data/bird/dev_tables.json")
	add(readGoldSQL(b, testutil.Shared(b, "data/bird/mini_dev_sqlite_gold.sql")), "data/bird/mini_dev_sqlite_tables.json")
	add(readGoldSQL(b, testutil.Shared(b, "data/spider/dev_gold.sql")), "data/spider/tables.json")
	add(readGoldSQL(b, testutil.Shared(b, "data/spider/train_gold.sql")), "data/spider/tables.json")
	return items, schemas
}

// BenchmarkCorpus parses and extracts the gold schema of the whole ~11.7k-query gold
// corpus once per iteration, on one goroutine (the target: under 1 s on 2 cores).
func BenchmarkCorpus(b *testing.B) {
	items, schemas := benchCorpus(b)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		for i, it := range items {
			if _, err := ExtractSchema(it.sql, schemas[i]); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(len(items)), "queries/op")
}

// BenchmarkParse is parsing alone, to see how the time splits.
func BenchmarkParse(b *testing.B) {
	items, _ := benchCorpus(b)
	b.ResetTimer()
	for b.Loop() {
		for _, it := range items {
			if _, err := Parse(it.sql); err != nil {
				b.Fatal(err)
			}
		}
	}
}
