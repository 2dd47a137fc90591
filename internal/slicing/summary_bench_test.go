package slicing

import (
	"fmt"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/metrics"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
	"github.com/nl2sqlbench/nl2sqlbench/internal/sqlast"
)

// BenchmarkSummarize is the slices section of a seven-system run of Spider dev's size
// (1034 questions, 20 databases), with synthetic facts spread over every group.
//
//	go test ./internal/slicing -run XXX -bench Summarize -count 5
func BenchmarkSummarize(b *testing.B) {
	facts := map[int]Facts{}
	for i := range 1034 {
		facts[i] = Facts{Parsed: true, Difficulty: []string{"easy", "medium", "hard", "extra"}[i%4], DB: fmt.Sprintf("db%d", i%20),
			SQL: sqlast.Features{Joins: i % 5, Nested: i%7 == 0, Aggregation: i%2 == 0, GroupBy: i%3 == 0, Having: i%11 == 0,
				OrderLimit: i%5 == 0, SetOp: i%13 == 0, Case: i%17 == 0, Like: i%19 == 0, Distinct: i%9 == 0}}
	}
	var systems []metrics.SystemRecords
	for s := range 7 {
		sys := metrics.SystemRecords{Name: fmt.Sprintf("s%d", s)}
		for i := range 1034 {
			v := record.Correct
			if (i*(s+3))%5 == 0 {
				v = record.Incorrect
			}
			sys.Records = append(sys.Records, record.Record{Index: i, Verdict: v, ExBird: 1})
		}
		systems = append(systems, sys)
	}
	m := exMetric(b)
	b.ReportAllocs()
	for b.Loop() {
		Summarize(m, facts, systems)
	}
}
