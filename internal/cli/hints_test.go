package cli

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/demo"
)

func TestProgramName(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ argv0, want string }{
		{"", "nl2sqlbench"},
		{"nl2sqlbench", "nl2sqlbench"}, // found on PATH (the wheel's console script execs it so)
		{"./nl2sqlbench", "./nl2sqlbench"},
		{"/opt/nl2sqlbench-0.1.0-linux-amd64/nl2sqlbench", "/opt/nl2sqlbench-0.1.0-linux-amd64/nl2sqlbench"},
		{"/home/a b/nl2sqlbench", "'/home/a b/nl2sqlbench'"},
		{"/tmp/go-build2973112233/b001/exe/nl2sqlbench", "go run ./cmd/nl2sqlbench"},
		{"/scratch/gotmp/go-build12/b001/exe/nl2sqlbench", "go run ./cmd/nl2sqlbench"}, // GOTMPDIR
		{"/srv/exe/nl2sqlbench", "/srv/exe/nl2sqlbench"},                               // an exe directory, not go run's
		// Go 1.24+ caches what go run builds: $GOCACHE/XX/<64 hex>-d/NAME (the cache may be
		// trimmed, and the path is not what a user types).
		{"/root/.cache/go-build/20/2023b1b81d45b0c2ebceb332b88228082a32dbd2a59587bd45229b0a897a936a-d/nl2sqlbench", "go run ./cmd/nl2sqlbench"},
		{"/srv/20/2023b1b81d45b0c2ebceb332b88228082a32dbd2a59587bd45229b0a897a936a/nl2sqlbench", "/srv/20/2023b1b81d45b0c2ebceb332b88228082a32dbd2a59587bd45229b0a897a936a/nl2sqlbench"}, // no -d
		{"/srv/build-d/nl2sqlbench", "/srv/build-d/nl2sqlbench"},
	} {
		if got := programName(tc.argv0); got != tc.want {
			t.Errorf("programName(%q) = %q, want %q", tc.argv0, got, tc.want)
		}
	}
}

// runAs runs the command line as a program started as argv0; it returns the exit code.
func runAs(t *testing.T, argv0 string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = Run(context.Background(), append([]string{argv0}, args...), strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

// TestHintsRunAsTyped: every command the CLI prints to paste starts with the program as
// it was run, not with a bare nl2sqlbench that a source build does not put on PATH.
func TestHintsRunAsTyped(t *testing.T) {
	t.Parallel()
	skipLongInShort(t)
	files, err := demo.Materialize(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	sys := files.SystemOrder[0]
	out := filepath.Join(t.TempDir(), "my run") // a space: the hint must quote it
	eval := []string{"eval", "--dataset", "jsonl:" + files.Questions, "--db-root", files.DBRoot,
		"--pred", sys + "=" + files.Systems[sys], "--out", out, "--force",
		"--timeout", demoTimeout.String()} // as demo judges: the demo has a query that runs until its timeout
	for _, tc := range []struct {
		name, argv0 string
		args        []string
		want        []string // parts of the output
	}{
		{"eval's report hint, built binary", "./nl2sqlbench", eval,
			[]string{"HTML report: ./nl2sqlbench report '" + out + "' --html '" + filepath.Join(out, "report.html") + "'",
				"): ./nl2sqlbench eval --resume --out '" + out + "' --details;"}},
		{"eval's report hint, go run", "/tmp/go-build42/b001/exe/nl2sqlbench", eval,
			[]string{"HTML report: go run ./cmd/nl2sqlbench report '" + out + "' --html"}},
		// The report hint run as printed, then the run replaced: it says the report went too.
		{"report as hinted", "./nl2sqlbench", []string{"report", out, "--html", filepath.Join(out, "report.html")},
			[]string{"html report: " + filepath.Join(out, "report.html")}},
		{"eval --force over a report", "./nl2sqlbench", eval,
			[]string{"note: --force replaced the earlier run in " + out + ", and with it " + filepath.Join(out, "report.html")}},
		{"usage error", "./bin/nl2sqlbench", []string{"eval", "--detials"},
			[]string{"usage: ./bin/nl2sqlbench eval --dataset", "example: ./bin/nl2sqlbench eval --dataset", "every flag: ./bin/nl2sqlbench eval --help"}},
		{"usage error, on PATH", "nl2sqlbench", []string{"report"},
			[]string{"usage: nl2sqlbench report RUN_DIR", "every flag: nl2sqlbench report --help"}},
		// The --details hint, run as printed: the finished run's tables, nothing judged again.
		{"eval's --details hint, run", "./nl2sqlbench", []string{"eval", "--resume", "--out", out, "--details"},
			[]string{"nothing left to judge: the run was complete; run directory: " + out, "HTML report: ./nl2sqlbench report"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, stdout, stderr := runAs(t, tc.argv0, tc.args...)
			for _, w := range tc.want {
				if !strings.Contains(stdout+stderr, w) {
					t.Errorf("output lacks %q:\n%s%s", w, stdout, stderr)
				}
			}
		})
	}
}

func TestRerunHintRunsAsTyped(t *testing.T) {
	t.Parallel()
	got := rerunHint(runOutput{prog: "go run ./cmd/nl2sqlbench", Args: []string{"--pricing=my prices.yaml"}}, "runs/a b")
	want := "go run ./cmd/nl2sqlbench eval --resume --out 'runs/a b' --pricing 'my prices.yaml'"
	if got != want {
		t.Errorf("rerunHint = %q, want %q", got, want)
	}
}
