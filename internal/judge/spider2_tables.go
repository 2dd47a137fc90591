package judge

import (
	"errors"
	"fmt"

	"github.com/nl2sqlbench/nl2sqlbench/internal/dataset"
	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
	"github.com/nl2sqlbench/nl2sqlbench/internal/pandascsv"
)

// ReadSpider2Golds reads a task's gold variants; a variant missing from this copy has a
// nil Frame. A gold file that cannot be read, or is larger than lim allows a result, is an
// error (the task cannot be judged).
func ReadSpider2Golds(t *dataset.Spider2Task, lim engine.Limits) ([]Spider2Gold, error) {
	out := make([]Spider2Gold, len(t.Gold))
	for i, g := range t.Gold {
		out[i].File = g
		if g.Missing {
			continue
		}
		f, err := pandascsv.ReadFile(g.Path, csvLimits(lim))
		if err != nil {
			if errors.Is(err, pandascsv.ErrRowLimit) || errors.Is(err, pandascsv.ErrByteLimit) || errors.Is(err, pandascsv.ErrColumnLimit) {
				return nil, fmt.Errorf("gold result %s is larger than the run's result caps (rows, bytes): %w", g.Name, err)
			}
			return nil, fmt.Errorf("gold result %s: %w", g.Name, err)
		}
		out[i].Frame = f
	}
	return out, nil
}

// csvLimits are the caps of a query's result, for a result table read from a CSV file.
func csvLimits(lim engine.Limits) pandascsv.Limits {
	return pandascsv.Limits{MaxRows: lim.MaxRows, MaxBytes: lim.ByteCap()}
}

// csvLimitError makes a CSV read stopped at a cap match the engine's error for a result
// over it (engine.ErrRowLimit, and ErrByteLimit for bytes), so it is judged the same way.
func csvLimitError(err error) error {
	switch {
	case errors.Is(err, pandascsv.ErrByteLimit):
		return fmt.Errorf("%w: %w", engine.ErrByteLimit, err)
	case errors.Is(err, pandascsv.ErrRowLimit), errors.Is(err, pandascsv.ErrColumnLimit):
		return fmt.Errorf("%w: %w", engine.ErrRowLimit, err)
	}
	return err
}
