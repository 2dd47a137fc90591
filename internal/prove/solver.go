package prove

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// ErrNoSolver: z3 is not installed; every proof is Unknown.
var ErrNoSolver = errors.New("no SMT solver (z3 not found on PATH)")

// Solver runs z3 as a subprocess speaking SMT-LIB2 on its standard input. Starting z3
// costs about 100 ms of CPU (it loads and relocates a large library), more than most
// proofs take, so a query runs on an idle process when there is one: `(reset)` first,
// which returns z3 to its state at start, and an `(echo)` of a fresh marker last, which
// tells where the answer ends. A query that overruns its budget or whose ctx ends has
// its process killed, never reused; a process is retired after maxUses queries.
type Solver struct {
	Path string // the z3 executable; "" when missing

	mu      sync.Mutex
	idle    []*z3proc
	seq     atomic.Uint64
	started atomic.Int64 // processes started (tests read it)
}

// Pool bounds.
const (
	maxIdle = 4   // idle processes kept: the run's workers rarely exceed it
	maxUses = 500 // queries one process answers before it is retired (z3's memory)
	// killGrace is how long past its budget a query may run before its process is killed.
	killGrace = 250 * time.Millisecond
	// maxAnswer caps what one query's answer may hold (a model's values).
	maxAnswer = 64 << 20
)

var (
	defaultOnce   sync.Once
	defaultSolver *Solver
)

// DefaultSolver is z3 found on PATH (looked up once).
func DefaultSolver() *Solver {
	defaultOnce.Do(func() {
		p, _ := exec.LookPath("z3")
		defaultSolver = &Solver{Path: p}
	})
	return defaultSolver
}

// Available reports whether the solver can run.
func (s *Solver) Available() bool { return s != nil && s.Path != "" }

// Answer is the solver's status ("sat", "unsat", "unknown", "timeout") and, when sat,
// the values of the model's base-table variables.
type Answer struct {
	Status string
	Values map[string]string
}

// Solve checks script's satisfiability within budget and reads the base-table
// variables' values when it is satisfiable.
func (s *Solver) Solve(ctx context.Context, script string, budget time.Duration) (*Answer, error) {
	if !s.Available() {
		return nil, ErrNoSolver
	}
	// z3's own :timeout is soft (some tactics overrun it by seconds): the process is
	// killed a little after the budget, and that is a timeout like z3's.
	ctx, cancel := context.WithTimeout(ctx, budget+killGrace)
	defer cancel()
	p, err := s.get()
	if err != nil {
		return nil, err
	}
	mark := fmt.Sprintf("nl2sqlbench-end-%d", s.seq.Add(1))
	var full strings.Builder
	fmt.Fprintf(&full, "(reset)\n(set-option :produce-models true)\n(set-option :timeout %d)\n", budget.Milliseconds())
	full.WriteString(script)
	full.WriteString("\n(check-sat)\n")
	if vars := baseVars(script); len(vars) > 0 {
		full.WriteString("(get-value (" + strings.Join(vars, " ") + "))\n")
	}
	fmt.Fprintf(&full, "(echo %q)\n", mark)
	out, err := p.ask(ctx, full.String(), mark)
	if err != nil {
		p.kill()
		if ctx.Err() != nil {
			if errors.Is(ctx.Err(), context.DeadlineExceeded) {
				return &Answer{Status: "timeout"}, nil
			}
			return nil, ctx.Err()
		}
		return nil, err
	}
	s.put(p)
	return parseAnswer(out)
}

// parseAnswer reads check-sat's status and, when sat, get-value's model.
func parseAnswer(out string) (*Answer, error) {
	status, rest, _ := strings.Cut(out, "\n")
	status = strings.TrimSpace(status)
	switch status {
	case "unsat", "unknown", "timeout":
		return &Answer{Status: status}, nil
	case "sat":
	case "":
		return nil, errors.New("z3: no answer")
	default:
		return nil, fmt.Errorf("z3: %s", oneLine(status))
	}
	vals, perr := parseValues(rest)
	if perr != nil {
		return nil, fmt.Errorf("z3 model: %w: %s", perr, oneLine(rest))
	}
	return &Answer{Status: "sat", Values: vals}, nil
}

// Close stops the idle processes (a process in use stops when its query returns).
func (s *Solver) Close() {
	s.mu.Lock()
	idle := s.idle
	s.idle = nil
	s.mu.Unlock()
	for _, p := range idle {
		p.kill()
	}
}

