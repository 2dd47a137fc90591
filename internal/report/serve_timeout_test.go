package report

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// Issue 45, failure 11: the dashboard kept a slow POST body open without limit (only the
// headers had a timeout). A body that stops arriving ends the request within the read
// timeout: the handler's read fails and the connection is closed.
func TestDashboardSlowBodyTimesOut(t *testing.T) {
	if ServeReadTimeout <= 0 || ServeReadTimeout > time.Minute || ServeHeaderTimeout <= 0 {
		t.Fatalf("timeouts %s / %s", ServeHeaderTimeout, ServeReadTimeout)
	}
	readErr := make(chan error, 1)
	hs := HTTPServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, err := io.ReadAll(r.Body)
		readErr <- err
		if err != nil {
			http.Error(w, "body: "+err.Error(), http.StatusRequestTimeout)
		}
	}))
	hs.ReadTimeout = 300 * time.Millisecond // the same server, a test-sized timeout
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go hs.Serve(ln)
	defer hs.Close()
	c, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	// 100 bytes promised, 2 sent, then nothing.
	io.WriteString(c, "POST /api/review HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"")
	select {
	case err := <-readErr:
		if err == nil {
			t.Error("the handler read a body that never came")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the handler still waits for the body after 10 s")
	}
	c.SetReadDeadline(time.Now().Add(10 * time.Second))
	rest, _ := io.ReadAll(bufio.NewReader(c)) // the server closes the connection
	if len(rest) > 0 && !strings.HasPrefix(string(rest), "HTTP/1.1 ") {
		t.Errorf("reply %q", rest)
	}
}
