package benchrun

import (
	"errors"
	"strings"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
)

// TestCommonSystem: compare's choice of the system to follow across two runs, and the
// kind of each refusal (a usage mistake, or runs that cannot be compared).
func TestCommonSystem(t *testing.T) {
	run := func(dir string, names ...string) *rundir.Run {
		r := &rundir.Run{Dir: dir}
		for _, n := range names {
			r.Systems = append(r.Systems, rundir.SystemRun{Name: n})
		}
		return r
	}
	hint := func(sa, sb string) string { return "eval --pred " + sa + " --pred " + sb }
	for _, tc := range []struct {
		name   string
		a, b   *rundir.Run
		want   string
		got    string
		config bool     // the error matches ErrConfig
		errHas []string // the error says these
	}{
		{name: "one in common", a: run("a", "X", "Y"), b: run("b", "Y", "Z"), got: "Y"},
		{name: "wanted in both", a: run("a", "X", "Y"), b: run("b", "X", "Y"), want: "X", got: "X"},
		{name: "wanted not in both", a: run("a", "X", "Y"), b: run("b", "Y"), want: "X", config: true,
			errHas: []string{`--system "X" is not in both runs (in both: Y)`}},
		{name: "wanted, none in common", a: run("a", "X"), b: run("b", "Z"), want: "X", config: true,
			errHas: []string{"(in both: none)"}},
		{name: "several in common", a: run("a", "X", "Y"), b: run("b", "Y", "X"), config: true,
			errHas: []string{"several systems (X, Y): choose one with --system"}},
		{name: "none in common", a: run("a", "X"), b: run("b", "Z"),
			errHas: []string{"no system in common (a: X; b: Z)", "To compare X with Z", "(eval --pred X --pred Z)", "--system NAME"}},
		{name: "a run without systems", a: run("a"), b: run("b", "Z"),
			errHas: []string{"(a: none; b: Z)", "To compare A with B"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := CommonSystem(tc.a, tc.b, tc.want, hint)
			if tc.errHas == nil {
				if err != nil || got != tc.got {
					t.Fatalf("CommonSystem = %q, %v; want %q", got, err, tc.got)
				}
				return
			}
			if err == nil {
				t.Fatalf("CommonSystem = %q, want an error", got)
			}
			if errors.Is(err, ErrConfig) != tc.config {
				t.Errorf("errors.Is(err, ErrConfig) = %v, want %v (%v)", !tc.config, tc.config, err)
			}
			for _, w := range tc.errHas {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error lacks %q: %v", w, err)
				}
			}
		})
	}
}
