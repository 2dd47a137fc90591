package engine

import (
	"context"
	"strings"
	"testing"
	"time"
)

// TestDuckWorkerAnswerOutlivesExit: a worker may answer and exit at once (it retires);
// its answer is still in the pipe and must be read whole, however late the parent reads
// it. The parent once closed its end when it reaped the worker, and a 260 MB result then
// failed as "file already closed". Here a shell stands in for the worker: it writes the
// handshake and a canned answer, then exits before the parent reads the answer.
func TestDuckWorkerAnswerOutlivesExit(t *testing.T) {
	// handshake: result, "v"; later (so it is not read with the handshake), the answer:
	// result, 1 column "a", a row with the text "x", the end, retire.
	const script = `printf '\001\001v' >&4; sleep 0.2; printf '\001\001\001a\001\003\001x\002\001' >&4`
	p := &duckPool{exe: "/bin/sh", args: []string{"-c", script}}
	w, err := p.start(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	<-w.exited // the stand-in has exited and been reaped
	time.Sleep(50 * time.Millisecond)
	rp := w.read(duckRequest{MaxBytes: 1 << 20})
	if rp.wire != nil || rp.err != nil || !rp.retire || rp.res.NumRows() != 1 || rp.res.Text(0, 0) != "x" {
		t.Fatalf("answer after the worker's exit: %+v", rp)
	}
	w.stop()
}

// TestWorkerDeathWords: a dead worker's error is its status and its first line of
// stderr, even when a long stack trace follows; the out-of-memory reading sees the
// start and the end of what it wrote.
func TestWorkerDeathWords(t *testing.T) {
	l := &stderrLog{half: 64}
	l.Write([]byte("fatal error: out of memory\n\nruntime stack:\n"))
	for range 100 {
		l.Write([]byte("runtime.throw({0x1234, 0x5})\n\t/usr/local/go/src/runtime/panic.go:1094 +0x48\n"))
	}
	l.Write([]byte("exit status 2\n"))
	d := &workerDeath{status: "exit status 2", words: l.String()}
	if got := d.Error(); got != "exit status 2: fatal error: out of memory" {
		t.Errorf("Error() = %q", got)
	}
	if !d.outOfMemory() || len(l.String()) > 200 || !strings.Contains(l.String(), "\n...\n") {
		t.Errorf("out of memory %v, words %q", d.outOfMemory(), l.String())
	}
	cpp := &workerDeath{status: "signal: aborted", words: "terminate called after throwing an instance of 'std::bad_alloc'\n  what():  std::bad_alloc\n"}
	if !cpp.outOfMemory() || (&workerDeath{status: "signal: segmentation fault"}).outOfMemory() {
		t.Errorf("bad_alloc or a segfault read wrong")
	}
}