// get takes an idle process, or starts one.
func (s *Solver) get() (*z3proc, error) {
	s.mu.Lock()
	if n := len(s.idle); n > 0 {
		p := s.idle[n-1]
		s.idle = s.idle[:n-1]
		s.mu.Unlock()
		return p, nil
	}
	s.mu.Unlock()
	s.started.Add(1)
	return startZ3(s.Path)
}

// put returns a process that answered in full to the idle list, or retires it.
func (s *Solver) put(p *z3proc) {
	p.uses++
	s.mu.Lock()
	if p.uses < maxUses && len(s.idle) < maxIdle {
		s.idle = append(s.idle, p)
		p = nil
	}
	s.mu.Unlock()
	if p != nil {
		p.kill()
	}
}

// z3proc is one running `z3 -in`. It exits on its own when its standard input closes
// (this process ending, however it ends).
type z3proc struct {
	cmd  *exec.Cmd
	in   io.WriteCloser
	out  *bufio.Reader
	uses int
}

func startZ3(path string) (*z3proc, error) {
	cmd := exec.Command(path, "-in", "-smt2")
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, fmt.Errorf("start z3: %w", err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("start z3: %w", err)
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start z3: %w", err)
	}
	return &z3proc{cmd: cmd, in: in, out: bufio.NewReaderSize(out, 64<<10)}, nil
}

// ask writes one query and reads its answer up to the marker line. It returns early
// with ctx's error when ctx ends first: the caller kills the process, which ends both
// goroutines.
func (p *z3proc) ask(ctx context.Context, query, mark string) (string, error) {
	type reply struct {
		out string
		err error
	}
	done := make(chan reply, 2)
	// Written apart from the reading: z3 may answer (an error line) before it has read
	// the whole query, and neither side may wait on the other's pipe.
	go func() {
		if _, err := io.WriteString(p.in, query); err != nil {
			done <- reply{err: fmt.Errorf("z3: write: %w", err)}
		}
	}()
	go func() {
		var b strings.Builder
		for {
			line, err := p.out.ReadString('\n')
			if err != nil {
				done <- reply{err: fmt.Errorf("z3: read: %w", err)}
				return
			}
			if strings.TrimRight(line, "\r\n") == mark {
				done <- reply{out: b.String()}
				return
			}
			if b.Len()+len(line) > maxAnswer {
				done <- reply{err: fmt.Errorf("z3: answer over %d bytes", maxAnswer)}
				return
			}
			b.WriteString(line)
		}
	}()
	select {
	case r := <-done:
		return r.out, r.err
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

// kill stops the process and reaps it.
func (p *z3proc) kill() {
	_ = p.in.Close()
	_ = p.cmd.Process.Kill()
	_ = p.cmd.Wait()
}

func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 200 {
		s = s[:200] + "..."
	}
	return s
}

// baseVars are the base tables' variables (e_, v_, n_ names) declared in script.
func baseVars(script string) []string {
	var out []string
	for _, line := range strings.Split(script, "\n") {
		if rest, ok := strings.CutPrefix(line, "(declare-const "); ok {
			name, _, _ := strings.Cut(rest, " ")
			if strings.HasPrefix(name, "e_") || strings.HasPrefix(name, "v_") || strings.HasPrefix(name, "n_") {
				out = append(out, name)
			}
		}
	}
	return out
}

// parseValues reads get-value's answer: ((name value) ...), values as s-expressions.
func parseValues(s string) (map[string]string, error) {
	toks := tokenize(s)
	out := map[string]string{}
	i := 0
	if i >= len(toks) || toks[i] != "(" {
		return nil, errors.New("no value list")
	}
	i++
	for i < len(toks) && toks[i] != ")" {
		if toks[i] != "(" || i+1 >= len(toks) {
			return nil, errors.New("malformed value pair")
		}
		name := toks[i+1]
		i += 2
		start := i
		depth := 0
		for i < len(toks) {
			if toks[i] == "(" {
				depth++
			} else if toks[i] == ")" {
				if depth == 0 {
					break
				}
				depth--
			}
			i++
		}
		out[name] = strings.Join(toks[start:i], " ")
		i++ // the pair's ")"
	}
	return out, nil
}

func tokenize(s string) []string {
	var toks []string
	cur := strings.Builder{}
	flush := func() {
		if cur.Len() > 0 {
			toks = append(toks, cur.String())
			cur.Reset()
		}
	}
	for _, r := range s {
		switch {
		case r == '(' || r == ')':
			flush()
			toks = append(toks, string(r))
		case r == ' ' || r == '\n' || r == '\t' || r == '\r':
			flush()
		default:
			cur.WriteRune(r)
		}
	}
	flush()
	return toks
}
