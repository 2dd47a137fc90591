package taskdb

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/go-sql-driver/mysql"
)

// MySQL makes templates and copies on one MySQL or MariaDB server. The DSN template is
// the one the read-only engine takes ("user:pw@tcp(host:3306)/{db}"); the database it
// names is ignored (a copy is a database). Safe for concurrent use.
//
// The server has no CREATE DATABASE ... TEMPLATE, so a copy is made from the template's
// tables, read once when the template is opened: CREATE DATABASE, then in one round trip
// each table's own CREATE TABLE (SHOW CREATE TABLE's text: keys, foreign keys, defaults,
// AUTO_INCREMENT as the template has them) and INSERT ... SELECT of its stored columns
// from the template, with foreign key checks off (the rows are the template's, already
// consistent). TestMySQLCopyMethods measures it against CREATE TABLE ... LIKE, which
// loses the foreign keys and needs an ALTER TABLE per table to add them back.
type MySQL struct {
	cfg    *mysql.Config // no database, multi statements on
	admin  *sql.DB
	me     owner
	maria  bool
	mu     sync.Mutex
	live   map[string]bool // copies made (or begun) and not dropped: what DropCopies drops
	closed bool
	locks  []*sql.DB // one session per opened template, holding LOCK TABLES ... READ on it
}

// Name prefixes, as on PostgreSQL (postgres.go): the owner tag in a copy's or a build's
// name is what Sweep reads.
const (
	myTemplatePrefix = "nl2sb_t_"
	myBuildPrefix    = "nl2sb_b_"
	myCopyPrefix     = "nl2sb_c_"
)

// OpenMySQL connects to the server of the DSN template dsn.
func OpenMySQL(ctx context.Context, dsn string) (*MySQL, error) {
	cfg, err := mysql.ParseDSN(strings.ReplaceAll(dsn, dbPlaceholder, ""))
	if err != nil {
		return nil, fmt.Errorf("parse mysql dsn: %w", errors.New("invalid DSN")) // never quote it: it holds a password
	}
	cfg.DBName = ""
	cfg.MultiStatements = true
	if cfg.Timeout == 0 {
		cfg.Timeout = 10 * time.Second
	}
	if cfg.Params == nil {
		cfg.Params = map[string]string{}
	}
	m := &MySQL{cfg: cfg, me: self(), live: map[string]bool{}}
	if m.admin, err = m.open(""); err != nil {
		return nil, err
	}
	m.admin.SetMaxOpenConns(8)
	var version string
	if err := m.admin.QueryRowContext(ctx, "SELECT VERSION()").Scan(&version); err != nil {
		m.admin.Close()
		return nil, fmt.Errorf("connect to mysql: %w: %s", ErrConnection, redact(err, cfg.Passwd))
	}
	m.maria = strings.Contains(strings.ToLower(version), "mariadb")
	return m, nil
}

func (m *MySQL) open(db string) (*sql.DB, error) {
	cfg := m.cfg.Clone()
	cfg.DBName = db
	c, err := mysql.NewConnector(cfg)
	if err != nil {
		return nil, fmt.Errorf("open mysql: %w", errors.New("invalid DSN"))
	}
	return sql.OpenDB(c), nil
}

// Close closes the maintenance connections. Copies not dropped stay until a Sweep.
func (m *MySQL) Close() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return nil
	}
	m.closed = true
	for _, l := range m.locks {
		_ = l.Close() // the session ends, and its table locks with it
	}
	return m.admin.Close()
}

// lockTemplate holds a READ lock on every table of template name, on a session of its
// own, until Close. MySQL has no read-only database and the role that copies the
// template may write it: a task's SQL runs as that role, and a prediction that names the
// template (UPDATE nl2sb_t_....tbl_users SET ..., DROP DATABASE nl2sb_t_...) changed it
// for every later task and run. With the lock such a statement waits for it and ends at
// the task's statement limit (a timeout, the prediction's failure), while copies, which
// only read the template, go on. Other runs' READ locks on the same template are
// compatible. (A table a prediction adds to the template is not locked, and not in this
// run's copy script, which was read before; views, triggers and routines are refused.)
func (m *MySQL) lockTemplate(ctx context.Context, name string, tables []string) error {
	if len(tables) == 0 {
		return nil
	}
	db, err := m.open("")
	if err != nil {
		return err
	}
	db.SetMaxOpenConns(1)
	db.SetConnMaxLifetime(0)
	db.SetConnMaxIdleTime(0)
	q := make([]string, len(tables))
	for i, t := range tables {
		q[i] = myIdent(name) + "." + myIdent(t) + " READ"
	}
	if _, err := db.ExecContext(ctx, "LOCK TABLES "+strings.Join(q, ", ")); err != nil {
		db.Close()
		return fmt.Errorf("lock template %s: %w", name, m.sqlError(err))
	}
	m.mu.Lock()
	m.locks = append(m.locks, db)
	m.mu.Unlock()
	return nil
}

