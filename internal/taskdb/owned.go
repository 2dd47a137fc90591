package taskdb

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
)

// OwnedBy lists the copies and unfinished templates that process pid (on this host)
// made and that still exist: what a run killed with SIGKILL left for the next run's
// Sweep. Tests and diagnostics use it; a run needs only Sweep and Mine.
func (p *Postgres) OwnedBy(ctx context.Context, pid int) ([]string, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	admin, err := p.adminConn(ctx)
	if err != nil {
		return nil, err
	}
	rows, err := admin.Query(ctx, `SELECT datname FROM pg_database WHERE starts_with(datname, $1) OR starts_with(datname, $2) ORDER BY datname`, pgCopyPrefix, pgBuildPrefix)
	if err != nil {
		return nil, fmt.Errorf("list task databases: %w", err)
	}
	names, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, fmt.Errorf("list task databases: %w", err)
	}
	var out []string
	for _, n := range names {
		if o, _, ok := parseTag(n[len(pgCopyPrefix):]); ok && o.PID == pid && o.Host == p.me.Host {
			out = append(out, n)
		}
	}
	return out, nil
}
