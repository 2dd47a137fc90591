package dataset

import (
	"strings"
	"testing"
)

// singerTables is a tables.json with one database, names in their original case.
const singerTables = `[{"db_id": "concert", "table_names_original": ["Singer", "Concert"],
 "column_names_original": [[-1, "*"], [0, "Singer_ID"], [0, "Name"], [0, "Age"], [1, "Concert_ID"], [1, "Singer_ID"], [1, "Year"]],
 "column_types": ["text", "number", "text", "number", "number", "number", "text"],
 "primary_keys": [1, 4], "foreign_keys": [[5, 1]]}]`

const spiderDev = `[
 {"db_id": "concert", "query": "SELECT count(*) FROM singer", "question": "How many singers?", "sql": {"select": []}},
 {"db_id": "concert", "query": "SELECT name FROM singer WHERE age > 30 AND singer_id IN (SELECT singer_id FROM concert WHERE year = 2014)", "question": "Who?"},
 {"db_id": "concert", "query": "SELECT nosuchcolumn FROM singer", "question": "Bad?"},
 {"db_id": "elsewhere", "query": "SELECT 1", "question": "Other db?"}
]`

func TestLoadSpider(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"dev.json":                         spiderDev,
		"dev_gold.sql":                     "SELECT count(*) FROM singer\tconcert\n\nSELECT name FROM singer WHERE age > 30 AND singer_id IN (SELECT singer_id FROM concert WHERE year = 2014)\tconcert\r\n",
		"tables.json":                      singerTables,
		"database/concert/concert.sqlite":  "",
		"database/elsewhere/elsewhere.sql": "",
	})
	d := load(t, "spider:"+dir, Options{})
	if d.Kind != KindSpider || !strings.HasSuffix(d.Path, "dev.json") || !strings.HasSuffix(d.DBRoot, "database") || !strings.HasSuffix(d.Tables, "tables.json") {
		t.Errorf("dataset %+v", d)
	}
	if len(d.Questions) != 4 {
		t.Fatalf("%d questions, want 4", len(d.Questions))
	}
	q := d.Questions[0]
	if q.ID != "0" || q.DBID != "concert" || q.Text != "How many singers?" || q.Gold[0] != "SELECT count(*) FROM singer" || q.Difficulty != "easy" {
		t.Errorf("question 0: %+v", q)
	}
	if got := d.Questions[1].Difficulty; got != "hard" && got != "extra" {
		t.Errorf("nested question's hardness %q, want hard or extra", got)
	}
	// Unknown column and a db missing from tables.json: unknown, with warnings, no error.
	if d.Questions[2].Difficulty != Unknown || d.Questions[3].Difficulty != Unknown {
		t.Errorf("difficulties %q, %q; want unknown", d.Questions[2].Difficulty, d.Questions[3].Difficulty)
	}
	joined := strings.Join(d.Warnings, "\n")
	for _, want := range []string{"question 2 (db concert)", "db elsewhere is not in"} {
		if !strings.Contains(joined, want) {
			t.Errorf("warnings %q do not mention %q", d.Warnings, want)
		}
	}
	if p, ok := d.DBPath("concert"); !ok || !strings.HasSuffix(p, "database/concert/concert.sqlite") {
		t.Errorf("DBPath(concert) = %q, %v", p, ok)
	}
	if _, ok := d.DBPath("elsewhere"); ok {
		t.Error("DBPath(elsewhere) found a database that has the wrong name")
	}

	// The gold file: blank lines skipped, CRLF stripped, same hardness as the JSON.
	g := load(t, "spider:"+dir+"/dev_gold.sql", Options{})
	if len(g.Questions) != 2 {
		t.Fatalf("gold file: %d questions, want 2", len(g.Questions))
	}
	for i, q := range g.Questions {
		if q.ID != d.Questions[i].ID || q.DBID != "concert" || q.Gold[0] != d.Questions[i].Gold[0] || q.Difficulty != d.Questions[i].Difficulty {
			t.Errorf("gold question %d = %+v, JSON gave %+v", i, q, d.Questions[i])
		}
	}
}

func TestLoadSpiderWithoutTables(t *testing.T) {
	dir := writeFiles(t, map[string]string{"dev_gold.sql": "SELECT 1\tdb\n", "other/t.json": singerTables})
	d := load(t, "spider:"+dir, Options{DBRoot: dir})
	if d.Questions[0].Difficulty != Unknown || len(d.Warnings) != 1 || !strings.Contains(d.Warnings[0], "no tables.json") {
		t.Errorf("difficulty %q, warnings %q", d.Questions[0].Difficulty, d.Warnings)
	}
	// A malformed tables.json is a warning too: difficulty is a breakdown, not a verdict.
	bad := writeFiles(t, map[string]string{"dev_gold.sql": "SELECT 1\tdb\n", "tables.json": "{"})
	d = load(t, "spider:"+bad, Options{})
	if d.Questions[0].Difficulty != Unknown || len(d.Warnings) != 1 || !strings.Contains(d.Warnings[0], "tables.json") {
		t.Errorf("difficulty %q, warnings %q", d.Questions[0].Difficulty, d.Warnings)
	}
	// --tables points elsewhere.
	d = load(t, "spider:"+dir, Options{Tables: dir + "/other/t.json"})
	if !strings.HasSuffix(d.Tables, "other/t.json") {
		t.Errorf("tables %q", d.Tables)
	}
}

// Many unparseable gold queries give a capped list of warnings and a count.
func TestSpiderWarningsCapped(t *testing.T) {
	var gold strings.Builder
	for range 25 {
		gold.WriteString("SELECT nosuch FROM singer\tconcert\n")
	}
	dir := writeFiles(t, map[string]string{"dev_gold.sql": gold.String(), "tables.json": singerTables})
	d := load(t, "spider:"+dir, Options{})
	if len(d.Warnings) != maxHardnessWarnings+1 || !strings.Contains(d.Warnings[maxHardnessWarnings], "15 more questions") {
		t.Errorf("%d warnings, last %q", len(d.Warnings), d.Warnings[len(d.Warnings)-1])
	}
}
