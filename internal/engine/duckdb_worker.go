package engine

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// DuckDB's memory_limit does not count the temporaries of evaluating one expression (four
// 250 MB repeats concatenated took 4.2 GB under a 1GB limit), and no DuckDB setting does.
// With DuckDBOptions.Isolate every statement runs instead in a worker process: this same
// binary, started with duckWorkerEnv set (duckdb_worker_serve.go's init), which caps its
// own address space (RLIMIT_AS) at what it mapped on start plus DuckDBOptions.WorkerMemory.
// An allocation refused there becomes DuckDB's "Out of Memory Error", and the statement
// fails as over the byte limit (row_limit), as one over memory_limit does. A worker runs
// one statement at a time, so a statement never fails for a neighbour's memory; and as
// DuckDB's allocator and the Go heap keep what they freed mapped, a statement stopped at
// the cap in a worker that ran others is run again in a new one, and a worker retires
// (exits after answering) once it grew by half its cap, after WorkerStatements
// statements, or after a DuckDB internal error. The parent kills a worker whose
// statement's ctx ended (and one that overran its timeout by duckWorkerGrace), and
// starts another when needed.
//
// A worker that dies running a statement (a crash in DuckDB) is replaced and the
// statement run once more; dying twice is the statement's outcome (a DBError saying so),
// as a crash is reproducible and nothing else ran in that process. A death whose last
// words are the Go runtime's or C++'s out-of-memory message is over the byte limit.

// DuckDBIsolationSupported reports whether Isolate works here (it reads /proc).
const DuckDBIsolationSupported = runtime.GOOS == "linux"

// DefaultDuckDBWorkerMemory is DuckDBOptions.WorkerMemory's default: room for
// memory_limit's 1GB, a result at the 256 MiB byte cap, and the expressions' temporaries.
const DefaultDuckDBWorkerMemory int64 = 2 << 30

// DefaultDuckDBWorkerStatements is DuckDBOptions.WorkerStatements' default: a new worker
// (25 ms to start) every thousand statements.
const DefaultDuckDBWorkerStatements = 1000

const (
	// duckWorkerGrace is how long past its timeout a statement may go before its worker is
	// killed (the worker interrupts DuckDB itself at the timeout).
	duckWorkerGrace = 5 * time.Second
	// duckWorkerStart bounds a worker's start: exec, loading the library, the handshake.
	duckWorkerStart = 60 * time.Second
	// duckWorkerIdle bounds the idle workers kept for the next statements.
	duckWorkerIdle = 8
)

// duckPool starts, keeps and stops worker processes.
type duckPool struct {
	exe   string
	args  []string // none but in tests
	cfg   duckWorkerConfig
	token string       // the worker's duckWorkerEnv, sent again on the pipe
	peak  atomic.Int64 // the largest peak RSS of a reaped worker, in bytes

	mu     sync.Mutex
	idle   []*duckWorker
	closed bool
}

// duckWorker is one worker process and the parent's ends of its two pipes.
type duckWorker struct {
	cmd    *exec.Cmd
	req    *os.File
	resp   *os.File
	w      wireWriter
	r      *wireReader
	stderr *stderrLog
	exited chan struct{} // closed once the process is reaped
	runs   int           // statements sent to it
}

func newDuckPool(cfg duckWorkerConfig) (*duckPool, error) {
	// /proc/self/exe is this very program even if its file was replaced or removed since.
	b := make([]byte, duckWorkerTokenLen/2)
	if _, err := rand.Read(b); err != nil {
		return nil, fmt.Errorf("duckdb worker token: %w", err)
	}
	return &duckPool{exe: "/proc/self/exe", cfg: cfg, token: hex.EncodeToString(b)}, nil
}

// query runs one statement in a worker; see the comment at the top for crashes. A
// statement that meets the memory cap in a worker that ran others before is run again in
// a new one: what an earlier statement left mapped (DuckDB's allocator keeps freed
// memory) must not decide its verdict.
func (p *duckPool) query(ctx context.Context, path, q string, lim Limits) (*Result, error) {
	req := duckRequest{Path: path, Query: q, Timeout: lim.Timeout, MaxRows: lim.MaxRows, MaxBytes: lim.byteCap()}
	fresh := false
	var first *workerDeath
	for {
		res, err, death, used := p.once(ctx, req, fresh)
		switch {
		case death == nil && isWorkerMemory(err) && used && !fresh:
			fresh = true // once more, in a new worker
		case death == nil:
			return res, err
		case ctx.Err() != nil:
			return nil, ctx.Err()
		case death.outOfMemory() && (!used || fresh):
			return nil, fmt.Errorf("%w: the statement needs more memory than DuckDB's memory_limit (%s) or its worker's %s (the worker ran out)", ErrByteLimit, p.cfg.MemoryLimit, byteSize(p.cfg.Memory))
		case first == nil:
			first, fresh = death, true // once more, in a new worker
		case first.fault || death.fault:
			// SIGKILL comes from outside (the kernel's out-of-memory killer, a user), and a
			// broken protocol is ours: never the statement's verdict.
			return nil, &FaultError{Op: "duckdb worker", Err: fmt.Errorf("ended twice running the statement, not by the statement (%v; %v)", first, death),
				Hint: "look for the system's out-of-memory killer (dmesg) or whoever sends SIGKILL"}
		default:
			return nil, &DBError{Message: "the DuckDB worker process died running the statement, twice: " + death.Error(), Class: ClassOther}
		}
	}
}

