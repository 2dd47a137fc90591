package taskcode

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"

	"github.com/nl2sqlbench/nl2sqlbench/internal/taskdb"
)

// DB runs SQL on the task's database copy: taskdb.Copy is one, and so is a test's fake.
// An *taskdb.SQLError, taskdb.ErrTimeout or taskdb.ErrTooLarge is the statement's
// failure and goes back to the test code as a psycopg2-style exception; any other error
// is an infrastructure fault that stops the test case and is returned by Run.
type DB interface {
	Exec(ctx context.Context, sql string, lim taskdb.ExecLimits) (*taskdb.Result, error)
}

// Case is one test case to run: the arguments the official evaluator gives it.
type Case struct {
	Code     string   // Python source defining test_case(pred_sqls, sol_sqls, db_name, conn, ...)
	PredSQLs []string // pred_sqls
	SolSQLs  []string // sol_sqls
	DBName   string   // db_name (the test cannot reach any database by it: only ours)
	// Kwargs are passed as test_case(..., **kwargs): the official evaluator passes
	// {"conditions": ...} to the default test case of a Query task, nothing otherwise.
	Kwargs map[string]any
	// PredResult is the prediction's last result (the global pred_query_result); nil: None.
	PredResult *taskdb.Result
}

// Status is how a test case ended.
type Status string

// The statuses.
const (
	Passed    Status = "passed"
	Assertion Status = "assertion" // an assert failed; Message is its message
	TestError Status = "error"     // an exception (Class, Message), a SyntaxError (Compile)
	Timeout   Status = "timeout"   // ran past Limits.Wall and was killed
	Killed    Status = "killed"    // died of a signal or a limit (CPU time, file size)
)

// Outcome is what one test case did.
type Outcome struct {
	Status    Status
	Class     string // the exception's class (TestError, Assertion)
	Message   string // the assertion's or exception's message; for Timeout and Killed, why
	Compile   bool   // the code does not compile
	Traceback string // the last frames
	Output    string // what the test printed (capped)
	Stderr    string // the process's own error output (capped): a crash's last words
	SQL       int    // statements the test ran through the channel
	Elapsed   time.Duration
}

// errEnded: the sandbox closed its end of the channel without an outcome.
var errEnded = fmt.Errorf("%w: the sandbox ended without an outcome", ErrProtocol)

const (
	maxLine   = 32 << 20 // a request line from the sandbox
	maxStderr = 16 << 10
)

// Run runs one test case in a fresh sandbox against db. The error is for the caller's
// own faults (its context ended, the database connection failed, the sandbox cannot
// start); whatever the test code does is an Outcome.
func (p *Python) Run(ctx context.Context, db DB, c Case) (Outcome, error) {
	start := time.Now()
	o, err := p.run(ctx, db, c)
	o.Elapsed = time.Since(start)
	return o, err
}

