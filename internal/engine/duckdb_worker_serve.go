package engine

/*
#include "duckdb_api.h"
*/
import "C"

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
	"time"
	"unsafe"
)

// The worker's side of duckdb_worker.go: a process that reads a configuration, opens
// DuckDB, caps its own address space, then runs one statement at a time.

// duckWorkerEnv marks a process its parent started as a DuckDB worker: its value is a
// token of duckWorkerTokenLen hex digits, which the parent sends again as the first
// thing on the pipe. Any other value is not this, and ignored.
const duckWorkerEnv = "NL2SQLBENCH_DUCKDB_WORKER"

const duckWorkerTokenLen = 32

// init turns this process into a DuckDB worker when its parent started it as one. It is
// an init, not a call in main, so that every binary linking the engine (the command and
// each package's test binary) is its own worker without a hook to forget. It is the one
// place below main that exits the process: a worker is not a command, and nothing of the
// program it was linked into runs.
func init() {
	if tok := os.Getenv(duckWorkerEnv); isWorkerToken(tok) {
		os.Exit(serveDuckWorker(tok))
	}
}

// isWorkerToken reports whether s has the form of a worker token.
func isWorkerToken(s string) bool {
	if len(s) != duckWorkerTokenLen {
		return false
	}
	for _, c := range s {
		if !strings.ContainsRune("0123456789abcdef", c) {
			return false
		}
	}
	return true
}

// duckWorkerHello bounds how long a worker waits for its configuration.
const duckWorkerHello = 10 * time.Second

// workerPipes returns the pipes a parent gives a worker as fds 3 and 4, or why this
// process was not started as one (the variable set by hand in a shell, say).
func workerPipes() (in, out *os.File, err error) {
	for _, fd := range []int{3, 4} {
		var st syscall.Stat_t
		if err := syscall.Fstat(fd, &st); err != nil || st.Mode&syscall.S_IFMT != syscall.S_IFIFO {
			return nil, nil, fmt.Errorf("file descriptor %d is not a pipe", fd)
		}
	}
	// Non-blocking, so that reads have deadlines (os.NewFile then uses the poller).
	if err := syscall.SetNonblock(3, true); err != nil {
		return nil, nil, err
	}
	return os.NewFile(3, "duckdb-requests"), os.NewFile(4, "duckdb-responses"), nil
}

// duckWorkerMaxDBs bounds the databases one worker keeps open: each holds its own
// threads and buffer pool, inside the worker's address-space cap.
const duckWorkerMaxDBs = 4

// serveDuckWorker is the worker's main loop; its result is the exit status.
func serveDuckWorker(token string) int {
	// The parent stops its workers; a Ctrl-C meant for the parent must not look like a
	// crash of the statement running here.
	signal.Ignore(os.Interrupt, syscall.SIGTERM)
	notStarted := func(why error) int {
		fmt.Fprintf(os.Stderr, "%s is set, but this process was not started by nl2sqlbench as its DuckDB worker (%v): unset %s\n", duckWorkerEnv, why, duckWorkerEnv)
		return 2
	}
	in, out, err := workerPipes()
	if err != nil {
		return notStarted(err)
	}
	r := &wireReader{r: bufio.NewReaderSize(in, 64<<10)}
	w := wireWriter{bufio.NewWriterSize(out, 64<<10)}
	in.SetReadDeadline(time.Now().Add(duckWorkerHello))
	tok := string(r.bytes(duckWorkerTokenLen))
	cfg := r.config()
	if r.err != nil || tok != token {
		return notStarted(fmt.Errorf("no configuration from a parent: %v", r.err))
	}
	in.SetReadDeadline(time.Time{})
	d, err := NewDuckDB(DuckDBOptions{Lib: cfg.Lib, Threads: cfg.Threads, MemoryLimit: cfg.MemoryLimit})
	var base int64
	if err == nil {
		// From here on cfg.Memory is what the worker really has (a user's ulimit -v may
		// leave less), for the messages and for swollen.
		base, cfg.Memory, err = limitAddressSpace(cfg.Memory)
	}
	var rss int64
	if s, err := procStatus("VmRSS"); err == nil {
		rss = s[0]
	}
	if cfg.Memory > 0 {
		// Rows stream out, but reading them leaves garbage (a value's Go copy); under the
		// cap it must be collected, not grown into room DuckDB needs (Go keeps the address
		// space it mapped).
		debug.SetMemoryLimit(cfg.Memory / 4)
	}
	if err != nil {
		w.WriteByte(wireError)
		w.errorBody(err)
		w.Flush()
		return 0
	}
	w.WriteByte(wireResult)
	w.str(d.Version())
	if w.Flush() != nil {
		return 1
	}
	for n := 1; ; n++ {
		if _, err := r.r.Peek(1); err == io.EOF {
			return 0 // the parent closed its end: done
		}
		q := r.request()
		if r.err != nil {
			fmt.Fprintf(os.Stderr, "duckdb worker: read request: %v\n", r.err)
			return 2
		}
		sink := &wireSink{w: w, max: q.MaxBytes}
		err, retire := d.workerRun(q, cfg.Memory, sink.header)
		switch {
		case err != nil && sink.started:
			w.WriteByte(wireAbort) // rows were sent: the parent drops them
			w.errorBody(err)
		case err != nil:
			w.WriteByte(wireError)
			w.errorBody(err)
		default:
			if !sink.started {
				sink.header(nil)
			}
			w.WriteByte(wireEnd)
		}
		retire = retire || n == cfg.Statements || swollen(base, rss, cfg.Memory)
		flag := byte(0)
		if retire {
			flag = 1
		}
		w.WriteByte(flag)
		if w.Flush() != nil {
			return 1
		}
		if retire {
			return 0
		}
	}
}

