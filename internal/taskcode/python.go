package taskcode

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"
)

//go:embed bootstrap.py
var bootstrap string

// Sentinel errors.
var (
	// ErrNoPython: no python3 on PATH (or it does not run). The caller says so once and
	// marks the tasks that need test code as not judged.
	ErrNoPython = errors.New("python3 not found: test cases cannot run")
	// ErrProtocol: the sandbox broke the protocol badly enough that nothing it said can
	// be read (it is reported as a test error, never as a pass).
	ErrProtocol = errors.New("sandbox protocol error")
)

// Isolation is how strongly a sandbox is separated from the machine.
type Isolation string

// The isolation modes.
const (
	// Namespaces: new network, mount, PID, IPC and UTS namespaces; every top-level
	// directory but the programs and libraries covered by an empty tmpfs; the test runs
	// as nobody (uid 65534) with no capabilities. Needs root (CAP_SYS_ADMIN).
	Namespaces Isolation = "namespaces"
	// Basic: the same user as the tool, the socket module replaced by one that refuses,
	// the process group killed at the end. The file system is readable as the tool's user.
	Basic Isolation = "basic"
)

// Limits bound one test case's process.
type Limits struct {
	Wall       time.Duration // the whole test case, SQL included; the process group is killed at the end
	CPU        time.Duration // CPU time of the Python process (RLIMIT_CPU, whole seconds)
	Memory     int64         // address space in bytes (RLIMIT_AS)
	Files      int           // open files (RLIMIT_NOFILE)
	Procs      int           // processes (RLIMIT_NPROC; counted for the user nobody in Namespaces mode)
	FileSize   int64         // largest file it may write (RLIMIT_FSIZE)
	TmpfsBytes int64         // size of each tmpfs in Namespaces mode (its /tmp is one)
	// Statement is the statement timeout of each SQL the test runs (the official 60 s).
	Statement time.Duration
}

// DefaultLimits: generous for the official test cases (they run a few dozen statements
// and compute little), small enough that a hostile one is stopped in seconds.
var DefaultLimits = Limits{
	Wall:       2 * time.Minute,
	CPU:        30 * time.Second,
	Memory:     512 << 20,
	Files:      64,
	Procs:      16,
	FileSize:   16 << 20,
	TmpfsBytes: 16 << 20,
	Statement:  60 * time.Second,
}

// Python is a python3 found on this machine and how its sandboxes are isolated.
type Python struct {
	Path      string // the interpreter itself (sys.executable), not a shim
	Version   string
	Isolation Isolation
	Limits    Limits
}

// Find looks for python3 on PATH (exec.LookPath), resolves it to the interpreter
// itself (a pyenv shim is a shell script that needs its environment), and probes
// whether the sandbox can use namespaces here. Without python3 it returns ErrNoPython.
func Find(ctx context.Context) (*Python, error) {
	shim, err := exec.LookPath("python3")
	if err != nil {
		return nil, fmt.Errorf("%w (%v)", ErrNoPython, err)
	}
	// The user's own environment, once, only to resolve the shim: nothing of the
	// dataset runs here.
	out, err := exec.CommandContext(ctx, shim, "-I", "-S", "-c",
		"import sys; print(sys.executable); print('%d.%d' % sys.version_info[:2])").Output()
	if err != nil {
		return nil, fmt.Errorf("%w (%s: %v)", ErrNoPython, shim, err)
	}
	lines := strings.Fields(string(out))
	if len(lines) != 2 || lines[0] == "" {
		return nil, fmt.Errorf("%w (%s printed %q)", ErrNoPython, shim, out)
	}
	p := &Python{Path: lines[0], Version: lines[1], Isolation: Basic, Limits: DefaultLimits}
	if os.Geteuid() == 0 && p.probe(ctx) == nil {
		p.Isolation = Namespaces
	}
	return p, nil
}

// probe runs the bootstrap's isolation in Namespaces mode and stops before any job.
func (p *Python) probe(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	cfg, _ := p.config(Namespaces, true)
	cmd := exec.CommandContext(ctx, p.Path, "-I", "-S", "-c", bootstrap, cfg)
	cmd.Env = scrubbedEnv()
	cmd.Dir = os.TempDir()
	cmd.SysProcAttr = sysProcAttr(Namespaces)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("namespace probe: %v: %s", err, stderr.String())
	}
	return nil
}

// scrubbedEnv is the sandbox's whole environment: nothing inherited from the tool
// (no DSN, no credentials, no PYTHON* variables).
func scrubbedEnv() []string {
	return []string{"PATH=/usr/bin:/bin", "LANG=C.UTF-8", "LC_ALL=C.UTF-8", "PYTHONIOENCODING=utf-8"}
}

func sysProcAttr(mode Isolation) *syscall.SysProcAttr {
	a := &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if mode == Namespaces {
		// The process itself is PID 1 of a new PID namespace (Cloneflags); the other
		// namespaces are unshared before exec, and Go makes every mount private when
		// CLONE_NEWNS is among Unshareflags, so nothing mounted inside leaks out.
		a.Cloneflags = syscall.CLONE_NEWPID
		a.Unshareflags = syscall.CLONE_NEWNET | syscall.CLONE_NEWNS | syscall.CLONE_NEWIPC | syscall.CLONE_NEWUTS
	}
	return a
}

// config is the bootstrap's argument.
func (p *Python) config(mode Isolation, probe bool) (string, error) {
	l := p.Limits
	b, err := json.Marshal(map[string]any{
		"mode":      string(mode),
		"probe":     probe,
		"tmpfs_kib": max(l.TmpfsBytes>>10, 64),
		"limits": map[string]any{
			"cpu_s":       int64((l.CPU + time.Second - 1) / time.Second),
			"as_bytes":    l.Memory,
			"files":       l.Files,
			"procs":       l.Procs,
			"fsize_bytes": l.FileSize,
		},
	})
	return string(b), err
}
