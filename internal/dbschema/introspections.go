package dbschema

import (
	"context"
	"sync"
)

// Introspections remembers Introspect's schema of each file for one run, whose database
// files do not change: ETM and schema linking both need every database's schema, and
// each introspection opens the file and runs a few PRAGMAs per table. Only a schema is
// remembered; a failure is the caller's own (the next caller introspects again), so one
// caller's cancelled context never becomes another's error. The zero value is ready;
// safe for concurrent use. The schemas are shared: read only.
type Introspections struct {
	m sync.Map // path -> *introspection
}

type introspection struct {
	once sync.Once
	s    *Schema
	err  error
}

// Introspect is Introspect(ctx, path), once per file.
func (c *Introspections) Introspect(ctx context.Context, path string) (*Schema, error) {
	v, _ := c.m.LoadOrStore(path, &introspection{})
	e := v.(*introspection)
	ran := false
	e.once.Do(func() {
		ran = true
		e.s, e.err = Introspect(ctx, path)
	})
	if e.err == nil {
		return e.s, nil
	}
	c.m.CompareAndDelete(path, e)
	if ran {
		return nil, e.err
	}
	return Introspect(ctx, path)
}
