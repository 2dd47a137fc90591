package benchrun

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
)

// TestPrepareRefusesMoreSystemsThanReportable: eval refuses, before reading the dataset
// or any prediction file, a system count whose run its own report and verify could not
// read back (issue 45, failure 6).
func TestPrepareRefusesMoreSystemsThanReportable(t *testing.T) {
	preds := make([]string, rundir.MaxSystems+1)
	for i := range preds {
		preds[i] = fmt.Sprintf("s%d=/nonexistent/%d.txt", i, i)
	}
	_, err := Prepare(context.Background(), Config{DatasetSpec: "spider:/nonexistent", Preds: preds}, nil)
	var ce *configError
	if !errors.Is(err, rundir.ErrTooManySystems) && !errors.As(err, &ce) || !strings.Contains(fmt.Sprint(err), "at most 500") {
		t.Fatalf("err = %v, want the system cap", err)
	}
}
