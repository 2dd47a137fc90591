package taskdb

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgconn/ctxwatch"
)

// Postgres makes templates and copies on one PostgreSQL server. The DSN template is the
// one the read-only engines take (a {db} placeholder, see engine.DBPlaceholder): the
// database it names is where this package connects to create and drop databases, and
// the placeholder is ignored (a copy is a database, not a schema). Safe for concurrent
// use.
type Postgres struct {
	base *pgx.ConnConfig // the maintenance database; copies change only Database
	me   owner

	// roleDefaults is what the role's sessions start with (roleDefaults, at OpenPostgres):
	// every copy's session must start the same (pgCopy.open).
	roleDefaults string

	mu    sync.Mutex // admin (templates: CREATE, ALTER, one at a time); live
	admin *pgx.Conn
	// live are the copies this Postgres made (or began to make) and has not dropped:
	// what DropCopies drops when a run ends early.
	live map[string]bool
}

// Name prefixes. A template is nl2sb_t_<db>_<hash>; a template being built is
// nl2sb_b_<owner>_<n>, renamed to its template name when complete; a copy is
// nl2sb_c_<owner>_<n>. The owner tag (owner.go) in the name is what Sweep reads.
const (
	pgTemplatePrefix = "nl2sb_t_"
	pgBuildPrefix    = "nl2sb_b_"
	pgCopyPrefix     = "nl2sb_c_"
)

// dbPlaceholder is engine.DBPlaceholder (engine is not imported for one constant).
const dbPlaceholder = "{db}"

// OpenPostgres connects to the server of the DSN template dsn and checks that its role
// may create databases.
func OpenPostgres(ctx context.Context, dsn string) (*Postgres, error) {
	cfg, err := pgConfig(dsn)
	if err != nil {
		return nil, err
	}
	p := &Postgres{base: cfg, me: self(), live: map[string]bool{}}
	admin, err := p.connect(ctx, cfg.Database)
	if err != nil {
		return nil, err
	}
	p.admin = admin
	if err := admin.QueryRow(ctx, roleDefaults).Scan(&p.roleDefaults); err != nil {
		admin.Close(ctx)
		return nil, fmt.Errorf("read role settings: %w", err)
	}
	var can bool
	if err := admin.QueryRow(ctx, `SELECT rolcreatedb OR rolsuper FROM pg_roles WHERE rolname = current_user`).Scan(&can); err != nil {
		admin.Close(ctx)
		return nil, fmt.Errorf("read role: %w", err)
	}
	if !can {
		admin.Close(ctx)
		return nil, fmt.Errorf("open postgres task databases: %w", ErrNoCreateDB)
	}
	return p, nil
}

// pgConfig parses the DSN template: {db} in the database name means the server's
// "postgres" database, and a search_path that names {db} is dropped (a copy uses the
// server's default path, as the official evaluator's connections do).
func pgConfig(dsn string) (*pgx.ConnConfig, error) {
	const mark = "nl2sbdbplaceholder"
	cfg, err := pgx.ParseConfig(strings.ReplaceAll(dsn, dbPlaceholder, mark))
	if err != nil {
		return nil, fmt.Errorf("parse postgres dsn: %w", errors.New("invalid DSN")) // never quote it: it holds a password
	}
	if strings.Contains(cfg.Database, mark) {
		cfg.Database = "postgres"
	}
	for k, v := range cfg.RuntimeParams {
		if strings.Contains(v, mark) {
			delete(cfg.RuntimeParams, k)
		}
	}
	if cfg.ConnectTimeout == 0 {
		cfg.ConnectTimeout = 10 * time.Second
	}
	// A context that ends sends the server a cancel request, so a runaway statement
	// stops there too (pgx's default only drops the socket's deadline).
	cfg.BuildContextWatcherHandler = func(c *pgconn.PgConn) ctxwatch.Handler {
		return &pgconn.CancelRequestContextWatcherHandler{Conn: c, DeadlineDelay: 2 * time.Second}
	}
	return cfg, nil
}

