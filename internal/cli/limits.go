package cli

import "time"

// The limits a run is given are checked here, at the flags, because the layers below
// read 0 as "no limit": --timeout 0 or --max-rows 0 would silently remove the timeout or
// the row cap, and a negative --workers would judge nothing. A value that is not a real
// limit is a usage error naming its flag.

// maxWorkers bounds --workers: far beyond any useful parallelism for SQLite on one
// machine, low enough that a typo (--workers 100000) does not open that many connections.
const maxWorkers = 256

// checkTimeout refuses a --timeout (or other duration limit named flag) that is not positive.
func checkTimeout(flag string, d time.Duration) error {
	if d <= 0 {
		return usagef("%s must be positive (got %s): a zero or negative value would remove the limit", flag, d)
	}
	return nil
}

// checkMaxRows refuses a row cap that is not positive.
func checkMaxRows(flag string, n int) error {
	if n <= 0 {
		return usagef("%s must be positive (got %d): a zero or negative value would remove the limit", flag, n)
	}
	return nil
}

// checkWorkers refuses a worker count outside 1..maxWorkers.
func checkWorkers(n int) error {
	if n < 1 || n > maxWorkers {
		return usagef("--workers must be between 1 and %d (got %d)", maxWorkers, n)
	}
	return nil
}

// checkEvalLimits checks eval's per-query limits and parallelism.
func checkEvalLimits(timeout time.Duration, maxRows, workers int) error {
	if err := checkTimeout("--timeout", timeout); err != nil {
		return err
	}
	if err := checkMaxRows("--max-rows", maxRows); err != nil {
		return err
	}
	return checkWorkers(workers)
}
