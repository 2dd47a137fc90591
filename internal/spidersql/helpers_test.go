package spidersql

import "testing"

// concertSchema is a small hand-written schema in the style of Spider's concert_singer,
// with mixed-case names to check lowercasing.
func concertSchema() *Schema {
	return NewSchema(map[string][]string{
		"Singer":            {"Singer_ID", "Name", "Country", "Age", "Song_Name"},
		"concert":           {"concert_ID", "concert_Name", "Stadium_ID", "Year"},
		"stadium":           {"Stadium_ID", "Name", "Capacity"},
		"singer_in_concert": {"concert_ID", "Singer_ID"},
	})
}

// mustParse parses sql against concertSchema or fails the test.
func mustParse(tb testing.TB, sql string) *SQL {
	tb.Helper()
	q, err := Parse(sql, concertSchema())
	if err != nil {
		tb.Fatalf("Parse(%q): %v", sql, err)
	}
	return q
}
