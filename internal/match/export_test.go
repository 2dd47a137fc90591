package match

// Helpers only this package's tests use, kept out of the build.

import (
	"context"

	"github.com/nl2sqlbench/nl2sqlbench/internal/dbschema"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
	"github.com/nl2sqlbench/nl2sqlbench/internal/spidersql"
)

// ExactSetMatch parses both queries against s and compares them. It returns an error
// (wrapping ErrGold) only when the gold query cannot be parsed.
func ExactSetMatch(pred, gold string, s *spidersql.Schema, fk FKMap, opt Options) (bool, error) {
	g, err := PrepareGold(gold, s, fk, opt)
	if err != nil {
		return false, err
	}
	return g.Match(PredText(pred), s, fk, opt), nil
}

// OpenETMDB reads the schema of the SQLite file at path and keeps a read-only
// connection to it. Close releases it.
func OpenETMDB(ctx context.Context, path string) (*ETMDB, error) {
	return openETMDB(ctx, path, dbschema.Introspect)
}

// NewETMAnnotator returns an annotator computing ETM in the official mode.
func NewETMAnnotator(verbose bool) *ETMAnnotator {
	return &ETMAnnotator{Verbose: verbose, Mode: ETMOfficial}
}

// MatchPartial is Match with the partial-match breakdown of the same comparison.
func (g *Gold) MatchPartial(pred string, s *spidersql.Schema, fk FKMap, opt Options) (bool, map[string]record.PartialScore) {
	ok, part, _, _ := g.matchDetail(context.Background(), pred, s, fk, opt)
	return ok, part
}
