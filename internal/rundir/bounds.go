package rundir

import (
	"errors"
	"fmt"

	"github.com/nl2sqlbench/nl2sqlbench/internal/jsonscan"
)

// ErrTooManySystems reports a summary.json naming more systems than the tools read: eval
// refuses as many up front (CheckSystems), so only a file written by hand holds them.
var ErrTooManySystems = errors.New("too many systems")

const (
	// MaxSystems is the most systems a run may hold. Every output, the dashboard and
	// verify hold each system's records and its rows of every table; summary.json
	// grows linearly in systems (docs/run-directory.md): 200 systems x 1034 questions
	// are read in well under 2 GB.
	MaxSystems = 500
	// minSystemBytes is the fewest bytes a system's entry in summary.json may take on
	// average past the first freeSystems: eval writes kilobytes (its scores, counts and
	// slices), and report's tables cost kilobytes a system, so an entry of a few bytes
	// (`{}`) is a file made to exhaust memory, not a run.
	minSystemBytes = 256
	freeSystems    = 16
)

// CheckSystems refuses a run of more systems than the tools read back, before any is
// judged.
func CheckSystems(n int) error {
	if n > MaxSystems {
		return fmt.Errorf("%w: %d systems, at most %d: a run's summary, report and dashboard hold every system; split the systems over runs", ErrTooManySystems, n, MaxSystems)
	}
	return nil
}

// checkSummaryShape bounds what decoding summary.json b will build, by counts as well as
// bytes: its objects and arrays (jsonscan.CheckDensity) and its systems.
func checkSummaryShape(b []byte) error {
	if err := jsonscan.CheckDensity(b); err != nil {
		return err
	}
	var systems []byte
	jsonscan.Members(b, func(key, value []byte) bool {
		if string(key) == "systems" {
			systems = value
			return false
		}
		return true
	})
	n := jsonscan.Items(systems)
	if err := CheckSystems(n); err != nil {
		return fmt.Errorf("key systems: %w", err)
	}
	if n > freeSystems && len(systems)/n < minSystemBytes {
		return fmt.Errorf("key systems: %w: %d systems in %d bytes; eval writes kilobytes a system, at least %d bytes on average", ErrTooManySystems, n, len(systems), minSystemBytes)
	}
	return nil
}
