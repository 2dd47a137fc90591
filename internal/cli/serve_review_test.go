package cli

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
	"github.com/nl2sqlbench/nl2sqlbench/internal/report"
	"github.com/nl2sqlbench/nl2sqlbench/internal/review"
	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
)

// reviewServer is the dashboard over a fresh demo run, recording reviews as serve does.
func reviewServer(t *testing.T) (h http.Handler, srv *report.Server, runDir string) {
	t.Helper()
	root := t.TempDir()
	runDir = filepath.Join(root, "runs", "demo")
	runCLI(t, "demo", "--cache", filepath.Join(root, "cache"), "--out", runDir)
	// The databases the demo just judged on, given as serve --db-root would.
	dbRoots, _ := filepath.Glob(filepath.Join(root, "cache", "*", "databases"))
	if len(dbRoots) != 1 {
		t.Fatalf("demo databases: %v", dbRoots)
	}
	dbRoot := dbRoots[0]
	srv = report.NewServer(runDir, report.ExecOptions{Rows: 5, MaxRows: 1000, DBRoot: dbRoot})
	t.Cleanup(func() { srv.Close() })
	srv.SetRescorer(serveRescorer(dbRoot))
	return srv.HandlerAt("127.0.0.1:8080"), srv, runDir
}

// pageToken is the session token the dashboard embeds in question idx's drill-down
// (its review form), read as a browser would.
func pageToken(t *testing.T, h http.Handler, idx int) string {
	t.Helper()
	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest(http.MethodGet, "http://127.0.0.1:8080/run/demo/q/"+strconv.Itoa(idx), nil))
	m := regexp.MustCompile(`name="token" value="([0-9a-f]{64})"`).FindStringSubmatch(w.Body.String())
	if w.Code != http.StatusOK || m == nil {
		t.Fatalf("drill-down of question %d: %d, no session token in its review form", idx, w.Code)
	}
	return m[1]
}