// myIdent quotes a name for MySQL.
func myIdent(name string) string { return "`" + strings.ReplaceAll(name, "`", "``") + "`" }

func (m *MySQL) exec(ctx context.Context, q string) error {
	_, err := m.admin.ExecContext(ctx, q)
	if err != nil {
		return m.sqlError(err)
	}
	return nil
}

// sqlError names the server's error with its number, or a connection failure.
func (m *MySQL) sqlError(err error) error {
	var me *mysql.MySQLError
	if errors.As(err, &me) {
		return &SQLError{Code: strconv.Itoa(int(me.Number)), Message: me.Message}
	}
	return fmt.Errorf("%w: %s", ErrConnection, redact(err, m.cfg.Passwd))
}

func (m *MySQL) schemas(ctx context.Context, like ...string) ([]string, error) {
	var out []string
	for _, l := range like {
		rows, err := m.admin.QueryContext(ctx, "SELECT SCHEMA_NAME FROM information_schema.SCHEMATA WHERE SCHEMA_NAME LIKE ?", strings.ReplaceAll(l, "_", `\_`)+"%")
		if err != nil {
			return nil, fmt.Errorf("list task databases: %w", m.sqlError(err))
		}
		for rows.Next() {
			var s string
			if err := rows.Scan(&s); err != nil {
				rows.Close()
				return nil, err
			}
			out = append(out, s)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, fmt.Errorf("list task databases: %w", m.sqlError(err))
		}
	}
	slices.Sort(out)
	return out, nil
}

// MyTemplate is a built template database and what a copy of it runs.
type MyTemplate struct {
	m      *MySQL
	name   string
	tables []string // in name order
	script string   // every table's CREATE, then every INSERT ... SELECT from the template
}

// Name is the template database's name.
func (t *MyTemplate) Name() string { return t.name }

// Template returns the template of s, building it when the server has none yet. A
// server-wide named lock (GET_LOCK, released when its session ends, even by a kill)
// keeps two runs from building the same template at once. It is built under a build
// name and moved into the template's name by one RENAME TABLE of every table (atomic),
// so a template database holding tables is whole; an empty one was left by a run killed
// between the two statements and is built again.
func (m *MySQL) Template(ctx context.Context, s Setup) (*MyTemplate, error) {
	name := TemplateName(s)
	conn, err := m.admin.Conn(ctx)
	if err != nil {
		return nil, fmt.Errorf("template %s: %w", name, m.sqlError(err))
	}
	defer conn.Close()
	var got sql.NullInt64
	if err := conn.QueryRowContext(ctx, "SELECT GET_LOCK(?, 600)", name).Scan(&got); err != nil || got.Int64 != 1 {
		return nil, fmt.Errorf("lock template %s: %v", name, err)
	}
	defer conn.ExecContext(context.WithoutCancel(ctx), "DO RELEASE_LOCK(?)", name)
	tables, err := m.tables(ctx, name)
	if err != nil {
		return nil, err
	}
	if len(tables) == 0 {
		if err := m.build(ctx, name, s); err != nil {
			return nil, err
		}
	}
	return m.openTemplate(ctx, name)
}

