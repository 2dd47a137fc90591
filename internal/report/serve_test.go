package report

import (
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
)

func get(tb testing.TB, url string) (int, string) {
	tb.Helper()
	resp, err := http.Get(url)
	if err != nil {
		tb.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		tb.Fatal(err)
	}
	return resp.StatusCode, string(b)
}

func TestServe(t *testing.T) {
	dir := fixtureRun(t) // <tmp>/run; runs live beside it under <tmp>
	root := filepath.Dir(dir)
	nested := filepath.Join(root, "more", "run2")
	writeRun(t, nested, "", sys{"solo", []map[string]any{rec(0, "simple", "correct", "SELECT 1", "SELECT 1")}})

	srv := NewServer(root, ExecOptions{Rows: 3, DBRoot: filepath.Join(root, "db")})
	defer srv.Close()
	ts := httptest.NewServer(srv.Handler())
	defer ts.Close()

	tests := []struct {
		name, path string
		code       int
		want       []string
		notWant    []string
	}{
		{"run list", "/", 200, []string{`href="/run/run/"`, `href="/run/more%2Frun2/"`, "alpha, beta&lt;i&gt;"}, nil},
		{"run page", "/run/run/", 200, []string{`<svg `, `href="/run/run/q/1"`, `id="f-verdict"`, "compare two systems"}, []string{"<details class=\"q\""}},
		{"nested run", "/run/more%2Frun2/", 200, []string{"solo"}, nil},
		{"drill-down executes", "/run/run/q/1", 200, []string{"&lt;/textarea&gt;&lt;script&gt;", `class="result"`, "first 3 of 40 rows"}, []string{"<script>alert"}},
		{"compare", "/run/run/compare?a=alpha&b=beta%3Ci%3E", 200, []string{"alpha right, beta&lt;i&gt; wrong (0)", "beta&lt;i&gt; right, alpha wrong (1)", `href="/run/run/q/1"`}, nil},
		{"compare form", "/run/run/compare", 200, []string{`<select name="a"`}, nil},
		{"unknown system", "/run/run/compare?a=alpha&b=zeta", 400, nil, nil},
		{"unknown run", "/run/nope/", 404, nil, nil},
		{"path outside the root", "/run/..%2F..%2Fetc/", 404, nil, nil},
		{"unknown question", "/run/run/q/99", 404, nil, nil},
		{"bad question", "/run/run/q/x", 404, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, body := get(t, ts.URL+tt.path)
			if code != tt.code {
				t.Fatalf("GET %s: %d, want %d: %s", tt.path, code, tt.code, body)
			}
			for _, w := range tt.want {
				if !strings.Contains(body, w) {
					t.Errorf("GET %s lacks %q", tt.path, w)
				}
			}
			for _, w := range tt.notWant {
				if strings.Contains(body, w) {
					t.Errorf("GET %s contains %q", tt.path, w)
				}
			}
		})
	}

	// A run re-judged in place is re-read.
	writeRun(t, nested, "", sys{"solo2", []map[string]any{rec(0, "simple", "correct", "SELECT 1", "SELECT 1"), rec(1, "simple", "error", "SELECT 1", "x")}})
	if _, body := get(t, ts.URL+"/run/more%2Frun2/"); !strings.Contains(body, "solo2") {
		t.Error("the dashboard did not pick up a rewritten summary.json")
	}

	// Content-Security-Policy forbids loading anything from elsewhere.
	resp, err := http.Get(ts.URL + "/run/run/")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if csp := resp.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'none'") {
		t.Errorf("Content-Security-Policy %q", csp)
	}
}

// TestServeNULPrediction: the dashboard re-executes a record whose pred_sql (and gold) is
// a NUL byte, which crashed the server in go-sqlite3; the page says why nothing ran.
func TestServeNULPrediction(t *testing.T) {
	dir := fixtureRun(t)
	root := filepath.Dir(dir)
	writeRun(t, filepath.Join(root, "nul"), filepath.Join(root, "db"),
		sys{"solo", []map[string]any{rec(0, "simple", "error", "\x00", "\x00")}})
	srv := NewServer(root, ExecOptions{Rows: 3, DBRoot: filepath.Join(root, "db")})
	defer srv.Close()
	ts := httptest.NewServer(srv.Handler())
	defer ts.Close()
	code, body := get(t, ts.URL+"/run/nul/q/0")
	if code != 200 || !strings.Contains(body, "query contains a NUL byte") {
		t.Errorf("GET /run/nul/q/0: %d, want 200 saying the query contains a NUL byte:\n%s", code, body)
	}
}

// TestServeDrillBounded (issue 45 #7): with NoExec the dashboard runs no query and says
// so; otherwise drill-downs take turns (one executes at a time), every concurrent request
// is answered, and a drill-down reads results under its own byte cap.
func TestServeDrillBounded(t *testing.T) {
	dir := fixtureRun(t)
	root := filepath.Dir(dir)
	off := NewServer(root, ExecOptions{NoExec: true})
	defer off.Close()
	ts := httptest.NewServer(off.Handler())
	defer ts.Close()
	if code, body := get(t, ts.URL+"/run/run/q/1"); code != 200 || !strings.Contains(body, "serve --no-exec") || strings.Contains(body, `class="result"`) {
		t.Errorf("--no-exec drill-down: %d, want a note and no result table:\n%s", code, body)
	}

	on := NewServer(root, ExecOptions{Rows: 3, DBRoot: filepath.Join(root, "db")})
	defer on.Close()
	if got := newExecutor(&rundir.Run{}, on.eng, on.opt).opt.MaxBytes; got != DrillMaxBytes {
		t.Errorf("drill-down byte cap %d, want %d", got, DrillMaxBytes)
	}
	ts2 := httptest.NewServer(on.Handler())
	defer ts2.Close()
	on.exec <- struct{}{} // a drill-down holds the turn: the others wait for it
	done := make(chan string, 4)
	for range 4 {
		go func() {
			_, body := get(t, ts2.URL+"/run/run/q/1")
			done <- body
		}()
	}
	select {
	case <-done:
		t.Fatal("a drill-down ran while another held the turn")
	case <-time.After(300 * time.Millisecond):
	}
	<-on.exec
	for range 4 {
		if body := <-done; !strings.Contains(body, "first 3 of 40 rows") {
			t.Errorf("a waiting drill-down was not answered with its results")
		}
	}
}