// incorrectQuestion is a question the demo's baseline gets wrong.
func incorrectQuestion(t *testing.T, runDir, system string) int {
	t.Helper()
	run, err := rundir.Load(context.Background(), runDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range run.Systems {
		if s.Name != system {
			continue
		}
		for _, r := range s.Records {
			if r.Verdict == record.Incorrect {
				return r.Index
			}
		}
	}
	t.Fatalf("the demo's %s gets every question right", system)
	return -1
}

// TestServeReviewGuards: a review POST needs the session token, a same-origin Origin (or
// none), a form or JSON body, and valid fields; a good one is appended to reviews.jsonl
// and changes the reviewed EX.
func TestServeReviewGuards(t *testing.T) {
	t.Parallel()
	skipLongInShort(t)
	h, _, runDir := reviewServer(t)
	idx := incorrectQuestion(t, runDir, "baseline")
	token := pageToken(t, h, idx)
	target := "/run/demo/q/" + strconv.Itoa(idx) + "/review"
	good := url.Values{"token": {token}, "decision": {"accept"}, "system": {"baseline"}, "note": {"same rows, other order"}}
	post := func(body, ctype string, hdr map[string]string) *httptest.ResponseRecorder {
		req := httptest.NewRequest(http.MethodPost, "http://127.0.0.1:8080"+target, strings.NewReader(body))
		if ctype != "" {
			req.Header.Set("Content-Type", ctype)
		}
		for k, v := range hdr {
			req.Header.Set(k, v)
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		return w
	}
	with := func(k, v string) string {
		c := url.Values{}
		for kk, vv := range good {
			c[kk] = vv
		}
		if v == "" {
			c.Del(k)
		} else {
			c.Set(k, v)
		}
		return c.Encode()
	}
	const form = "application/x-www-form-urlencoded"
	cases := []struct {
		name, body, ctype string
		hdr               map[string]string
		code              int
		mention           string
	}{
		{"no token", with("token", ""), form, nil, http.StatusForbidden, "token"},
		{"wrong token", with("token", strings.Repeat("0", 64)), form, nil, http.StatusForbidden, "token"},
		{"token one character short", with("token", token[1:]), form, nil, http.StatusForbidden, "token"},
		{"cross-origin", good.Encode(), form, map[string]string{"Origin": "http://evil.example"}, http.StatusForbidden, "cross-origin"},
		{"null origin", good.Encode(), form, map[string]string{"Origin": "null"}, http.StatusForbidden, "cross-origin"},
		{"other port", good.Encode(), form, map[string]string{"Origin": "http://127.0.0.1:9999"}, http.StatusForbidden, "cross-origin"},
		{"text/plain body", good.Encode(), "text/plain", nil, http.StatusUnsupportedMediaType, "Content-Type"},
		{"no content type", good.Encode(), "", nil, http.StatusUnsupportedMediaType, "Content-Type"},
		{"bad decision", with("decision", "maybe"), form, nil, http.StatusBadRequest, "field decision"},
		{"unknown system", with("system", "nobody"), form, nil, http.StatusBadRequest, "field system"},
		{"accept without system", with("system", ""), form, nil, http.StatusBadRequest, "field system"},
		{"gold_wrong without sql", with("decision", "gold_wrong"), form, nil, http.StatusBadRequest, "field"},
		{"unknown field", good.Encode() + "&verdict=correct", form, nil, http.StatusBadRequest, "field verdict"},
		{"json unknown field", `{"decision":"accept","system":"baseline","bogus":1}`, "application/json", map[string]string{"X-Review-Token": token}, http.StatusBadRequest, "bogus"},
		{"json without token header", `{"decision":"accept","system":"baseline"}`, "application/json", nil, http.StatusForbidden, "token"},
	}
	reviews := filepath.Join(runDir, rundir.ReviewsFile)
	for _, c := range cases {
		w := post(c.body, c.ctype, c.hdr)
		if w.Code != c.code || !strings.Contains(w.Body.String(), c.mention) {
			t.Errorf("%s: %d %q, want %d mentioning %q", c.name, w.Code, w.Body.String(), c.code, c.mention)
		}
	}
	if _, err := os.Stat(reviews); !os.IsNotExist(err) {
		t.Fatalf("refused requests wrote %s (stat: %v)", reviews, err)
	}

	// A good form POST (same origin) is recorded and re-scored.
	w := post(good.Encode(), form, map[string]string{"Origin": "http://127.0.0.1:8080"})
	if w.Code != http.StatusSeeOther || !strings.HasSuffix(w.Header().Get("Location"), "/q/"+strconv.Itoa(idx)+"#review") {
		t.Fatalf("good review: %d %q (Location %q), want 303 back to the question", w.Code, w.Body.String(), w.Header().Get("Location"))
	}
	rs, err := review.Read(reviews)
	if err != nil || len(rs) != 1 || rs[0] != (review.Review{Index: idx, System: "baseline", Decision: "accept", Note: "same rows, other order"}) {
		t.Fatalf("reviews.jsonl holds %+v (%v), want the one accept", rs, err)
	}
	var rv rundir.Reviewed
	b, err := os.ReadFile(filepath.Join(runDir, rundir.ReviewedFile))
	if err == nil {
		err = json.Unmarshal(b, &rv)
	}
	if err != nil {
		t.Fatal(err)
	}
	var found bool
	for _, s := range rv.Systems {
		if s.System != "baseline" {
			continue
		}
		found = true
		if *s.Reviewed.Value <= *s.Raw.Value || len(s.Changed) != 1 || s.Changed[0] != idx {
			t.Errorf("baseline EX raw %s reviewed %s changed %v: the accept should raise it by question %d", s.Raw.Text, s.Reviewed.Text, s.Changed, idx)
		}
	}
	if !found {
		t.Fatal("reviewed.json has no baseline")
	}

	// The drill-down shows the review, the form with the token, and both scores.
	req := httptest.NewRequest(http.MethodGet, "http://127.0.0.1:8080/run/demo/q/"+strconv.Itoa(idx), nil)
	gw := httptest.NewRecorder()
	h.ServeHTTP(gw, req)
	page := gw.Body.String()
	for _, want := range []string{`value="` + token + `"`, "same rows, other order", "EX reviewed"} {
		if !strings.Contains(page, want) {
			t.Errorf("drill-down after the review lacks %q", want)
		}
	}

	// JSON with the header token works too and answers the reviewed scores.
	w = post(`{"decision":"reject","system":"baseline"}`, "application/json", map[string]string{"X-Review-Token": token})
	if w.Code != http.StatusOK || !strings.Contains(w.Body.String(), `"reviewed"`) {
		t.Fatalf("JSON review: %d %q", w.Code, w.Body.String())
	}
	if rs, _ := review.Read(reviews); len(rs) != 2 {
		t.Errorf("reviews.jsonl holds %d reviews after two, want 2", len(rs))
	}
}
