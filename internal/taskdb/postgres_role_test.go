package taskdb

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

// TestRoleSettingsChanged: a copy whose sessions would start with other settings than the
// run began with refuses to be used (ErrRoleChanged, a fault that stops the run) instead
// of judging on with them. A prediction can set its role's defaults (ALTER ROLE
// CURRENT_USER SET ...) or another copy's (ALTER DATABASE <copy> SET ...): the role owns
// both. The role-wide case is simulated (the run "began" with other defaults): setting the
// shared role's defaults for real would change every other test's sessions.
func TestRoleSettingsChanged(t *testing.T) {
	t.Parallel()
	p := pgBackend(t)
	ctx := context.Background()
	tmpl, err := p.Template(ctx, uniqueSetup(t))
	if err != nil {
		t.Fatal(err)
	}
	dropTemplate(t, tmpl)
	copyOf := func() Copy {
		c, err := tmpl.Copy(ctx)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = c.Drop(context.Background()) })
		return c
	}
	lim := ExecLimits{Timeout: 10 * time.Second}

	// Unchanged: no false alarm.
	a, b := copyOf(), copyOf()
	if _, err := b.Exec(ctx, "SELECT 1", lim); err != nil {
		t.Fatalf("a fresh copy: %v", err)
	}
	// Another copy's defaults, set from this one's session (as a prediction could).
	if _, err := b.Exec(ctx, "ALTER DATABASE "+a.Name()+" SET work_mem = '1MB'", lim); err != nil {
		t.Fatalf("ALTER DATABASE on a copy the role owns: %v", err)
	}
	_, err = a.Exec(ctx, "SELECT 1", lim)
	if !errors.Is(err, ErrRoleChanged) || !strings.Contains(err.Error(), "work_mem=1024 (database)") {
		t.Errorf("a copy whose database has its own work_mem: %v, want %v naming it", err, ErrRoleChanged)
	}

	// The role's defaults differ from the run's start.
	p.roleDefaults += ", statement_timeout=1"
	_, err = copyOf().Exec(ctx, "SELECT 1", lim)
	if !errors.Is(err, ErrRoleChanged) || !strings.Contains(err.Error(), "ALTER ROLE") {
		t.Errorf("a session with other role defaults than the run began with: %v, want %v", err, ErrRoleChanged)
	}
}
