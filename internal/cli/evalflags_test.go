package cli

import (
	"bytes"
	"maps"
	"slices"
	"testing"

	"github.com/spf13/pflag"

	"github.com/nl2sqlbench/nl2sqlbench/internal/benchrun"
)

// TestEvalFlagTable: eval's flags are exactly its table's entries, each declared once,
// and the resume rules derived from the table are the ones resume has always applied.
func TestEvalFlagTable(t *testing.T) {
	t.Parallel()
	cmd := newEvalCmd(&env{stdout: &bytes.Buffer{}, stderr: &bytes.Buffer{}})
	var flags []string
	cmd.Flags().VisitAll(func(f *pflag.Flag) { flags = append(flags, f.Name) })
	var names []string
	seen := map[string]bool{}
	for _, fl := range evalFlags {
		if seen[fl.name] {
			t.Errorf("--%s declared twice", fl.name)
		}
		seen[fl.name] = true
		names = append(names, fl.name)
		if fl.keep == restate && fl.why == "" {
			t.Errorf("--%s: restated without saying why", fl.name)
		}
	}
	slices.Sort(flags)
	slices.Sort(names)
	if !slices.Equal(flags, names) {
		t.Errorf("eval's flags %v\nthe table's     %v", flags, names)
	}
	// Binding the table twice would panic on a redefined flag: each bind declares its own.
	if evalFlags[0].bind == nil {
		t.Error("the first entry declares nothing")
	}

	// Every flag that shapes verdicts names its entry of benchrun's table of recorded
	// settings, and every flag an entry names says so; the others are listed here.
	recorded := map[string]string{}
	for _, r := range benchrun.RecordedSettings() {
		for _, name := range r.Flags {
			recorded[name] = r.Key
		}
	}
	var unrecorded []string
	for _, fl := range evalFlags {
		if fl.key == "" {
			unrecorded = append(unrecorded, fl.name)
		}
		if fl.key != recorded[fl.name] {
			t.Errorf("--%s names manifest setting %q, benchrun's table %q", fl.name, fl.key, recorded[fl.name])
		}
		delete(recorded, fl.name)
	}
	if len(recorded) > 0 {
		t.Errorf("benchrun's table names flags eval does not have: %v", recorded)
	}
	slices.Sort(unrecorded)
	// Input files are fingerprinted (not settings); the rest shape how long a run takes,
	// where it goes and what it prints, or reach a server whose engine is recorded.
	if want := []string{"alternatives", "audit", "details", "diff-json", "dsn-env", "force", "hash-dbs", "json", "llm-judge-max-cost", "out", "pred", "resume",
		"sqlpp-bucket", "sqlpp-endpoint", "sqlpp-password-env", "sqlpp-user", "tables", "ves-budget", "ves-item-budget", "workers"}; !slices.Equal(unrecorded, want) {
		t.Errorf("flags no manifest setting records: %v", unrecorded)
	}

	keys := func(m map[string]bool) []string { return slices.Sorted(maps.Keys(m)) }
	if got := keys(notRemembered); !slices.Equal(got, []string{"details", "force", "json", "out", "resume"}) {
		t.Errorf("not remembered: %v", got)
	}
	if got := keys(neverRemembered); !slices.Equal(got, []string{"force", "out", "resume"}) {
		t.Errorf("never remembered: %v", got)
	}
	if got := slices.Sorted(maps.Keys(untrustedFlags)); !slices.Equal(got, []string{"dsn-env", "duckdb-lib", "engine", "llm-judge", "llm-judge-prompt", "pricing", "sqlpp-bucket", "sqlpp-endpoint", "sqlpp-password-env", "sqlpp-user", "task-code"}) {
		t.Errorf("untrusted: %v", got)
	}
	if got := slices.Sorted(maps.Keys(pathFlags)); !slices.Equal(got, []string{"alternatives", "dataset", "db-root", "diff-json", "llm-judge", "llm-judge-prompt", "pred", "pricing", "tables"}) {
		t.Errorf("paths: %v", got)
	}
	for in, want := range map[string]string{"a=/x/p.json": "a=/x/p.json", "spider:/d": "spider:/d"} {
		abs := pathFlags["pred"]
		if in[0] == 's' {
			abs = pathFlags["dataset"]
		}
		if got := abs(in); got != want {
			t.Errorf("%s made absolute: %s", in, got)
		}
	}
}
