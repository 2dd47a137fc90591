package sqlast

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func TestExtractSchema(t *testing.T) {
	s := testSchema(t)
	tests := []struct {
		name string
		sql  string
		want Use
	}{
		{"count star adds no column", "SELECT COUNT(*) FROM customers",
			Use{Tables: []string{"customers"}}},
		{"star adds all columns", "SELECT * FROM products",
			Use{Tables: []string{"products"}, Columns: []string{"products.id", "products.name", "products.price"}}},
		{"qualified star only its table", "SELECT c.* FROM customers AS c JOIN Orders o ON o.customer_id = c.id",
			Use{Tables: []string{"Orders", "customers"}, Columns: []string{"Orders.customer_id", "customers.city", "customers.id", "customers.name", "customers.segment"}}},
		{"case-insensitive, schema spelling out", "select TOTAL from orders where CUSTOMER_ID = 3",
			Use{Tables: []string{"Orders"}, Columns: []string{"Orders.Total", "Orders.customer_id"}}},
		{"quoted identifiers", "SELECT `order date`, [Total], \"id\" FROM \"Orders\"",
			Use{Tables: []string{"Orders"}, Columns: []string{"Orders.Total", "Orders.id", "Orders.order date"}}},
		{"double-quoted string literal (Spider)", `SELECT name FROM customers WHERE city = "Paris"`,
			Use{Tables: []string{"customers"}, Columns: []string{"customers.city", "customers.name"}}},
		{"double-quoted word naming a column is the column", `SELECT id FROM customers WHERE "city" = 'x'`,
			Use{Tables: []string{"customers"}, Columns: []string{"customers.city", "customers.id"}}},
		{"every clause", "SELECT T1.city, SUM(T2.Total) FROM customers AS T1 INNER JOIN Orders AS T2 ON T1.id = T2.customer_id " +
			"WHERE T1.segment = 'SME' GROUP BY T1.city HAVING COUNT(T2.id) > 1 ORDER BY T1.name LIMIT 3",
			Use{Tables: []string{"Orders", "customers"}, Columns: []string{"Orders.Total", "Orders.customer_id", "Orders.id",
				"customers.city", "customers.id", "customers.name", "customers.segment"}}},
		{"ambiguous unqualified", "SELECT name FROM customers, products",
			Use{Tables: []string{"customers", "products"}, Ambiguous: []string{"name"}}},
		{"unknown column", "SELECT nope, c.zip FROM customers c",
			Use{Tables: []string{"customers"}, Unresolved: []string{"c.zip", "nope"}}},
		{"unknown table", "SELECT x FROM nowhere",
			Use{Unresolved: []string{"x"}, UnknownTables: []string{"nowhere"}}},
		{"alias is local to its SELECT", "SELECT T1.name FROM customers AS T1 WHERE T1.id IN (SELECT T1.customer_id FROM Orders AS T1)",
			Use{Tables: []string{"Orders", "customers"}, Columns: []string{"Orders.customer_id", "customers.id", "customers.name"}}},
		{"correlated subquery sees outer alias", "SELECT c.name FROM customers c WHERE EXISTS (SELECT 1 FROM Orders o WHERE o.customer_id = c.id AND segment = 'x')",
			Use{Tables: []string{"Orders", "customers"}, Columns: []string{"Orders.customer_id", "customers.id", "customers.name", "customers.segment"}}},
		{"subquery in FROM maps back", "SELECT s.n FROM (SELECT name AS n, price FROM products) AS s WHERE s.price > 2",
			Use{Tables: []string{"products"}, Columns: []string{"products.name", "products.price"}}},
		{"CTE maps back, CTE shadows nothing else", "WITH big AS (SELECT customer_id AS cid, Total FROM Orders WHERE Total > 100) " +
			"SELECT c.name FROM customers c JOIN big ON big.cid = c.id",
			Use{Tables: []string{"Orders", "customers"}, Columns: []string{"Orders.Total", "Orders.customer_id", "customers.id", "customers.name"}}},
		{"CTE with column list", "WITH t(a) AS (SELECT price FROM products) SELECT a FROM t",
			Use{Tables: []string{"products"}, Columns: []string{"products.price"}}},
		{"set operations", "SELECT name FROM customers UNION SELECT name FROM products EXCEPT SELECT city FROM customers ORDER BY name",
			Use{Tables: []string{"customers", "products"}, Columns: []string{"customers.city", "customers.name", "products.name"}}},
		{"result alias in ORDER BY adds nothing", "SELECT city, COUNT(*) AS cnt FROM customers GROUP BY city ORDER BY cnt DESC",
			Use{Tables: []string{"customers"}, Columns: []string{"customers.city"}}},
		{"USING uses both sides, not ambiguous", "SELECT order_id FROM ORDER_ITEMS JOIN ORDER_ITEMS AS b USING (order_id)",
			Use{Tables: []string{"ORDER_ITEMS"}, Columns: []string{"ORDER_ITEMS.order_id"}}},
		{"NATURAL join shared columns", "SELECT Total FROM Orders NATURAL JOIN products",
			Use{Tables: []string{"Orders", "products"}, Columns: []string{"Orders.Total", "Orders.id", "products.id"}}},
		{"BIRD functions", "SELECT CAST(SUM(IIF(segment = 'SME', 1, 0)) AS REAL) * 100 / COUNT(id), STRFTIME('%Y', city) || name FROM customers",
			Use{Tables: []string{"customers"}, Columns: []string{"customers.city", "customers.id", "customers.name", "customers.segment"}}},
		{"window function", "SELECT id, RANK() OVER (PARTITION BY customer_id ORDER BY Total DESC) FROM Orders",
			Use{Tables: []string{"Orders"}, Columns: []string{"Orders.Total", "Orders.customer_id", "Orders.id"}}},
		{"recursive CTE", "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 3) SELECT x FROM n",
			Use{}},
		{"scalar subquery and IN list", "SELECT name FROM products WHERE price = (SELECT MAX(price) FROM products) AND id IN (1, 2)",
			Use{Tables: []string{"products"}, Columns: []string{"products.id", "products.name", "products.price"}}},
		{"rowid is implicit", "SELECT rowid, name FROM customers",
			Use{Tables: []string{"customers"}, Columns: []string{"customers.name"}}},
		{"schema-qualified names", "SELECT main.customers.name FROM main.customers",
			Use{Tables: []string{"customers"}, Columns: []string{"customers.name"}}},
		{"table name as qualifier", "SELECT customers.name FROM customers",
			Use{Tables: []string{"customers"}, Columns: []string{"customers.name"}}},
		{"ON may name a table joined later (SQLite accepts it)", "SELECT c.name FROM customers AS c JOIN Orders AS o ON c.id = i.order_id JOIN ORDER_ITEMS AS i ON o.id = i.order_id",
			Use{Tables: []string{"ORDER_ITEMS", "Orders", "customers"}, Columns: []string{"ORDER_ITEMS.order_id", "Orders.id", "customers.id", "customers.name"}}},
		{"CTE shadows a base table", "WITH products AS (SELECT id FROM customers) SELECT id FROM products",
			Use{Tables: []string{"customers"}, Columns: []string{"customers.id"}}},
		{"non-recursive CTE body names the base table", "WITH products AS (SELECT price FROM products) SELECT * FROM products",
			Use{Tables: []string{"products"}, Columns: []string{"products.price"}}},
		{"result alias in WHERE (SQLite extension)", "SELECT price * 2 AS p FROM products WHERE p > 3",
			Use{Tables: []string{"products"}, Columns: []string{"products.price"}}},
		{"compound ORDER BY names the first core's alias", "SELECT name AS n FROM customers UNION SELECT name FROM products ORDER BY n",
			Use{Tables: []string{"customers", "products"}, Columns: []string{"customers.name", "products.name"}}},
		{"inner scope wins over outer", "SELECT name FROM customers WHERE id IN (SELECT id FROM products)",
			Use{Tables: []string{"customers", "products"}, Columns: []string{"customers.id", "customers.name", "products.id"}}},
		{"unaliased subquery in FROM", "SELECT n FROM (SELECT name AS n FROM products)",
			Use{Tables: []string{"products"}, Columns: []string{"products.name"}}},
		{"IN table", "SELECT name FROM customers WHERE id IN ORDER_ITEMS",
			Use{Tables: []string{"ORDER_ITEMS", "customers"}, Columns: []string{"ORDER_ITEMS.order_id", "ORDER_ITEMS.product_id", "ORDER_ITEMS.qty", "customers.id", "customers.name"}}},
		{"VALUES and a CASE", "SELECT CASE WHEN qty > 1 THEN 'many' ELSE 'one' END FROM ORDER_ITEMS UNION VALUES (1)",
			Use{Tables: []string{"ORDER_ITEMS"}, Columns: []string{"ORDER_ITEMS.qty"}}},
		{"alias hides the table name", "SELECT customers.name FROM customers AS c",
			Use{Tables: []string{"customers"}, Unresolved: []string{"customers.name"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ExtractSchema(tt.sql, s)
			if err != nil {
				t.Fatalf("ExtractSchema(%q): %v", tt.sql, err)
			}
			if diff := cmp.Diff(&tt.want, got, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("ExtractSchema(%q) (-want +got):\n%s", tt.sql, diff)
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		sql  string
		want error
	}{
		{"", ErrParse},
		{" ; ", ErrParse},
		{"SELECT FROM", ErrParse},
		{"SELECT 1; SELECT 2", ErrParse},
		{"SELECT name FROM t WHERE", ErrParse},
	}
	for _, tt := range tests {
		if _, err := Parse(tt.sql); !errors.Is(err, tt.want) {
			t.Errorf("Parse(%q) = %v, want %v", tt.sql, err, tt.want)
		}
	}
	if _, err := ExtractSchema("DELETE FROM customers", testSchema(t)); !errors.Is(err, ErrNotSelect) {
		t.Errorf("ExtractSchema(DELETE) = %v, want ErrNotSelect", err)
	}
	q, err := Parse("SELECT 1;")
	if err != nil || !q.IsSelect() || q.Kind() != "select" {
		t.Errorf(`Parse("SELECT 1;") = %v, %v; want a select`, q, err)
	}
}

func TestTableColumns(t *testing.T) {
	u, err := ExtractSchema("SELECT COUNT(*) FROM customers c JOIN Orders o ON o.customer_id = c.id", testSchema(t))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{"customers": {"id"}, "Orders": {"customer_id"}}
	if diff := cmp.Diff(want, u.TableColumns()); diff != "" {
		t.Errorf("TableColumns (-want +got):\n%s", diff)
	}
	u, _ = ExtractSchema("SELECT COUNT(*) FROM products", testSchema(t))
	if diff := cmp.Diff(map[string][]string{"products": {}}, u.TableColumns()); diff != "" {
		t.Errorf("TableColumns of COUNT(*) (-want +got):\n%s", diff)
	}
}

func TestExtractSchemaNilSchema(t *testing.T) {
	u, err := ExtractSchema("SELECT a.x FROM t AS a", nil)
	if err != nil {
		t.Fatal(err)
	}
	want := &Use{Unresolved: []string{"a.x"}, UnknownTables: []string{"t"}}
	if diff := cmp.Diff(want, u, cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("nil schema (-want +got):\n%s", diff)
	}
}

// FuzzExtractSchema: no input makes parsing or resolution panic, and a result always
// has sorted, unique lists.
func FuzzExtractSchema(f *testing.F) {
	for _, s := range []string{
		"SELECT * FROM customers", "WITH RECURSIVE a(x) AS (SELECT 1 UNION SELECT x+1 FROM a) SELECT * FROM a",
		"SELECT (SELECT t.* FROM t)", "SELECT a.b.c.d FROM a", "SELECT * FROM (SELECT * FROM (VALUES (1)))",
		"SELECT x FROM json_each('[1]') WHERE key = 1", "SELECT 1 FROM customers NATURAL JOIN Orders USING (id)",
	} {
		f.Add(s)
	}
	s := testSchema(f)
	f.Fuzz(func(t *testing.T, sql string) {
		u, err := ExtractSchema(sql, s)
		if err != nil {
			if !errors.Is(err, ErrParse) && !errors.Is(err, ErrNotSelect) {
				t.Fatalf("error %v wraps neither ErrParse nor ErrNotSelect", err)
			}
			return
		}
		for _, l := range [][]string{u.Tables, u.Columns, u.Unresolved, u.Ambiguous} {
			if !slices.IsSorted(l) || len(slices.Compact(slices.Clone(l))) != len(l) {
				t.Fatalf("list %v not sorted and unique", l)
			}
		}
	})
}

// TestParseDeepTree: a chain of binary operators is parsed in a loop, so its tree can be
// millions of levels deep; before the depth check the resolver ran out of goroutine
// stack on a 10 MB prediction ("SELECT 1+1+...") and the whole eval died.
func TestParseDeepTree(t *testing.T) {
	tests := []struct {
		name string
		sql  string
		ok   bool
	}{
		{"shallow long IN list", "SELECT name FROM customers WHERE id IN (" + strings.Repeat("1,", 50000) + "1)", true},
		{"chain under the limit", "SELECT " + strings.Repeat("1+", MaxDepth/2) + "1", true},
		{"chain over the limit", "SELECT " + strings.Repeat("1+", 2*MaxDepth) + "1", false},
		{"AND chain", "SELECT name FROM customers WHERE " + strings.Repeat("id>1 AND ", 20_000) + "id>1", false},
		{"concatenation", "SELECT 'a'" + strings.Repeat("||'a'", 20_000), false},
	}
	s := testSchema(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ExtractSchema(tt.sql, s)
			if tt.ok && err != nil {
				t.Fatalf("ExtractSchema = %v, want a schema", err)
			}
			if !tt.ok && (!errors.Is(err, ErrParse) || !strings.Contains(err.Error(), "deeper than")) {
				t.Fatalf("ExtractSchema = %v, want ErrParse naming the depth", err)
			}
		})
	}
}
