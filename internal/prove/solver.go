package prove

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"sync"
	"time"
)

// ErrNoSolver: z3 is not installed; every proof is Unknown.
var ErrNoSolver = errors.New("no SMT solver (z3 not found on PATH)")

// Solver runs z3 as a subprocess, one process per query, speaking SMT-LIB2 on its
// standard input. A query that overruns its budget or whose ctx ends has its process
// killed.
type Solver struct {
	Path string // the z3 executable; "" when missing
}

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
	ctx, cancel := context.WithTimeout(ctx, budget+2*time.Second)
	defer cancel()
	ms := budget.Milliseconds()
	cmd := exec.CommandContext(ctx, s.Path, "-in", "-smt2", fmt.Sprintf("-T:%d", (ms+999)/1000+1))
	cmd.WaitDelay = time.Second
	var full strings.Builder
	fmt.Fprintf(&full, "(set-option :produce-models true)\n(set-option :timeout %d)\n", ms)
	full.WriteString(script)
	full.WriteString("(check-sat)\n")
	vars := baseVars(script)
	if len(vars) > 0 {
		full.WriteString("(get-value (" + strings.Join(vars, " ") + "))\n")
	}
	full.WriteString("(exit)\n")
	cmd.Stdin = strings.NewReader(full.String())
	out, err := cmd.Output()
	if ctx.Err() != nil {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return &Answer{Status: "timeout"}, nil
		}
		return nil, ctx.Err()
	}
	sc := bufio.NewScanner(strings.NewReader(string(out)))
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	if !sc.Scan() {
		return nil, fmt.Errorf("z3: no answer: %v", err)
	}
	status := strings.TrimSpace(sc.Text())
	switch status {
	case "unsat", "unknown", "timeout":
		return &Answer{Status: status}, nil
	case "sat":
	default:
		return nil, fmt.Errorf("z3: %s", oneLine(status))
	}
	rest := string(out)[strings.Index(string(out), "sat")+3:]
	vals, perr := parseValues(rest)
	if perr != nil {
		return nil, fmt.Errorf("z3 model: %w: %s", perr, oneLine(rest))
	}
	return &Answer{Status: "sat", Values: vals}, nil
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