// reply is a worker's answer to one request; wire is set when there was none.
type reply struct {
	res    *Result
	err    error
	retire bool
	wire   error
}

// once runs req in one worker, a new one if fresh. death is set when the worker died (or
// broke the protocol) running it: err is then nil. used says the worker had run other
// statements before.
func (p *duckPool) once(ctx context.Context, req duckRequest, fresh bool) (res *Result, err error, death *workerDeath, used bool) {
	w, err := p.get(ctx, fresh)
	if err != nil {
		return nil, err, nil, false
	}
	used = w.runs > 0
	w.runs++
	ch := make(chan reply, 1)
	go func() {
		w.w.request(req)
		if err := w.w.Flush(); err != nil {
			ch <- reply{wire: err}
			return
		}
		ch <- w.read(req)
	}()
	var backstop <-chan time.Time
	if req.Timeout > 0 {
		t := time.NewTimer(req.Timeout + duckWorkerGrace)
		defer t.Stop()
		backstop = t.C
	}
	select {
	case rp := <-ch:
		if rp.wire != nil {
			d := w.death(rp.wire) // before kill: how it ended, not our SIGKILL
			w.kill()
			return nil, nil, d, used
		}
		if rp.retire {
			w.stop()
		} else {
			p.put(w)
		}
		return rp.res, rp.err, nil, used
	case <-ctx.Done():
		w.kill()
		<-ch
		return nil, ctx.Err(), nil, used
	case <-backstop:
		w.kill()
		<-ch
		return nil, ErrTimeout, nil, used
	}
}

// read reads the response to req.
func (w *duckWorker) read(req duckRequest) reply {
	var rp reply
	switch m := w.r.byte(); m {
	case wireResult:
		rp.res, rp.err = w.r.result(req)
	case wireError:
		rp.err = w.r.error()
	default:
		if w.r.err == nil {
			w.r.fail(fmt.Errorf("unexpected response %d", m))
		}
	}
	rp.retire = w.r.byte() == 1
	if w.r.err != nil {
		return reply{wire: w.r.err}
	}
	return rp
}

// get returns an idle worker, or starts one (always when fresh).
func (p *duckPool) get(ctx context.Context, fresh bool) (*duckWorker, error) {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return nil, errors.New("duckdb engine is closed")
	}
	if n := len(p.idle); n > 0 && !fresh {
		w := p.idle[n-1]
		p.idle = p.idle[:n-1]
		p.mu.Unlock()
		return w, nil
	}
	p.mu.Unlock()
	return p.start(ctx)
}

// put keeps w for the next statement, or stops it.
func (p *duckPool) put(w *duckWorker) {
	p.mu.Lock()
	if !p.closed && len(p.idle) < duckWorkerIdle {
		p.idle = append(p.idle, w)
		w = nil
	}
	p.mu.Unlock()
	if w != nil {
		w.stop()
	}
}

// close stops the idle workers; a busy one stops when its statement ends.
func (p *duckPool) close() {
	p.mu.Lock()
	idle := p.idle
	p.idle, p.closed = nil, true
	p.mu.Unlock()
	for _, w := range idle {
		w.stop()
	}
}

// start starts a worker and waits for its handshake: DuckDB's version, or why it could
// not open DuckDB (a FaultError: nothing the statement did).
func (p *duckPool) start(ctx context.Context) (*duckWorker, error) {
	fault := func(err error) error { return &FaultError{Op: "start duckdb worker", Err: err} }
	reqR, reqW, err := os.Pipe()
	if err != nil {
		return nil, fault(err)
	}
	respR, respW, err := os.Pipe()
	if err != nil {
		reqR.Close()
		reqW.Close()
		return nil, fault(err)
	}
	cmd := exec.Command(p.exe, p.args...)
	if p.args == nil {
		cmd.Args[0] = filepath.Base(os.Args[0]) + "-duckdb-worker" // what ps shows
	}
	cmd.Env = append(os.Environ(), duckWorkerEnv+"="+p.token)
	cmd.ExtraFiles = []*os.File{reqR, respW}
	w := &duckWorker{cmd: cmd, req: reqW, stderr: &stderrLog{half: 2 << 10}, exited: make(chan struct{})}
	cmd.Stderr = w.stderr
	// Its own process group: a Ctrl-C in the terminal reaches the parent, which stops it.
	// Pdeathsig: it dies with the parent, even mid-statement (a parent killed outright
	// cannot stop it; Go ends no thread that started a process, so it fires only then).
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	err = cmd.Start()
	reqR.Close()
	respW.Close()
	if err != nil {
		reqW.Close()
		respR.Close()
		return nil, fault(err)
	}
	// respR is closed by kill and stop, not here: a worker that answered and exited
	// may still have its answer in the pipe.
	w.resp = respR
	go func() {
		cmd.Wait()
		if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
			p.notePeak(ru.Maxrss << 10) // Linux counts KiB
		}
		close(w.exited)
	}()
	w.w = wireWriter{bufio.NewWriterSize(reqW, 64<<10)}
	w.r = &wireReader{r: bufio.NewReaderSize(respR, 64<<10)}
	if err := w.handshake(ctx, p.token, p.cfg); err != nil {
		w.kill()
		return nil, err
	}
	return w, nil
}