func (p *Postgres) connect(ctx context.Context, database string) (*pgx.Conn, error) {
	cfg := p.base.Copy()
	cfg.Database = database
	cfg.DefaultQueryExecMode = pgx.QueryExecModeExec // setup rows are unique statements: nothing to cache
	c, err := pgx.ConnectConfig(ctx, cfg)
	// A server out of connection slots (SQLSTATE 53300: other clients, or our copies
	// being dropped) is waited for a little, then it is the run's fault to report.
	var pe *pgconn.PgError
	for wait := 100 * time.Millisecond; err != nil && errors.As(err, &pe) && pe.Code == "53300" && wait <= 3200*time.Millisecond; wait *= 2 {
		select {
		case <-time.After(wait):
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		c, err = pgx.ConnectConfig(ctx, cfg)
	}
	if err != nil {
		return nil, fmt.Errorf("connect to database %s: %w: %s", database, ErrConnection, redact(err, cfg.Password))
	}
	return c, nil
}

// redact is err's text without the password.
func redact(err error, password string) string {
	s := err.Error()
	if password != "" {
		s = strings.ReplaceAll(s, password, "***")
	}
	return s
}

// Close closes the maintenance connection. Copies not dropped stay until a Sweep.
func (p *Postgres) Close() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.admin == nil {
		return nil
	}
	err := p.admin.Close(context.Background())
	p.admin = nil
	return err
}

// ownExec runs one statement on a maintenance connection of its own, so that copies are
// made and dropped several at a time (the server spends most of a CREATE or DROP
// DATABASE waiting for the disk: four at once take about as long as one).
func (p *Postgres) ownExec(ctx context.Context, sql string) error {
	c, err := p.connect(ctx, p.base.Database)
	if err != nil {
		return err
	}
	defer c.Close(context.WithoutCancel(ctx))
	_, err = c.Exec(ctx, sql)
	return err
}

// adminExec runs one statement on the maintenance connection.
func (p *Postgres) adminExec(ctx context.Context, sql string) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	admin, err := p.adminConn(ctx)
	if err != nil {
		return err
	}
	_, err = admin.Exec(ctx, sql)
	return err
}

// adminConn is the maintenance connection, connected again when a cancelled statement
// closed it (pgx closes a connection whose cancel the server did not answer in time), so
// that the copies can still be dropped on the way out. Called with mu held.
func (p *Postgres) adminConn(ctx context.Context) (*pgx.Conn, error) {
	if p.admin == nil {
		return nil, fmt.Errorf("postgres task databases: closed")
	}
	if p.admin.IsClosed() {
		c, err := p.connect(ctx, p.base.Database)
		if err != nil {
			return nil, err
		}
		p.admin = c
	}
	return p.admin, nil
}

func (p *Postgres) exists(ctx context.Context, name string) (bool, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	admin, err := p.adminConn(ctx)
	if err != nil {
		return false, err
	}
	var n int
	err = admin.QueryRow(ctx, `SELECT count(*) FROM pg_database WHERE datname = $1`, name).Scan(&n)
	return n > 0, err
}

var unsafeName = regexp.MustCompile(`[^a-z0-9]+`)

// TemplateName is the database a setup's template lives in.
func TemplateName(s Setup) string {
	db := unsafeName.ReplaceAllString(strings.ToLower(s.Name), "")
	if len(db) > 24 {
		db = db[:24]
	}
	return pgTemplatePrefix + db + "_" + s.Hash()[:16]
}

// PGTemplate is a built template database.
type PGTemplate struct {
	p    *Postgres
	name string
}

// Name is the template database's name.
func (t *PGTemplate) Name() string { return t.name }

