package taskdb_test

import (
	"context"
	"database/sql"
	"os"
	"strings"
	"testing"

	"github.com/go-sql-driver/mysql"

	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset/taskset"
	"github.com/nl2sqlbench/nl2sqlbench/internal/taskdb"
	"github.com/nl2sqlbench/nl2sqlbench/internal/testutil"
)

// BenchmarkCopy measures one copy (made and dropped) of EvalBench's db_blog (19 tables with
// rows, 20 in all) on each engine: go test ./internal/taskdb/ -run - -bench Copy
// (docs/tasks.md has the figures). MySQL/like is CREATE TABLE ... LIKE plus INSERT ...
// SELECT without the foreign keys (which LIKE drops): a lower bound of that method, to
// compare with the one MyTemplate uses (each table's SHOW CREATE TABLE text).
func BenchmarkCopy(b *testing.B) {
	dir := testutil.Shared(b, "data/evalbench/bat")
	ctx := context.Background()
	setup := func(b *testing.B, dialect string) taskdb.Setup {
		s, err := taskset.EvalBenchSetup(ctx, dir, "db_blog", dialect)
		if err != nil {
			b.Fatal(err)
		}
		return s
	}
	run := func(b *testing.B, tmpl interface {
		Copy(context.Context) (taskdb.Copy, error)
	}) {
		for b.Loop() {
			c, err := tmpl.Copy(ctx)
			if err != nil {
				b.Fatal(err)
			}
			if err := c.Drop(ctx); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.Run("sqlite", func(b *testing.B) {
		s, err := taskdb.OpenSQLite(b.TempDir())
		if err != nil {
			b.Fatal(err)
		}
		t, err := s.Template(ctx, setup(b, "sqlite"))
		if err != nil {
			b.Fatal(err)
		}
		run(b, t)
	})
	b.Run("postgres", func(b *testing.B) {
		dsn := os.Getenv("NL2SQLBENCH_PG_DSN")
		if dsn == "" {
			b.Skip("skipping: NL2SQLBENCH_PG_DSN not set")
		}
		p, err := taskdb.OpenPostgres(ctx, dsn)
		if err != nil {
			b.Fatal(err)
		}
		defer p.Close()
		t, err := p.Template(ctx, setup(b, "postgres"))
		if err != nil {
			b.Fatal(err)
		}
		run(b, t)
	})
	mydsn := os.Getenv("NL2SQLBENCH_MYSQL_DSN")
	var myt *taskdb.MyTemplate
	b.Run("mysql", func(b *testing.B) {
		if mydsn == "" {
			b.Skip("skipping: NL2SQLBENCH_MYSQL_DSN not set")
		}
		m, err := taskdb.OpenMySQL(ctx, mydsn)
		if err != nil {
			b.Fatal(err)
		}
		defer m.Close()
		if myt, err = m.Template(ctx, setup(b, "mysql")); err != nil {
			b.Fatal(err)
		}
		run(b, myt)
	})
	b.Run("mysql/like", func(b *testing.B) {
		if myt == nil {
			b.Skip("skipping: no MySQL template")
		}
		cfg, err := mysql.ParseDSN(strings.ReplaceAll(mydsn, "{db}", ""))
		if err != nil {
			b.Fatal(err)
		}
		cfg.MultiStatements = true
		c, _ := mysql.NewConnector(cfg)
		db := sql.OpenDB(c)
		defer db.Close()
		var tables []string
		rows, err := db.QueryContext(ctx, "SELECT TABLE_NAME FROM information_schema.TABLES WHERE TABLE_SCHEMA = ?", myt.Name())
		if err != nil {
			b.Fatal(err)
		}
		for rows.Next() {
			var t string
			rows.Scan(&t)
			tables = append(tables, t)
		}
		rows.Close()
		var q strings.Builder
		q.WriteString("SET SESSION FOREIGN_KEY_CHECKS = 0;")
		for _, t := range tables {
			q.WriteString("CREATE TABLE nl2sb_like_bench." + t + " LIKE " + myt.Name() + "." + t + ";")
			q.WriteString("INSERT INTO nl2sb_like_bench." + t + " SELECT * FROM " + myt.Name() + "." + t + ";")
		}
		for b.Loop() {
			if _, err := db.ExecContext(ctx, "CREATE DATABASE nl2sb_like_bench"); err != nil {
				b.Fatal(err)
			}
			if _, err := db.ExecContext(ctx, q.String()); err != nil {
				b.Fatal(err)
			}
			if _, err := db.ExecContext(ctx, "DROP DATABASE nl2sb_like_bench"); err != nil {
				b.Fatal(err)
			}
		}
	})
}