func (m *MySQL) build(ctx context.Context, name string, s Setup) error {
	build := myBuildPrefix + m.me.tag() + "_" + strconv.FormatInt(nameSeq.Add(1), 10)
	drop := func() { _ = m.exec(context.WithoutCancel(ctx), "DROP DATABASE IF EXISTS "+myIdent(build)) }
	if err := m.exec(ctx, "CREATE DATABASE "+myIdent(build)+" CHARACTER SET utf8mb4"); err != nil {
		return fmt.Errorf("create database %s: %w", build, err)
	}
	if err := m.runSetup(ctx, build, s); err != nil {
		drop()
		return err
	}
	tables, err := m.tables(ctx, build)
	if err != nil {
		drop()
		return err
	}
	if len(tables) == 0 {
		drop()
		return fmt.Errorf("build %s: the setup made no table", s.Name)
	}
	if err := m.exec(ctx, "CREATE DATABASE IF NOT EXISTS "+myIdent(name)+" CHARACTER SET utf8mb4"); err != nil {
		drop()
		return fmt.Errorf("create database %s: %w", name, err)
	}
	var b strings.Builder
	b.WriteString("RENAME TABLE ")
	for i, t := range tables {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(myIdent(build) + "." + myIdent(t) + " TO " + myIdent(name) + "." + myIdent(t))
	}
	if err := m.exec(ctx, b.String()); err != nil {
		drop()
		return fmt.Errorf("install template %s: %w", name, err)
	}
	drop()
	return nil
}

// runSetup runs the setup's steps on database db over one session (a script's SET
// FOREIGN_KEY_CHECKS = 0 holds for the steps after it), the rows in one transaction.
func (m *MySQL) runSetup(ctx context.Context, db string, s Setup) error {
	pool, err := m.open(db)
	if err != nil {
		return err
	}
	defer pool.Close()
	c, err := pool.Conn(ctx)
	if err != nil {
		return fmt.Errorf("connect to database %s: %w", db, m.sqlError(err))
	}
	defer c.Close()
	inTx := false
	for _, st := range s.Steps {
		if st.Script == inTx { // a script ends the rows' transaction; a row begins one
			q := "COMMIT"
			if !inTx {
				q = "START TRANSACTION"
			}
			if _, err := c.ExecContext(ctx, q); err != nil {
				return fmt.Errorf("build %s: %w", s.Name, m.sqlError(err))
			}
			inTx = !inTx
		}
		if _, err := c.ExecContext(ctx, st.SQL); err != nil {
			return fmt.Errorf("build %s: %s: %w", s.Name, st.Source, m.sqlError(err))
		}
	}
	if inTx {
		if _, err := c.ExecContext(ctx, "COMMIT"); err != nil {
			return fmt.Errorf("build %s: commit: %w", s.Name, m.sqlError(err))
		}
	}
	return nil
}