// workerRun runs one request, its rows going to the sink open returns. retire is true
// after an error that leaves DuckDB unusable (an internal or fatal error invalidates its
// database) or the worker's memory in doubt: the worker then exits.
func (d *DuckDB) workerRun(q duckRequest, memory int64, open func([]string) rowSink) (err error, retire bool) {
	db, err := d.openFew(q.Path)
	if err != nil {
		return err, false
	}
	lim := Limits{Timeout: q.Timeout, MaxRows: q.MaxRows, MaxBytes: q.MaxBytes}
	if q.MaxBytes == 0 {
		lim.MaxBytes = -1 // the request's 0 is no cap; Limits' 0 is the default cap
	}
	_, err = d.run(context.Background(), db, q.Path, q.Query, lim, open)
	var dbe *DBError
	switch {
	case errors.Is(err, errDuckMemory):
		// One statement at a time here: no neighbour shares the limit. What an earlier
		// statement left mapped might have, so the worker retires and the parent runs the
		// statement again in a new one unless this one was new (duckdb_worker.go).
		return fmt.Errorf("%w: the statement needs more memory than DuckDB's memory_limit (%s) or its worker's %s", errWorkerMemory, d.opt.MemoryLimit, byteSize(memory)), true
	case errors.As(err, &dbe):
		m := strings.ToLower(dbe.Message)
		if strings.HasPrefix(m, "internal error") || strings.HasPrefix(m, "fatal error") {
			dbe.Message += fmt.Sprintf(" (DuckDB's internal error, in a worker whose memory is capped at %s: most often an allocation over the cap)", byteSize(memory))
			return dbe, true
		}
	}
	return err, false
}

// openFew is open, closing every other database first when duckWorkerMaxDBs are open.
// Only a worker calls it: it runs one statement at a time, so none is in use.
func (d *DuckDB) openFew(path string) (unsafe.Pointer, error) {
	d.mu.Lock()
	if _, ok := d.dbs[path]; !ok && len(d.dbs) >= duckWorkerMaxDBs {
		for p, db := range d.dbs {
			C.ddb_close(&db)
			delete(d.dbs, p)
		}
	}
	d.mu.Unlock()
	return d.open(path)
}

// limitAddressSpace caps the process's address space at what it has mapped now, base (the
// Go runtime, the DuckDB library), plus extra bytes: DuckDB turns an allocation refused there
// into its "Out of Memory Error", which memory_limit alone does not give for the
// temporaries of one expression. extra <= 0 is no cap.
//
// A limit the user set already (ulimit -v) is kept where it is lower: the cap is never
// raised above it (it could not be above a hard limit), and extra is then what is left
// under it. The result is the extra the worker really has.
func limitAddressSpace(extra int64) (base, room int64, err error) {
	if extra <= 0 {
		return 0, 0, nil
	}
	s, err := procStatus("VmSize")
	if err != nil {
		return 0, 0, fmt.Errorf("cap the duckdb worker's memory: %w", err)
	}
	base = s[0]
	var old syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_AS, &old); err != nil {
		return 0, 0, fmt.Errorf("cap the duckdb worker's memory: getrlimit: %w", err)
	}
	lim := uint64(base + extra)
	if old.Cur < lim { // RLIM_INFINITY is the largest uint64: never lower
		lim = old.Cur
	}
	if err := syscall.Setrlimit(syscall.RLIMIT_AS, &syscall.Rlimit{Cur: lim, Max: lim}); err != nil {
		return 0, 0, fmt.Errorf("cap the duckdb worker's memory: setrlimit: %w", err)
	}
	return base, int64(lim) - base, nil
}

// duckWorkerKeepRSS is how much a worker's resident memory may grow over its start and
// the worker still wait for the next statement: DuckDB's allocator and the Go heap keep
// what a large statement used, and an idle worker must not hold it.
const duckWorkerKeepRSS = 256 << 20

// swollen reports whether the worker should make way for a new one: its address space
// grew by half its cap (less room left to the next statement), or its resident memory by
// duckWorkerKeepRSS. baseVM and baseRSS are what it had at start.
func swollen(baseVM, baseRSS, memory int64) bool {
	if memory <= 0 {
		return false
	}
	s, err := procStatus("VmSize", "VmRSS")
	return err != nil || s[0]-baseVM > memory/2 || s[1]-baseRSS > duckWorkerKeepRSS
}

// procStatus reads sizes in bytes from /proc/self/status, in one read: VmSize (the
// mapped address space), VmRSS (the resident memory).
func procStatus(fields ...string) ([]int64, error) {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return nil, err
	}
	out := make([]int64, len(fields))
	for i, f := range fields {
		_, rest, ok := strings.Cut(string(b), "\n"+f+":")
		if !ok {
			return nil, fmt.Errorf("no %s in /proc/self/status", f)
		}
		line, _, _ := strings.Cut(rest, "\n")
		kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(line), "kB")), 10, 64)
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", f, err)
		}
		out[i] = kb << 10
	}
	return out, nil
}

// byteSize writes n bytes for a message: "2 GiB", "300 MiB".
func byteSize(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", n>>30)
	case n >= 1<<20:
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}
