package report

import (
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
)

// TestServeHost: only a Host header naming the listener is served (DNS rebinding).
func TestServeHost(t *testing.T) {
	dir := fixtureRun(t)
	srv := NewServer(dir, ExecOptions{Rows: 3})
	defer srv.Close()
	ts := httptest.NewServer(srv.HandlerAt("127.0.0.1:8080"))
	defer ts.Close()
	tests := []struct {
		host string
		code int
	}{
		{"127.0.0.1:8080", 200},
		{"localhost:8080", 200},
		{"LOCALHOST:8080", 200},
		{"[::1]:8080", 200},
		{"attacker.example", 421},
		{"attacker.example:8080", 421},
		{"127.0.0.1.nip.io:8080", 421},
		{"localhost.attacker.example:8080", 421},
		{"127.0.0.1:9090", 421},
		{"localhost", 421},
		{"", 421},
		{"192.168.1.5:8080", 421},
	}
	for _, tc := range tests {
		t.Run(tc.host, func(t *testing.T) {
			req, err := http.NewRequest("GET", ts.URL+"/", nil)
			if err != nil {
				t.Fatal(err)
			}
			req.Host = tc.host
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != tc.code {
				t.Errorf("Host %q: %d, want %d", tc.host, resp.StatusCode, tc.code)
			}
		})
	}
}

func TestHostAllowed(t *testing.T) {
	tests := []struct {
		host, bound, port string
		want              bool
	}{
		{"localhost:80", "127.0.0.1", "80", true},
		{"localhost", "127.0.0.1", "80", true}, // default port omitted
		{"[::1]:8080", "::1", "8080", true},
		{"127.0.0.1:8080", "::1", "8080", true},
		{"192.168.1.5:8080", "0.0.0.0", "8080", true}, // bound to all: any IP literal
		{"192.168.1.5:8080", "192.168.1.5", "8080", true},
		{"evil.example:8080", "0.0.0.0", "8080", false},
		{"10.0.0.1:8080", "192.168.1.5", "8080", false},
	}
	for _, tc := range tests {
		if got := hostAllowed(tc.host, tc.bound, tc.port); got != tc.want {
			t.Errorf("hostAllowed(%q, %q, %q) = %v, want %v", tc.host, tc.bound, tc.port, got, tc.want)
		}
	}
}

// TestServeCSP: the pages' policy has no 'unsafe-inline', forbids framing, and allows
// exactly the inline script and style the pages hold (by hash).
func TestServeCSP(t *testing.T) {
	dir := fixtureRun(t)
	srv := NewServer(dir, ExecOptions{Rows: 3})
	defer srv.Close()
	ts := httptest.NewServer(srv.Handler())
	defer ts.Close()
	runs, _ := srv.Runs()
	for _, path := range []string{"/", runs[0].URL, runs[0].URL + "q/1", runs[0].URL + "compare"} {
		resp, err := http.Get(ts.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		raw, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
		csp := resp.Header.Get("Content-Security-Policy")
		if resp.StatusCode != 200 {
			t.Fatalf("GET %s: %s", path, resp.Status)
		}
		for _, want := range []string{"default-src 'none'", "frame-ancestors 'none'", "script-src 'sha256-", "style-src 'sha256-"} {
			if !strings.Contains(csp, want) {
				t.Errorf("GET %s: policy %q lacks %q", path, csp, want)
			}
		}
		if strings.Contains(csp, "unsafe-inline") {
			t.Errorf("GET %s: policy %q allows unsafe-inline", path, csp)
		}
		body := string(raw)
		inline := regexp.MustCompile(`(?s)<(script|style)>(.*?)</(?:script|style)>`).FindAllStringSubmatch(body, -1)
		if len(inline) == 0 {
			t.Errorf("GET %s: no inline style found to check", path)
		}
		for _, m := range inline {
			if !strings.Contains(csp, cspHash(m[2])) {
				t.Errorf("GET %s: the inline <%s> is not allowed by the policy", path, m[1])
			}
		}
		if regexp.MustCompile(`<[^>]+ (style|on[a-z]+)=`).MatchString(body) {
			t.Errorf("GET %s: an inline style or event attribute the policy blocks", path)
		}
	}
}

// TestServeSingleRun: serve pointed at one run directory links that run at a URL that
// serves it (not /run/./, which clients clean to /run/).
func TestServeSingleRun(t *testing.T) {
	dir := fixtureRun(t)
	srv := NewServer(dir, ExecOptions{Rows: 3})
	defer srv.Close()
	ts := httptest.NewServer(srv.Handler())
	defer ts.Close()
	code, index := get(t, ts.URL+"/")
	if code != 200 || !strings.Contains(index, `href="/run/run/"`) {
		t.Fatalf("index: %d, no link to /run/run/:\n%s", code, index)
	}
	for _, path := range []string{"/run/run/", "/run/run/q/1", "/run/run/compare?a=alpha&b=beta%3Ci%3E"} {
		if code, body := get(t, ts.URL+path); code != 200 {
			t.Errorf("GET %s: %d: %s", path, code, body)
		}
	}
	if code, body := get(t, ts.URL+"/run/run/"); code == 200 && !strings.Contains(body, `href="/run/run/q/1"`) {
		t.Error("the run page does not link its questions under /run/run/")
	}
}
