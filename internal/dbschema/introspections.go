package dbschema

import (
	"context"

	"github.com/nl2sqlbench/nl2sqlbench/internal/memo"
)

// Introspections remembers Introspect's schema of each file for one run, whose database
// files do not change: ETM and schema linking both need every database's schema, and
// each introspection opens the file and runs a few PRAGMAs per table. Only a schema is
// remembered; a failure is the caller's own (the next caller introspects again), so one
// caller's cancelled context never becomes another's error. The zero value is ready;
// safe for concurrent use. The schemas are shared: read only.
type Introspections struct {
	m memo.Map[string, *Schema]
}

// Introspect is Introspect(ctx, path), once per file.
func (c *Introspections) Introspect(ctx context.Context, path string) (*Schema, error) {
	return c.m.GetRetry(path, func() (*Schema, error) { return Introspect(ctx, path) })
}