// handshake sends the configuration and reads the worker's answer.
func (w *duckWorker) handshake(ctx context.Context, token string, cfg duckWorkerConfig) error {
	ch := make(chan error, 1)
	go func() {
		w.w.str(token)
		w.w.config(cfg)
		if err := w.w.Flush(); err != nil {
			ch <- w.death(err)
			return
		}
		switch m := w.r.byte(); {
		case m == wireResult:
			w.r.str() // the version: the parent loaded the same library
		case m == wireError && w.r.err == nil:
			if err := w.r.error(); w.r.err == nil {
				ch <- err // why the worker could not open DuckDB
				return
			}
		case w.r.err == nil:
			w.r.fail(fmt.Errorf("unexpected handshake %d", m))
		}
		if w.r.err != nil {
			ch <- w.death(w.r.err)
			return
		}
		ch <- nil
	}()
	t := time.NewTimer(duckWorkerStart)
	defer t.Stop()
	select {
	case err := <-ch:
		if err != nil {
			return &FaultError{Op: "start duckdb worker", Err: err}
		}
		return nil
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return &FaultError{Op: "start duckdb worker", Err: fmt.Errorf("no answer in %v", duckWorkerStart)}
	}
}

// death describes a worker that stopped answering: how it ended and its last words.
func (w *duckWorker) death(cause error) *workerDeath {
	d := &workerDeath{status: cause.Error()}
	select {
	case <-w.exited:
		if st := w.cmd.ProcessState; st != nil {
			d.status = st.String()
			ws, ok := st.Sys().(syscall.WaitStatus)
			// SIGKILL comes from outside: this package sends it only to workers it gave
			// up on, which are not read as deaths, or just below.
			d.fault = ok && ws.Signaled() && ws.Signal() == syscall.SIGKILL
		}
	case <-time.After(5 * time.Second):
		// Alive, but it broke the protocol (cause): the worker's fault, not the statement's.
		w.kill()
		d.status, d.fault = "broke the protocol ("+cause.Error()+"), killed", true
	}
	d.words = w.stderr.String()
	return d
}

// workerDeath is how a worker ended (its exit status, or why the pipe failed) and what
// it wrote to stderr (the start and the end of it).
type workerDeath struct {
	status, words string
	// fault: nothing the statement did (a SIGKILL from outside, the protocol broken).
	fault bool
}

// Error is the status and the first line the worker wrote: the Go runtime's "fatal
// error: ...", or C++'s "terminate called after ...", not the stacks that follow.
func (d *workerDeath) Error() string {
	first, _, _ := strings.Cut(strings.TrimSpace(d.words), "\n")
	if len(first) > 300 {
		first = first[:300] + "..."
	}
	if first == "" {
		return d.status
	}
	return d.status + ": " + first
}

// outOfMemory reads the worker's last words: the Go runtime's fatal error or C++'s
// std::bad_alloc.
func (d *workerDeath) outOfMemory() bool {
	return strings.Contains(d.words, "out of memory") || strings.Contains(d.words, "bad_alloc")
}

// kill ends the worker at once and reaps it.
func (w *duckWorker) kill() {
	w.cmd.Process.Kill()
	w.req.Close()
	<-w.exited
	w.resp.Close()
}

// stop ends an idle worker: it exits when its request pipe closes.
func (w *duckWorker) stop() {
	w.req.Close()
	select {
	case <-w.exited:
		w.resp.Close()
	case <-time.After(5 * time.Second):
		w.kill()
	}
}

// notePeak records a reaped worker's peak RSS.
func (p *duckPool) notePeak(rss int64) {
	for {
		old := p.peak.Load()
		if rss <= old || p.peak.CompareAndSwap(old, rss) {
			return
		}
	}
}

// stderrLog keeps the first and the last half bytes written to it: a worker's stderr,
// whose first line says why it died and whose end may too.
type stderrLog struct {
	mu         sync.Mutex
	half       int
	head, tail []byte
	cut        bool // bytes were dropped between head and tail
}

func (l *stderrLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := len(p)
	if room := l.half - len(l.head); room > 0 {
		k := min(room, len(p))
		l.head = append(l.head, p[:k]...)
		p = p[k:]
	}
	l.tail = append(l.tail, p...)
	if over := len(l.tail) - l.half; over > 0 {
		l.tail = append(l.tail[:0], l.tail[over:]...)
		l.cut = true
	}
	return n, nil
}

func (l *stderrLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	sep := ""
	if l.cut {
		sep = "\n...\n"
	}
	return string(l.head) + sep + string(l.tail)
}
