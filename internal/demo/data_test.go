package demo

import (
	"context"
	"database/sql"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Questions whose gold deliberately does not run: the broken gold and the missing database.
const (
	brokenGoldQID = "lib-021"
	missingDBQID  = "arc-001"
)

func TestQuestionsFile(t *testing.T) {
	f := buildDemo(t)
	qs := readQuestions(t, f.Questions)
	if len(qs) < 45 {
		t.Fatalf("%d questions, want at least 45", len(qs))
	}
	ids := map[string]bool{}
	diff := map[string]int{}
	withEvidence, multiGold := 0, 0
	for _, q := range qs {
		if ids[q.ID] {
			t.Errorf("duplicate question_id %s", q.ID)
		}
		ids[q.ID] = true
		if q.DBID == "" || strings.TrimSpace(q.Text) == "" || len(q.Gold) == 0 {
			t.Errorf("%s: incomplete question %+v", q.ID, q)
		}
		for _, g := range q.Gold {
			if strings.TrimSpace(g) == "" {
				t.Errorf("%s: empty gold SQL", q.ID)
			}
		}
		diff[q.Difficulty]++
		if q.Evidence != "" {
			withEvidence++
		}
		if len(q.Gold) > 1 {
			multiGold++
		}
	}
	for _, d := range []string{"simple", "moderate", "challenging"} {
		if diff[d] < 10 {
			t.Errorf("only %d %s questions, want at least 10", diff[d], d)
		}
	}
	if len(diff) != 3 {
		t.Errorf("difficulties %v, want only simple/moderate/challenging", diff)
	}
	if withEvidence*4 < len(qs)*3 {
		t.Errorf("evidence on %d of %d questions, want most", withEvidence, len(qs))
	}
	if multiGold == 0 {
		t.Error("no question with more than one accepted gold SQL")
	}
	for _, id := range []string{brokenGoldQID, missingDBQID} {
		if !ids[id] {
			t.Errorf("demo question %s is missing", id)
		}
	}
}

func TestSystemsAnswerEveryQuestion(t *testing.T) {
	f := buildDemo(t)
	qs := readQuestions(t, f.Questions)
	tests := []struct {
		system        string
		flat          bool
		minCandidates int
		maxCandidates int
	}{
		{"baseline", true, 0, 0},
		{"reviser", false, 1, 1},
		{"sampler-5", false, 5, 100},
	}
	for _, tt := range tests {
		t.Run(tt.system, func(t *testing.T) {
			answers := readSystem(t, f.Systems[tt.system])
			if len(answers) != len(qs) {
				t.Errorf("%d answers for %d questions", len(answers), len(qs))
			}
			revised, tokens := 0, map[int]bool{}
			for _, q := range qs {
				a := answers[q.ID]
				if a == nil {
					t.Errorf("no answer for %s", q.ID)
					continue
				}
				if a.DBID != q.DBID {
					t.Errorf("%s: db_id %q, question says %q", q.ID, a.DBID, q.DBID)
				}
				if a.Flat != tt.flat {
					t.Errorf("%s: flat = %v, want %v", q.ID, a.Flat, tt.flat)
				}
				if n := len(a.Candidates); !tt.flat && (n < tt.minCandidates || n > tt.maxCandidates) {
					t.Errorf("%s: %d candidates, want %d..%d", q.ID, n, tt.minCandidates, tt.maxCandidates)
				}
				if !tt.flat && len(a.Schema) == 0 {
					t.Errorf("%s: no schema_selection node", q.ID)
				}
				if a.Tokens <= 0 || a.Calls <= 0 {
					t.Errorf("%s: tokens %d, calls %d: want both positive", q.ID, a.Tokens, a.Calls)
				}
				tokens[a.Tokens] = true
				if a.Revised {
					revised++
				}
			}
			// Usage must vary per question, as a real system's does.
			if len(tokens) < len(qs)*3/4 {
				t.Errorf("only %d distinct token counts over %d questions", len(tokens), len(qs))
			}
			if tt.system == "reviser" && revised*2 <= len(qs) {
				t.Errorf("reviser revised %d of %d questions, want most", revised, len(qs))
			}
		})
	}
}

// TestSchemaSelectionNamesRealColumns checks that every table and column a system selected
// exists in the database, so schema-selection metrics compare like with like.
func TestSchemaSelectionNamesRealColumns(t *testing.T) {
	f := buildDemo(t)
	qs := readQuestions(t, f.Questions)
	cols := map[string]map[string]bool{} // db.table -> columns
	for _, db := range []string{"library", "shop"} {
		conn := openRO(t, filepath.Join(f.DBRoot, db, db+".sqlite"))
		rows, err := conn.Query(`SELECT m.name, p.name FROM sqlite_master AS m, pragma_table_info(m.name) AS p WHERE m.type = 'table'`)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var tbl, col string
			if err := rows.Scan(&tbl, &col); err != nil {
				t.Fatal(err)
			}
			if cols[db+"."+tbl] == nil {
				cols[db+"."+tbl] = map[string]bool{}
			}
			cols[db+"."+tbl][col] = true
		}
		rows.Close()
	}
	for _, system := range []string{"reviser", "sampler-5"} {
		answers := readSystem(t, f.Systems[system])
		for _, q := range qs {
			if q.DBID == "archive" {
				continue
			}
			for tbl, cs := range answers[q.ID].Schema {
				known := cols[q.DBID+"."+tbl]
				if known == nil {
					t.Errorf("%s %s: selected unknown table %s", system, q.ID, tbl)
					continue
				}
				for _, c := range cs {
					if !known[c] {
						t.Errorf("%s %s: selected unknown column %s.%s", system, q.ID, tbl, c)
					}
				}
			}
		}
	}
}