func (p *Python) run(ctx context.Context, db DB, c Case) (Outcome, error) {
	job, err := jobLine(c)
	if err != nil {
		return Outcome{}, err
	}
	cfg, err := p.config(p.Isolation, false)
	if err != nil {
		return Outcome{}, err
	}
	dir, err := os.MkdirTemp("", "nl2sb-taskcode-")
	if err != nil {
		return Outcome{}, fmt.Errorf("sandbox directory: %w", err)
	}
	defer os.RemoveAll(dir)

	cmd := exec.Command(p.Path, "-I", "-S", "-c", bootstrap, cfg)
	cmd.Env = scrubbedEnv()
	cmd.Dir = dir
	cmd.SysProcAttr = sysProcAttr(p.Isolation)
	stderr := &capped{max: maxStderr}
	cmd.Stderr = stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return Outcome{}, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return Outcome{}, err
	}
	if err := cmd.Start(); err != nil {
		return Outcome{}, fmt.Errorf("start sandbox: %w", err)
	}
	kill := func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) // its process group
		_ = cmd.Process.Kill()                              // PID 1 of its namespace: the kernel kills the rest
	}

	wall := p.Limits.Wall
	if wall <= 0 {
		wall = DefaultLimits.Wall
	}
	runCtx, cancel := context.WithTimeout(ctx, wall)
	defer cancel()
	stop := context.AfterFunc(runCtx, kill)
	defer stop()

	s := &session{db: db, lim: p.Limits, in: stdin, out: bufio.NewReaderSize(stdout, 64<<10)}
	o, serr := s.serve(runCtx, job)
	var werr error
	if errors.Is(serr, errEnded) {
		// It ended on its own: how (a signal, a limit) is in its exit status.
		werr = cmd.Wait()
		kill() // what it left running in its process group
	} else {
		kill() // whatever it left running (a process it forked) ends with it
		werr = cmd.Wait()
	}
	_ = stdin.Close()
	o.Stderr = stderr.String()
	o.SQL = s.statements

	switch {
	case ctx.Err() != nil:
		return o, ctx.Err()
	case errors.Is(serr, errInfra):
		return o, serr
	case runCtx.Err() != nil:
		return Outcome{Status: Timeout, Message: fmt.Sprintf("killed after %s (wall-clock limit)", wall),
			Stderr: o.Stderr, SQL: o.SQL, Output: o.Output}, nil
	case serr == nil:
		return o, nil
	}
	// No outcome came back: how did the process end?
	o.Status = TestError
	o.Class = "SandboxError"
	o.Message = serr.Error()
	var ee *exec.ExitError
	if errors.Is(serr, errEnded) && errors.As(werr, &ee) {
		if why := exitReason(ee); why != "" {
			o.Status, o.Class, o.Message = Killed, "", why
		}
	}
	return o, nil
}

// exitReason says which signal or limit ended the process, as the reaper reports it
// (exit status 128+signal) or as the kernel does.
func exitReason(ee *exec.ExitError) string {
	ws, ok := ee.Sys().(syscall.WaitStatus)
	if !ok {
		return ""
	}
	sig := syscall.Signal(0)
	switch {
	case ws.Signaled():
		sig = ws.Signal()
	case ws.Exited() && ws.ExitStatus() > 128 && ws.ExitStatus() < 128+65:
		sig = syscall.Signal(ws.ExitStatus() - 128)
	default:
		return ""
	}
	switch sig {
	case syscall.SIGXCPU:
		return "CPU time limit (SIGXCPU)"
	case syscall.SIGXFSZ:
		return "file size limit (SIGXFSZ)"
	case syscall.SIGKILL:
		return "killed (SIGKILL: the CPU hard limit or the kernel's OOM killer)"
	}
	return "died of " + sig.String()
}

func jobLine(c Case) ([]byte, error) {
	j := map[string]any{
		"code":      c.Code,
		"pred_sqls": nonNil(c.PredSQLs),
		"sol_sqls":  nonNil(c.SolSQLs),
		"db_name":   c.DBName,
		"kwargs":    c.Kwargs,
	}
	if c.PredResult != nil {
		j["pred_query_result"] = wireResult(c.PredResult)
	}
	b, err := json.Marshal(j)
	if err != nil {
		return nil, fmt.Errorf("test case arguments: %w", err)
	}
	return append(b, '\n'), nil
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// readLine reads one line of at most max bytes.
func readLine(r *bufio.Reader, max int) ([]byte, error) {
	var line []byte
	for {
		frag, err := r.ReadSlice('\n')
		line = append(line, frag...)
		if len(line) > max {
			return nil, fmt.Errorf("%w: a line over %d bytes", ErrProtocol, max)
		}
		if err == nil {
			return line, nil
		}
		if !errors.Is(err, bufio.ErrBufferFull) {
			if errors.Is(err, io.EOF) {
				return nil, errEnded
			}
			return nil, err
		}
	}
}

// capped keeps the first max bytes written to it.
type capped struct {
	max int
	buf bytes.Buffer
}

func (c *capped) Write(p []byte) (int, error) {
	if room := c.max - c.buf.Len(); room > 0 {
		c.buf.Write(p[:min(room, len(p))])
	}
	return len(p), nil
}

func (c *capped) String() string { return strings.ToValidUTF8(c.buf.String(), "\uFFFD") }