// tables lists db's base tables; a database with views, triggers or routines is refused
// (a copy would not carry them: not yet).
func (m *MySQL) tables(ctx context.Context, db string) ([]string, error) {
	var n int
	err := m.admin.QueryRowContext(ctx, `SELECT (SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? AND TABLE_TYPE <> 'BASE TABLE')
		+ (SELECT COUNT(*) FROM information_schema.TRIGGERS WHERE TRIGGER_SCHEMA = ?)
		+ (SELECT COUNT(*) FROM information_schema.ROUTINES WHERE ROUTINE_SCHEMA = ?)`, db, db, db).Scan(&n)
	if err != nil {
		return nil, fmt.Errorf("list tables of %s: %w", db, m.sqlError(err))
	}
	if n > 0 {
		return nil, fmt.Errorf("database %s: %w", db, ErrMySQLUnsupported)
	}
	rows, err := m.admin.QueryContext(ctx, "SELECT TABLE_NAME FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? AND TABLE_TYPE = 'BASE TABLE' ORDER BY TABLE_NAME", db)
	if err != nil {
		return nil, fmt.Errorf("list tables of %s: %w", db, m.sqlError(err))
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var t string
		if err := rows.Scan(&t); err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, rows.Err()
}

// ErrMySQLUnsupported: the setup made views, triggers or routines, which MySQL copies do
// not carry yet.
var ErrMySQLUnsupported = errors.New("views, triggers and routines are not copied on MySQL yet")

// openTemplate reads the template's tables once: their CREATE TABLE text and stored
// columns, the copy script.
func (m *MySQL) openTemplate(ctx context.Context, name string) (*MyTemplate, error) {
	tables, err := m.tables(ctx, name)
	if err != nil {
		return nil, err
	}
	var creates, inserts strings.Builder
	creates.WriteString("SET SESSION FOREIGN_KEY_CHECKS = 0;\n")
	for _, t := range tables {
		var tn, ddl string
		if err := m.admin.QueryRowContext(ctx, "SHOW CREATE TABLE "+myIdent(name)+"."+myIdent(t)).Scan(&tn, &ddl); err != nil {
			return nil, fmt.Errorf("read template table %s: %w", t, m.sqlError(err))
		}
		creates.WriteString(ddl + ";\n")
		// Generated columns are computed again: only stored values are copied.
		rows, err := m.admin.QueryContext(ctx, "SELECT COLUMN_NAME FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? AND EXTRA NOT LIKE '%GENERATED%' ORDER BY ORDINAL_POSITION", name, t)
		if err != nil {
			return nil, fmt.Errorf("read template table %s: %w", t, m.sqlError(err))
		}
		var cols []string
		for rows.Next() {
			var c string
			if err := rows.Scan(&c); err != nil {
				rows.Close()
				return nil, err
			}
			cols = append(cols, myIdent(c))
		}
		rows.Close()
		list := strings.Join(cols, ", ")
		inserts.WriteString("INSERT INTO " + myIdent(t) + " (" + list + ") SELECT " + list + " FROM " + myIdent(name) + "." + myIdent(t) + ";\n")
	}
	if err := m.lockTemplate(ctx, name, tables); err != nil {
		return nil, err
	}
	return &MyTemplate{m: m, name: name, tables: tables, script: creates.String() + inserts.String() + "SET SESSION FOREIGN_KEY_CHECKS = 1"}, nil
}

// Copy makes a fresh database from the template: CREATE DATABASE, then the copy script
// in one round trip on a session of its own.
func (t *MyTemplate) Copy(ctx context.Context) (Copy, error) {
	m := t.m
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	name := myCopyPrefix + m.me.tag() + "_" + strconv.FormatInt(nameSeq.Add(1), 10)
	m.mu.Lock()
	m.live[name] = true
	m.mu.Unlock()
	fail := func(err error) (Copy, error) {
		_ = m.dropDatabase(context.WithoutCancel(ctx), name)
		return nil, fmt.Errorf("create database %s: %w", name, err)
	}
	if err := m.exec(ctx, "CREATE DATABASE "+myIdent(name)+" CHARACTER SET utf8mb4"); err != nil {
		return fail(err)
	}
	c := &myCopy{m: m, name: name}
	if err := c.open(ctx); err != nil {
		return fail(err)
	}
	_, err := c.conn.ExecContext(ctx, t.script)
	c.close() // the task's session is a new one: its counters start after the copy's writes
	c.coms = nil
	if err != nil {
		return fail(m.sqlError(err))
	}
	return c, nil
}

func (m *MySQL) dropDatabase(ctx context.Context, name string) error {
	if err := m.exec(ctx, "DROP DATABASE IF EXISTS "+myIdent(name)); err != nil {
		return fmt.Errorf("drop database %s: %w", name, err)
	}
	m.mu.Lock()
	delete(m.live, name)
	m.mu.Unlock()
	return nil
}

// DropCopies drops every copy this MySQL made that is not dropped yet (as
// Postgres.DropCopies).
func (m *MySQL) DropCopies(ctx context.Context) ([]string, error) {
	m.mu.Lock()
	names := make([]string, 0, len(m.live))
	for n := range m.live {
		names = append(names, n)
	}
	m.mu.Unlock()
	slices.Sort(names)
	var errs []error
	for _, n := range names {
		if err := m.dropDatabase(ctx, n); err != nil {
			errs = append(errs, err)
		}
	}
	return names, errors.Join(errs...)
}

// Sweep drops the copies and unfinished templates whose owner process is gone (owner.go)
// and returns their names. Run it before a run starts.
func (m *MySQL) Sweep(ctx context.Context) ([]string, error) {
	names, err := m.schemas(ctx, myCopyPrefix, myBuildPrefix)
	if err != nil {
		return nil, err
	}
	var dropped []string
	for _, n := range names {
		o, _, ok := parseTag(n[len(myCopyPrefix):])
		if !ok || !o.gone() {
			continue
		}
		if err := m.dropDatabase(ctx, n); err != nil {
			return dropped, err
		}
		dropped = append(dropped, n)
	}
	return dropped, nil
}

// Mine lists the copies and unfinished templates this process made that still exist.
func (m *MySQL) Mine(ctx context.Context) ([]string, error) {
	tag := m.me.tag() + "_"
	return m.schemas(ctx, myCopyPrefix+tag, myBuildPrefix+tag)
}