func TestGoldRuns(t *testing.T) {
	f := buildDemo(t)
	qs := readQuestions(t, f.Questions)
	dbs := map[string]*sql.DB{}
	for _, id := range []string{"library", "shop"} {
		dbs[id] = openRO(t, filepath.Join(f.DBRoot, id, id+".sqlite"))
	}
	ctx := context.Background()
	ran, nonEmpty := 0, 0
	for _, q := range qs {
		db := dbs[q.DBID]
		if q.ID == missingDBQID {
			if db != nil {
				t.Errorf("%s: its database %s exists, but it should demonstrate 'skipped'", q.ID, q.DBID)
			}
			continue
		}
		if db == nil {
			t.Errorf("%s: no database %s", q.ID, q.DBID)
			continue
		}
		for i, g := range q.Gold {
			qctx, cancel := context.WithTimeout(ctx, 500*time.Millisecond)
			res, err := runQuery(qctx, db, g, 10000)
			cancel()
			if q.ID == brokenGoldQID {
				if err == nil || !strings.Contains(err.Error(), "no such column") {
					t.Errorf("%s: the deliberately broken gold should fail with 'no such column', got %v", q.ID, err)
				}
				continue
			}
			if err != nil {
				t.Errorf("%s gold %d: %v", q.ID, i, err)
				continue
			}
			if len(res.Rows) > 10000 {
				t.Errorf("%s gold %d: more than 10,000 rows", q.ID, i)
			}
			ran++
			if len(res.Rows) > 0 {
				nonEmpty++
			}
		}
	}
	if nonEmpty*10 < ran*9 {
		t.Errorf("%d of %d gold queries return rows, want at least 90%%", nonEmpty, ran)
	}
}

// TestScriptsHoldWhatTheyPromise checks the data features the questions rely on.
func TestScriptsHoldWhatTheyPromise(t *testing.T) {
	f := buildDemo(t)
	lib := openRO(t, filepath.Join(f.DBRoot, "library", "library.sqlite"))
	shop := openRO(t, filepath.Join(f.DBRoot, "shop", "shop.sqlite"))
	tests := []struct {
		name  string
		db    *sql.DB
		query string
		check func(n float64) bool
	}{
		{"a city with a trailing space", lib, `SELECT COUNT(*) FROM members WHERE city <> TRIM(city)`, func(n float64) bool { return n >= 1 }},
		{"a mixed-case e-mail", shop, `SELECT COUNT(*) FROM customers WHERE email <> LOWER(email)`, func(n float64) bool { return n >= 1 }},
		{"loans: tens to hundreds of rows", lib, `SELECT COUNT(*) FROM loans`, func(n float64) bool { return n >= 50 && n <= 1000 }},
		{"order items: tens to hundreds of rows", shop, `SELECT COUNT(*) FROM order_items`, func(n float64) bool { return n >= 50 && n <= 1000 }},
		{"foreign keys hold (library)", lib, `SELECT COUNT(*) FROM pragma_foreign_key_check`, func(n float64) bool { return n == 0 }},
		{"foreign keys hold (shop)", shop, `SELECT COUNT(*) FROM pragma_foreign_key_check`, func(n float64) bool { return n == 0 }},
		{"no loan before its member joined", lib, `SELECT COUNT(*) FROM loans AS l JOIN members AS m ON m.member_id = l.member_id WHERE l.loan_date < m.joined_on`, func(n float64) bool { return n == 0 }},
		{"no order before its customer signed up", shop, `SELECT COUNT(*) FROM orders AS o JOIN customers AS c ON c.customer_id = o.customer_id WHERE o.order_date < c.signup_date`, func(n float64) bool { return n == 0 }},
		{"dates are ISO text", lib, `SELECT COUNT(*) FROM loans WHERE typeof(loan_date) <> 'text' OR loan_date NOT GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'`, func(n float64) bool { return n == 0 }},
		{"prices are REAL", shop, `SELECT COUNT(*) FROM products WHERE typeof(unit_price) <> 'real'`, func(n float64) bool { return n == 0 }},
		{"a single most active member", lib, `SELECT COUNT(*) FROM (SELECT COUNT(*) AS c FROM loans GROUP BY member_id) WHERE c = (SELECT MAX(c) FROM (SELECT COUNT(*) AS c FROM loans GROUP BY member_id))`, func(n float64) bool { return n == 1 }},
		{"a single best-selling product", shop, `SELECT COUNT(*) FROM (SELECT SUM(quantity) AS q FROM order_items GROUP BY product_id) WHERE q = (SELECT MAX(q) FROM (SELECT SUM(quantity) AS q FROM order_items GROUP BY product_id))`, func(n float64) bool { return n == 1 }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var n float64
			if err := tt.db.QueryRow(tt.query).Scan(&n); err != nil {
				t.Fatal(err)
			}
			if !tt.check(n) {
				t.Errorf("%s: got %v", tt.query, n)
			}
		})
	}
}

// TestScriptsDeclareConstraints checks that each script shows every kind of column the
// brief asks for, so the schema extractor has something to extract.
func TestScriptsDeclareConstraints(t *testing.T) {
	for _, id := range []string{"library", "shop"} {
		b, err := embedded.ReadFile("data/sql/" + id + ".sql")
		if err != nil {
			t.Fatal(err)
		}
		s := string(b)
		for _, want := range []string{"PRIMARY KEY", "FOREIGN KEY", "UNIQUE", "NOT NULL", " DATE ", " REAL"} {
			if !strings.Contains(s, want) {
				t.Errorf("%s.sql does not use %q", id, want)
			}
		}
	}
}
