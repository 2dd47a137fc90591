package match

import (
	"context"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/sqlast"
	"github.com/nl2sqlbench/nl2sqlbench/internal/testutil"
)

// TestParseSharedUnchanged: the tree sqlast.ParseShared hands to both ETM and schema
// linking is the same after both used it (ETM normalising it against the gold, Use
// resolving it against the schema) as a fresh parse of the text, for every Spider dev
// prediction of the seven systems and every gold query: neither consumer modifies it, so
// sharing it changes nothing.
func TestParseSharedUnchanged(t *testing.T) {
	if testing.Short() {
		t.Skip("seven systems")
	}
	dev := testutil.SpiderDev(t)
	ctx := context.Background()
	dbs := map[string]*ETMDB{}
	checked := 0
	for _, sys := range []string{"C3", "DAIL", "DIN", "RASAT+PICARD", "RESDSQL", "SuperSQL", "codeS"} {
		preds := testutil.SpiderPredictions(t, sys)
		for i, q := range dev {
			if i >= len(preds) {
				break
			}
			path := testutil.SpiderDB(t, q.DBID)
			if _, err := os.Stat(path); err != nil {
				continue
			}
			d := dbs[path]
			if d == nil {
				var err error
				if d, err = OpenETMDB(ctx, path); err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { d.Close() })
				dbs[path] = d
			}
			for _, text := range []string{strings.TrimSpace(preds[i]), q.Query} {
				shared, err := sqlast.ParseShared(text)
				if err != nil {
					continue
				}
				d.Compare(ctx, text, q.Query) // ETM takes the shared tree
				if _, err := shared.Use(d.Schema()); err != nil && shared.IsSelect() {
					t.Fatalf("Use: %v", err)
				}
				again, err := sqlast.ParseShared(text)
				if err != nil || again != shared {
					// Evicted meanwhile: the check below still compares what ETM used.
					again = shared
				}
				fresh, _ := sqlast.Parse(text)
				if !reflect.DeepEqual(again.Syntax(), fresh.Syntax()) {
					t.Fatalf("%s #%d: the shared tree changed after ETM and Use read it:\n%s", sys, i, text)
				}
				checked++
			}
		}
	}
	if checked < 5000 {
		t.Fatalf("only %d texts checked", checked)
	}
	t.Logf("%d trees unchanged", checked)
}