// Template returns the template of s, building it when the server has none yet. A
// template is complete once it has its name (it is built under another one), so an
// existing one is reused; two runs building the same one at once both finish and the
// second keeps the first's.
func (p *Postgres) Template(ctx context.Context, s Setup) (*PGTemplate, error) {
	name := TemplateName(s)
	ok, err := p.exists(ctx, name)
	if err != nil {
		return nil, fmt.Errorf("look up template %s: %w", name, err)
	}
	if ok {
		return &PGTemplate{p: p, name: name}, nil
	}
	build := pgBuildPrefix + p.me.tag() + "_" + strconv.FormatInt(nameSeq.Add(1), 10)
	// template0: nothing a cluster administrator put in template1 leaks into the task.
	if err := p.adminExec(ctx, "CREATE DATABASE "+pgx.Identifier{build}.Sanitize()+" TEMPLATE template0 ENCODING 'UTF8'"); err != nil {
		return nil, fmt.Errorf("create database %s: %w", build, err)
	}
	drop := func() { _ = p.dropDatabase(context.WithoutCancel(ctx), build) }
	if err := p.runSetup(ctx, build, s); err != nil {
		drop()
		return nil, err
	}
	if err := p.adminExec(ctx, "ALTER DATABASE "+pgx.Identifier{build}.Sanitize()+" WITH ALLOW_CONNECTIONS false"); err != nil {
		drop()
		return nil, fmt.Errorf("lock template %s: %w", build, err)
	}
	err = p.adminExec(ctx, "ALTER DATABASE "+pgx.Identifier{build}.Sanitize()+" RENAME TO "+pgx.Identifier{name}.Sanitize())
	var pe *pgconn.PgError
	if errors.As(err, &pe) && pe.Code == "42P04" { // duplicate_database: another run finished first
		drop()
		return &PGTemplate{p: p, name: name}, nil
	}
	if err != nil {
		drop()
		return nil, fmt.Errorf("rename template %s: %w", build, err)
	}
	return &PGTemplate{p: p, name: name}, nil
}

// runSetup runs the setup's steps on the database db, in one transaction: a script as one
// simple query, and each run of single statements as a pipelined batch, so that an error
// names the step it came from.
func (p *Postgres) runSetup(ctx context.Context, db string, s Setup) error {
	c, err := p.connect(ctx, db)
	if err != nil {
		return err
	}
	defer c.Close(context.WithoutCancel(ctx))
	if _, err := c.Exec(ctx, "BEGIN"); err != nil {
		return fmt.Errorf("build %s: %w", s.Name, err)
	}
	for i := 0; i < len(s.Steps); {
		st := s.Steps[i]
		if st.Script {
			if err := c.PgConn().Exec(ctx, st.SQL).Close(); err != nil {
				return fmt.Errorf("build %s: %s: %w", s.Name, st.Source, err)
			}
			i++
			continue
		}
		j := i
		b := &pgx.Batch{}
		for j < len(s.Steps) && !s.Steps[j].Script && j-i < 1000 {
			b.Queue(s.Steps[j].SQL)
			j++
		}
		br := c.SendBatch(ctx, b)
		for k := i; k < j; k++ {
			if _, err := br.Exec(); err != nil {
				br.Close()
				return fmt.Errorf("build %s: %s: %w", s.Name, s.Steps[k].Source, err)
			}
		}
		if err := br.Close(); err != nil {
			return fmt.Errorf("build %s: %w", s.Name, err)
		}
		i = j
	}
	if _, err := c.Exec(ctx, "COMMIT"); err != nil {
		return fmt.Errorf("build %s: commit: %w", s.Name, err)
	}
	return nil
}

