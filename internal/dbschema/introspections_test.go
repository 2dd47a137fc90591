package dbschema

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestIntrospections: each file is introspected once (the same schema, equal to a fresh
// Introspect); a failure is not remembered, neither a missing file nor a caller's
// cancelled context.
func TestIntrospections(t *testing.T) {
	path := makeDB(t, "a.sqlite", "CREATE TABLE t (id INTEGER PRIMARY KEY, x TEXT NOT NULL)")
	var c Introspections
	ctx := context.Background()

	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := c.Introspect(cancelled, path); err == nil {
		t.Fatal("a cancelled context introspected")
	}
	a, err := c.Introspect(ctx, path)
	if err != nil {
		t.Fatalf("after another caller's cancelled context: %v", err)
	}
	b, err := c.Introspect(ctx, path)
	if err != nil || b != a {
		t.Fatalf("second call: %p %v, want the first schema %p", b, err, a)
	}
	fresh, err := Introspect(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(fresh, a); d != "" {
		t.Fatalf("(-Introspect +Introspections):\n%s", d)
	}

	later := makeDB(t, "later.sqlite", "CREATE TABLE u (y INTEGER)")
	missing := filepath.Join(t.TempDir(), "later.sqlite")
	if _, err := c.Introspect(ctx, missing); !errors.Is(err, ErrNoDatabase) {
		t.Fatalf("missing file: %v, want ErrNoDatabase", err)
	}
	if err := os.Rename(later, missing); err != nil {
		t.Fatal(err)
	}
	s, err := c.Introspect(ctx, missing)
	if err != nil || s.Table("u") == nil {
		t.Fatalf("the file once missing: %v, %v", s, err)
	}
}
