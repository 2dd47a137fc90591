package engine_test

import (
	"context"
	"database/sql"
	"strings"
	"testing"
	"time"

	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
)

// TestPostgresMixedCaseSchema: a db_id with capitals (Spider's cre_Doc_Template_Mgt),
// loaded by load-db as the quoted schema "cre_Doc_Template_Mgt", was never reached:
// the DSN's search_path={db} named it unquoted, PostgreSQL folded it to lower case, and
// every query on it failed (relation does not exist). search_path now names it quoted.
func TestPostgresMixedCaseSchema(t *testing.T) {
	t.Parallel()
	dsn := serverDSN(t, pgDSNVar)
	if !strings.Contains(dsn, "search_path="+engine.DBPlaceholder) {
		t.Skipf("%s has no search_path={db}", pgDSNVar)
	}
	const schema = "MixedCase_H45f"
	admin, err := sql.Open("pgx", strings.ReplaceAll(dsn, engine.DBPlaceholder, "public"))
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	ctx := context.Background()
	for _, stmt := range []string{`DROP SCHEMA IF EXISTS "` + schema + `" CASCADE`, `CREATE SCHEMA "` + schema + `"`, `CREATE TABLE "` + schema + `"."Docs" (id BIGINT)`, `INSERT INTO "` + schema + `"."Docs" VALUES (7)`} {
		if _, err := admin.ExecContext(ctx, stmt); err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(func() { admin.ExecContext(context.Background(), `DROP SCHEMA IF EXISTS "`+schema+`" CASCADE`) })
	e := engine.NewPostgres(dsn, 1)
	defer e.Close()
	res, err := e.Query(ctx, schema, `SELECT id FROM "Docs"`, engine.Limits{Timeout: 10 * time.Second})
	if err != nil || res.NumRows() != 1 || res.Int(0, 0) != 7 {
		t.Fatalf("query on schema %s: %v", schema, err)
	}
}
