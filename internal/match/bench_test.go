package match

import "testing"

// BenchmarkSpiderESM is ESM for the 972 executable dev questions of one system (DAIL),
// parsing gold and prediction every time; schemas and foreign-key maps are read once
// beforehand, as the annotator caches them. One iteration = one system.
func BenchmarkSpiderESM(b *testing.B) {
	cases := readSpiderCases(b, "DAIL")
	d := loadSpiderData(b, caseDBs(cases))
	b.ResetTimer()
	for b.Loop() {
		for _, c := range cases {
			if _, err := ExactSetMatch(c.pred, c.gold, d.schemas[c.db], d.fks[c.db], Options{}); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkSpiderESMPredOnly is the annotator's per-system cost: gold queries are parsed
// and rebuilt once per question and shared by all systems, so only predictions are
// parsed per system.
func BenchmarkSpiderESMPredOnly(b *testing.B) {
	cases := readSpiderCases(b, "DAIL")
	d := loadSpiderData(b, caseDBs(cases))
	golds := make([]*Gold, len(cases))
	for i, c := range cases {
		g, err := PrepareGold(c.gold, d.schemas[c.db], d.fks[c.db], Options{})
		if err != nil {
			b.Fatal(err)
		}
		golds[i] = g
	}
	b.ResetTimer()
	for b.Loop() {
		for i, c := range cases {
			golds[i].Match(PredText(c.pred), d.schemas[c.db], d.fks[c.db], Options{})
		}
	}
}