func (p *Postgres) dropDatabase(ctx context.Context, name string) error {
	// A plain DROP first: it ends autovacuum workers itself, which WITH (FORCE) may not
	// signal (they are not this role's). Only when a connection is left (SQLSTATE 55006,
	// a killed worker's) is it forced (PostgreSQL 13+).
	q := "DROP DATABASE IF EXISTS " + pgx.Identifier{name}.Sanitize()
	err := p.ownExec(ctx, q)
	var pe *pgconn.PgError
	if errors.As(err, &pe) && pe.Code == "55006" {
		err = p.ownExec(ctx, q+" WITH (FORCE)")
	}
	if err != nil {
		return fmt.Errorf("drop database %s: %w", name, err)
	}
	p.mu.Lock()
	delete(p.live, name)
	p.mu.Unlock()
	return nil
}

// DropCopies drops every copy this Postgres made that is not dropped yet, and returns
// their names. A run calls it on the way out with a context of its own (not the run's,
// which may be cancelled): a run stopped mid-task leaves no copy behind, even in a
// process that goes on (Sweep drops only the copies of processes that are gone).
func (p *Postgres) DropCopies(ctx context.Context) ([]string, error) {
	p.mu.Lock()
	names := make([]string, 0, len(p.live))
	for n := range p.live {
		names = append(names, n)
	}
	p.mu.Unlock()
	slices.Sort(names)
	var errs []error
	for _, n := range names {
		if err := p.dropDatabase(ctx, n); err != nil {
			errs = append(errs, err)
		}
	}
	return names, errors.Join(errs...)
}

// Copy makes a fresh database from the template; the copy connects on its first use.
func (t *PGTemplate) Copy(ctx context.Context) (Copy, error) {
	p := t.p
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	name := pgCopyPrefix + p.me.tag() + "_" + strconv.FormatInt(nameSeq.Add(1), 10)
	// Known before it exists: a CREATE cut short by a cancel may still have made it.
	p.mu.Lock()
	p.live[name] = true
	p.mu.Unlock()
	if err := p.ownExec(ctx, "CREATE DATABASE "+pgx.Identifier{name}.Sanitize()+" TEMPLATE "+pgx.Identifier{t.name}.Sanitize()); err != nil {
		_ = p.dropDatabase(context.WithoutCancel(ctx), name) // IF EXISTS: it may have been made
		return nil, fmt.Errorf("create database %s: %w", name, err)
	}
	return &pgCopy{p: p, name: name}, nil
}

// Sweep drops the copies and unfinished templates whose owner process is gone (owner.go)
// and returns their names. Run it before a run starts.
func (p *Postgres) Sweep(ctx context.Context) ([]string, error) {
	p.mu.Lock()
	admin, err := p.adminConn(ctx)
	var rows pgx.Rows
	if err == nil {
		rows, err = admin.Query(ctx, `SELECT datname FROM pg_database WHERE starts_with(datname, $1) OR starts_with(datname, $2) ORDER BY datname`, pgCopyPrefix, pgBuildPrefix)
	}
	var names []string
	if err == nil {
		names, err = pgx.CollectRows(rows, pgx.RowTo[string])
	}
	p.mu.Unlock()
	if err != nil {
		return nil, fmt.Errorf("list task databases: %w", err)
	}
	var dropped []string
	for _, n := range names {
		o, _, ok := parseTag(n[len(pgCopyPrefix):])
		if !ok || !o.gone() {
			continue
		}
		if err := p.dropDatabase(ctx, n); err != nil {
			return dropped, err
		}
		dropped = append(dropped, n)
	}
	return dropped, nil
}

// Mine lists the copies and unfinished templates this process made that still exist: a
// run that dropped every copy it made has none.
func (p *Postgres) Mine(ctx context.Context) ([]string, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	tag := p.me.tag() + "_"
	admin, err := p.adminConn(ctx)
	if err != nil {
		return nil, err
	}
	rows, err := admin.Query(ctx, `SELECT datname FROM pg_database WHERE starts_with(datname, $1) OR starts_with(datname, $2) ORDER BY datname`, pgCopyPrefix+tag, pgBuildPrefix+tag)
	if err != nil {
		return nil, fmt.Errorf("list task databases: %w", err)
	}
	return pgx.CollectRows(rows, pgx.RowTo[string])
}
