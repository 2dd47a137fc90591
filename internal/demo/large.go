package demo

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
)

// GenerateLarge is gen-large's synthetic benchmark for VES and R-VES at scale: a shop
// database of customers, orders and order items (three related tables) in two copies,
// with and without secondary indexes, a JSONL question file, and two prediction files
// whose predictions are all correct, one written the fast way and one the slow way.

// LargeDBs are the two copies of the generated database.
var LargeDBs = []struct {
	ID      string
	Indexes bool
}{{"shop_idx", true}, {"shop_noidx", false}}

// LargeTriple is one question with a gold and two correct predictions, Fast running
// faster than Slow on the generated data. Clear marks the triples whose two predictions
// differ at least twofold on both copies (with and without indexes) on every SQLite
// version tried; the others depend on the query planner.
type LargeTriple struct {
	ID, Question, Gold, Fast, Slow string
	Clear                          bool
}

// LargeTriples pair SQL that returns the same rows at different speeds.
var LargeTriples = []LargeTriple{
	{
		ID:       "count",
		Question: "How many order items are there?",
		Gold:     "SELECT count(*) FROM items",
		Fast:     "SELECT count(*) FROM items",
		// COUNT(pk) reads every row; COUNT(*) uses SQLite's b-tree count
		Slow:  "SELECT count(id) FROM items",
		Clear: true,
	},
	{
		ID:       "max",
		Question: "What is the largest order amount?",
		Gold:     "SELECT amount FROM orders ORDER BY amount DESC LIMIT 1",
		Fast:     "SELECT max(amount) FROM orders",
		// ORDER BY on an expression (and DISTINCT) cannot use the index and sorts everything
		Slow:  "SELECT DISTINCT amount FROM orders ORDER BY amount + 0 DESC LIMIT 1",
		Clear: true,
	},
	{
		ID:       "in_vs_join",
		Question: "How many orders were placed by customers in region r7?",
		Gold:     "SELECT count(*) FROM orders AS o JOIN customers AS c ON o.customer_id = c.id WHERE c.region = 'r7'",
		Fast:     "SELECT count(*) FROM orders WHERE customer_id IN (SELECT id FROM customers WHERE region = 'r7')",
		// a correlated EXISTS probes customers once per order
		Slow: "SELECT count(*) FROM orders AS o WHERE EXISTS (SELECT 1 FROM customers AS c WHERE c.id = o.customer_id AND c.region = 'r7')",
	},
}

// largeTableRows splits n rows over the three tables as 1 : 3 : 6.
func largeTableRows(n int) (customers, orders, items int) {
	customers = max(n/10, 1)
	orders = max(n*3/10, 1)
	items = max(n-customers-orders, 1)
	return customers, orders, items
}

// GenerateLarge writes the databases (both copies), questions.jsonl, fast.txt and
// slow.txt under dir. rows is the total over the three tables.
func GenerateLarge(ctx context.Context, dir string, rows int) error {
	if rows < 10 {
		return fmt.Errorf("gen-large: rows must be at least 10, not %d", rows)
	}
	for _, d := range LargeDBs {
		path := filepath.Join(dir, d.ID, d.ID+".sqlite")
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return fmt.Errorf("gen-large: %w", err)
		}
		if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("gen-large: %w", err)
		}
		if err := writeLargeDB(ctx, path, rows, d.Indexes); err != nil {
			return fmt.Errorf("gen-large %s: %w", path, err)
		}
	}
	var qs, fast, slow strings.Builder
	for _, d := range LargeDBs {
		for _, t := range LargeTriples {
			diff := "noindex"
			if d.Indexes {
				diff = "index"
			}
			b, err := json.Marshal(map[string]string{"question_id": t.ID + "_" + d.ID, "db_id": d.ID,
				"question": t.Question, "gold": t.Gold, "difficulty": diff})
			if err != nil {
				return err
			}
			qs.Write(b)
			qs.WriteByte('\n')
			fast.WriteString(t.Fast + "\n")
			slow.WriteString(t.Slow + "\n")
		}
	}
	for name, s := range map[string]string{"questions.jsonl": qs.String(), "fast.txt": fast.String(), "slow.txt": slow.String()} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(s), 0o644); err != nil {
			return fmt.Errorf("gen-large: %w", err)
		}
	}
	return nil
}

// writeLargeDB fills one database inside SQLite with recursive CTEs (no row crosses
// into Go), values spread by multiplicative hashing so they are fixed for a given n.
func writeLargeDB(ctx context.Context, path string, n int, indexes bool) error {
	db, err := engine.OpenSQLiteFile(path, "_journal_mode=OFF&_synchronous=OFF")
	if err != nil {
		return err
	}
	defer db.Close()
	nc, no, ni := largeTableRows(n)
	stmts := []string{
		`CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT NOT NULL, region TEXT NOT NULL, signup INTEGER NOT NULL)`,
		`CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER NOT NULL REFERENCES customers(id), amount REAL NOT NULL, status TEXT NOT NULL, created INTEGER NOT NULL)`,
		`CREATE TABLE items (id INTEGER PRIMARY KEY, order_id INTEGER NOT NULL REFERENCES orders(id), product TEXT NOT NULL, qty INTEGER NOT NULL, price REAL NOT NULL)`,
		fmt.Sprintf(`WITH RECURSIVE s(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM s WHERE x < %d)
			INSERT INTO customers SELECT x, 'customer ' || x, 'r' || ((x * 7919) %% 20), 20000 + (x * 104729) %% 3650 FROM s`, nc),
		fmt.Sprintf(`WITH RECURSIVE s(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM s WHERE x < %d)
			INSERT INTO orders SELECT x, 1 + (x * 2654435761) %% %d, ((x * 40503) %% 1000000) / 100.0,
			CASE (x %% 4) WHEN 0 THEN 'new' WHEN 1 THEN 'paid' WHEN 2 THEN 'shipped' ELSE 'returned' END,
			20000 + (x * 7) %% 3650 FROM s`, no, nc),
		fmt.Sprintf(`WITH RECURSIVE s(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM s WHERE x < %d)
			INSERT INTO items SELECT x, 1 + (x * 2246822519) %% %d, 'product ' || ((x * 31) %% 5000), 1 + x %% 9, ((x * 97) %% 10000) / 100.0 FROM s`, ni, no),
	}
	if indexes {
		stmts = append(stmts,
			`CREATE INDEX orders_customer ON orders(customer_id)`,
			`CREATE INDEX orders_amount ON orders(amount)`,
			`CREATE INDEX items_order ON items(order_id)`,
			`CREATE INDEX customers_region ON customers(region)`)
	}
	stmts = append(stmts, `ANALYZE`)
	for _, s := range stmts {
		if _, err := db.ExecContext(ctx, s); err != nil {
			return fmt.Errorf("%.60s...: %w", s, err)
		}
	}
	return nil
}
