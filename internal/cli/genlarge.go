package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
)

// gen-large writes a synthetic benchmark for VES and R-VES at scale: a shop database of
// customers, orders and order items (three related tables) in two copies, with and
// without secondary indexes, a JSONL question file, and two prediction files whose
// predictions are all correct, one written the fast way and one the slow way.

// largeDBs are the two copies of the generated database.
var largeDBs = []struct {
	id      string
	indexes bool
}{{"shop_idx", true}, {"shop_noidx", false}}

// largeTriple is one question with a gold and two correct predictions, Fast running
// faster than Slow on the generated data. Clear marks the triples whose two predictions
// differ at least twofold on both copies (with and without indexes) on every SQLite
// version tried; the others depend on the query planner.
type largeTriple struct {
	ID, Question, Gold, Fast, Slow string
	Clear                          bool
}

// largeTriples pair SQL that returns the same rows at different speeds.
var largeTriples = []largeTriple{
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

// generateLarge writes the databases (both copies), questions.jsonl, fast.txt and
// slow.txt under dir. rows is the total over the three tables.
func generateLarge(ctx context.Context, dir string, rows int) error {
	if rows < 10 {
		return fmt.Errorf("gen-large: rows must be at least 10, not %d", rows)
	}
	for _, d := range largeDBs {
		path := filepath.Join(dir, d.id, d.id+".sqlite")
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return fmt.Errorf("gen-large: %w", err)
		}
		if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("gen-large: %w", err)
		}
		if err := writeLargeDB(ctx, path, rows, d.indexes); err != nil {
			return fmt.Errorf("gen-large %s: %w", path, err)
		}
	}
	var qs, fast, slow strings.Builder
	for _, d := range largeDBs {
		for _, t := range largeTriples {
			diff := "noindex"
			if d.indexes {
				diff = "index"
			}
			b, err := json.Marshal(map[string]string{"question_id": t.ID + "_" + d.id, "db_id": d.id,
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

func newGenLargeCmd(e *env) *cobra.Command {
	var out string
	var rows int
	cmd := &cobra.Command{
		Use:     "gen-large --out DIR [--rows N]",
		Example: `  nl2sqlbench gen-large --out /tmp/large --rows 100000`,
		Short:   "Write a large synthetic benchmark for VES and R-VES",
		Long: `Write a synthetic shop database (customers, orders, items; N rows in all, split 1:3:6)
twice, with and without secondary indexes, and a benchmark over it:

  DIR/shop_idx/shop_idx.sqlite, DIR/shop_noidx/shop_noidx.sqlite
  DIR/questions.jsonl   questions with gold SQL (difficulty: index / noindex)
  DIR/fast.txt          correct predictions written the fast way
  DIR/slow.txt          correct predictions written the slow way (COUNT(pk) vs COUNT(*),
                        ORDER BY ... LIMIT 1 vs MAX, correlated EXISTS vs IN)

Judge them with: eval --dataset jsonl:DIR/questions.jsonl --pred DIR/fast.txt --pred DIR/slow.txt --ves`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if out == "" {
				return usagef("--out is required")
			}
			if err := generateLarge(cmd.Context(), out, rows); err != nil {
				return err
			}
			_, err := fmt.Fprintf(e.stdout, "wrote %d rows x %d databases under %s\n", rows, len(largeDBs), out)
			return err
		},
	}
	cmd.Flags().StringVar(&out, "out", "", "directory to write")
	cmd.Flags().IntVar(&rows, "rows", 5_000_000, "rows over the three tables")
	return cmd
}
