package rundir

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
)

// TestArgsResume: which remembered flags resume takes back, which it lists for the
// command line to give again, and the args.json lines it refuses.
func TestArgsResume(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "dev.json")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("no FIFO here: %v", err)
	}
	rules := ArgRules{
		Never:     func(name string) bool { return name == "out" },
		Untrusted: func(name, value string) bool { return name == "dsn-env" || (name == "engine" && value != "sqlite") },
		Path: func(name, value string) string {
			if name == "dataset" {
				_, value, _ = strings.Cut(value, ":")
				return value
			}
			return ""
		},
	}
	for _, tc := range []struct {
		name   string
		args   []string
		given  map[string]bool
		want   *Resumed
		errHas string
	}{
		{name: "taken back", args: []string{"--dataset=bird:" + file, "--pred=p.json", "--out=/elsewhere", "--engine=sqlite"},
			want: &Resumed{Args: []string{"--dataset=bird:" + file, "--pred=p.json", "--engine=sqlite"}, HasDataset: true, HasPred: true}},
		{name: "given now wins", args: []string{"--dataset=bird:" + file, "--pred=p.json", "--workers=4"}, given: map[string]bool{"workers": true, "pred": true},
			want: &Resumed{Args: []string{"--dataset=bird:" + file}, HasDataset: true, HasPred: true}},
		{name: "untrusted listed once", args: []string{"--dataset=bird:" + file, "--engine=postgres", "--dsn-env=A", "--dsn-env=B"},
			want: &Resumed{Args: []string{"--dataset=bird:" + file}, Missing: []string{"--engine", "--dsn-env"}, HasDataset: true}},
		{name: "untrusted restated", args: []string{"--engine=postgres", "--pred=p.json"}, given: map[string]bool{"engine": true},
			want: &Resumed{Args: []string{"--pred=p.json"}, Restated: []string{"--engine"}, HasPred: true}},
		{name: "not a flag", args: []string{"--dataset=bird:" + file, "dataset"}, errHas: `args.json: "dataset" is not a --flag=value`},
		{name: "empty name", args: []string{"--=x"}, errHas: `"--=x" is not a --flag=value`},
		{name: "a FIFO", args: []string{"--dataset=bird:" + fifo}, errHas: "--dataset names " + fifo + ", which is not a file or a folder"},
		{name: "a missing file is read later", args: []string{"--dataset=bird:" + filepath.Join(dir, "gone")},
			want: &Resumed{Args: []string{"--dataset=bird:" + filepath.Join(dir, "gone")}, HasDataset: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := &Args{Command: "eval", Args: tc.args}
			got, err := a.Resume("args.json", tc.given, rules)
			if tc.errHas != "" {
				if err == nil || !strings.Contains(err.Error(), tc.errHas) {
					t.Fatalf("Resume: %v, want an error with %q", err, tc.errHas)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Resume =\n %+v\nwant\n %+v", got, tc.want)
			}
		})
	}
}
