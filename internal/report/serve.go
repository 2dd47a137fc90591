package report

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
)

// The dashboard: the report's views over every run directory under a root, rendered on
// request (net/http and html/template; templates and styles embedded), plus a comparison
// of two systems. Runs are re-read when their summary.json changes. A run is only ever
// found by walking the root, never by a path taken from the URL.

// Server serves the dashboard over the run directories under Root.
type Server struct {
	root    string
	opt     ExecOptions
	eng     engine.Engine
	dataset string // the question file the user gave for BIRD's evidence (SetDataset)

	mu    sync.Mutex
	pages map[string]cachedPage
	exec  chan struct{} // the one drill-down running queries (a semaphore of 1)

	token    string     // the session token every review POST must carry (serve_review.go)
	rescore  Rescorer   // nil: no reviews recorded
	reviewMu sync.Mutex // one review appended and re-scored at a time
}

type cachedPage struct {
	stamp string // summary.json's, reviewed.json's and reviews.jsonl's sizes and modification times
	run   *rundir.Run
	page  *Page
}

// maxRunDepth bounds the walk for run directories below the root.
const maxRunDepth = 4

// NewServer returns a dashboard over root: a run directory, or a directory holding run
// directories (at any depth up to 4). Close releases its database connections.
func NewServer(root string, opt ExecOptions) *Server {
	return &Server{root: root, opt: opt, eng: engine.NewSQLite(), pages: map[string]cachedPage{}, token: newToken(), exec: make(chan struct{}, 1)}
}

// SetDataset names the question file the pages read BIRD's evidence from (serve
// --dataset); each run checks that it holds its questions.
func (s *Server) SetDataset(file string) { s.dataset = file }

// Close releases the engine.
func (s *Server) Close() error { return s.eng.Close() }

// Handler routes the dashboard's pages.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", s.index)
	mux.HandleFunc("GET /matrix/{$}", s.matrixPage)
	mux.HandleFunc("GET /run/{id}/{$}", s.runPage)
	mux.HandleFunc("GET /run/{id}/q/{idx}", s.questionPage)
	mux.HandleFunc("GET /run/{id}/compare", s.comparePage)
	mux.HandleFunc("POST /run/{id}/q/{idx}/review", s.postReview)
	return mux
}

// RunInfo is one line of the run list.
type RunInfo struct {
	ID, Name, URL, Kind, Created string
	Questions                    int
	Systems                      string
	// Changed says the run's files differ from the hashes it recorded; Error is why
	// the run cannot be shown (a broken or oversized file): the other runs still are.
	Changed bool
	Error   string

	rel string // the run's directory relative to the root, slash-separated ("." for the root)
}

// Runs lists the run directories under the root, by name.
func (s *Server) Runs() ([]RunInfo, []string) {
	var out []RunInfo
	var errs []string
	_ = filepath.WalkDir(s.root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			errs = append(errs, err.Error())
			return nil
		}
		if !d.IsDir() {
			return nil
		}
		rel, _ := filepath.Rel(s.root, path)
		if rel != "." && strings.Count(filepath.ToSlash(rel), "/") >= maxRunDepth {
			return filepath.SkipDir
		}
		if _, err := os.Stat(filepath.Join(path, "summary.json")); err != nil {
			return nil
		}
		id := filepath.ToSlash(rel)
		name := id
		if id == "." {
			// The root is the one run (its system folders hold none): named after
			// itself, since "/run/./" is cleaned to "/run/" by every client.
			name = filepath.Base(filepath.Clean(s.root))
			if id = name; id == "." || id == ".." || id == "/" {
				id = "run"
			}
		}
		out = append(out, RunInfo{ID: id, Name: name, URL: "/run/" + url.PathEscape(id) + "/", rel: filepath.ToSlash(rel)})
		return filepath.SkipDir // a run directory's system folders hold no runs
	})
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, errs
}

// errUnknownRun is a URL naming no run under the root.
var errUnknownRun = errors.New("no such run")

// load returns the run with this id and its page, from the cache while summary.json is unchanged.
func (s *Server) load(ctx context.Context, id string) (*rundir.Run, *Page, error) {
	runs, _ := s.Runs()
	var dir string
	for _, r := range runs {
		if r.ID == id {
			dir = filepath.Join(s.root, filepath.FromSlash(r.rel))
		}
	}
	if dir == "" {
		return nil, nil, fmt.Errorf("%w: %q", errUnknownRun, id)
	}
	fi, err := os.Stat(filepath.Join(dir, "summary.json"))
	if err != nil {
		return nil, nil, err
	}
	stamp := fmt.Sprint(fi.Size(), fi.ModTime().UnixNano())
	// The files its integrity is checked on too: a records file changed under a cached
	// page must show the banner on the next request.
	others := []string{rundir.ReviewedFile, rundir.ReviewsFile, rundir.ManifestFile, rundir.AuditFile}
	if recs, err := filepath.Glob(filepath.Join(dir, "*", rundir.RecordsFile)); err == nil {
		for _, r := range recs {
			rel, _ := filepath.Rel(dir, r)
			others = append(others, rel)
		}
	}
	for _, f := range others {
		if fi, err := os.Stat(filepath.Join(dir, f)); err == nil {
			stamp += fmt.Sprint(" ", fi.Size(), fi.ModTime().UnixNano())
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if c, ok := s.pages[id]; ok && c.stamp == stamp {
		return c.run, c.page, nil
	}
	run, err := rundir.Load(ctx, dir)
	if err != nil {
		return nil, nil, err
	}
	// Reviews recorded before a restart (or written by hand) that reviewed.json does not
	// reflect yet are applied now, so the pages never show stale reviewed scores.
	if s.rescore != nil && reviewsPending(dir, run.Reviewed) {
		if err := s.rescore(ctx, run, filepath.Join(dir, rundir.ReviewsFile)); err != nil {
			run.Warnings = append(run.Warnings, "reviews not applied: "+err.Error())
		} else if run, err = rundir.Load(ctx, dir); err != nil {
			return nil, nil, err
		}
	}
	p := BuildPage(ctx, run, "", s.dataset)
	p.Base = "/run/" + url.PathEscape(id) + "/"
	p.Home = "/"
	s.pages[id] = cachedPage{stamp: stamp, run: run, page: p}
	return run, p, nil
}

func (s *Server) index(w http.ResponseWriter, r *http.Request) {
	runs, errs := s.Runs()
	for i := range runs {
		if run, _, err := s.load(r.Context(), runs[i].ID); err == nil {
			runs[i].Kind = run.Summary.Dataset.Kind
			runs[i].Questions = run.Summary.Dataset.Questions
			runs[i].Systems = strings.Join(systemNames(run), ", ")
			runs[i].Created = run.Summary.CreatedAt.UTC().Format(time.DateTime)
			runs[i].Changed = run.Integrity.State == rundir.Changed
		} else {
			runs[i].Error = err.Error()
		}
	}
	s.render(w, "index", map[string]any{"Root": s.root, "Runs": runs, "Errors": errs, "Matrix": s.hasMatrix()})
}

func (s *Server) runPage(w http.ResponseWriter, r *http.Request) {
	_, p, err := s.load(r.Context(), r.PathValue("id"))
	if err != nil {
		httpError(w, err)
		return
	}
	// ?system=NAME shows that system's questions: the page with its filter chosen.
	if name := r.URL.Query().Get("system"); name != "" {
		i := indexOf(p.Systems, name)
		if i < 0 {
			http.Error(w, "unknown system", http.StatusBadRequest)
			return
		}
		c := *p
		c.SystemFilter = i
		p = &c
	}
	s.render(w, "page", p)
}

// drill fills q's result tables, one drill-down at a time; false when ctx ended first.
func (s *Server) drill(ctx context.Context, run *rundir.Run, q *QuestionView) bool {
	select {
	case s.exec <- struct{}{}:
	case <-ctx.Done():
		return false
	}
	defer func() { <-s.exec }()
	golds, preds := rawSQL(run)
	fillResults(ctx, newExecutor(run, s.eng, s.opt), q, golds, preds)
	return true
}

func (s *Server) questionPage(w http.ResponseWriter, r *http.Request) {
	run, p, err := s.load(r.Context(), r.PathValue("id"))
	if err != nil {
		httpError(w, err)
		return
	}
	idx, err := strconv.Atoi(r.PathValue("idx"))
	var q *QuestionView
	for i := range p.Questions {
		if err == nil && p.Questions[i].Index == idx {
			c := p.Questions[i]
			c.Answers = append([]AnswerView(nil), c.Answers...)
			q = &c
		}
	}
	if q == nil {
		http.Error(w, "no such question", http.StatusNotFound)
		return
	}
	switch {
	case s.opt.NoExec:
		q.Gold, q.Detailed = &ResultView{Note: "result tables not shown: the dashboard runs no query (serve --no-exec)"}, true
	case s.opt.DBRoot == "":
		q.Gold, q.Detailed = &ResultView{Note: "result tables not shown: the dashboard runs no query unless started with " + ExecFlag + " (the databases to re-execute on, read-only); the run's recorded root is never used"}, true
	default:
		// One drill-down executes at a time: requests side by side would each hold their
		// results (issue 45 #7: four at once took 3.6 GB).
		if !s.drill(r.Context(), run, q) {
			return // the client left while waiting
		}
	}
	data := map[string]any{"Title": q.Label() + " · " + p.Title, "Base": p.Base, "Home": p.Home, "Question": q}
	if s.rescore != nil {
		data["Review"] = s.reviewForm(run, p, q.Index)
	}
	s.render(w, "qpage", data)
}

// comparePage lists the questions one system gets right and the other does not.
func (s *Server) comparePage(w http.ResponseWriter, r *http.Request) {
	_, p, err := s.load(r.Context(), r.PathValue("id"))
	if err != nil {
		httpError(w, err)
		return
	}
	a, b := r.URL.Query().Get("a"), r.URL.Query().Get("b")
	if a == "" && b == "" && len(p.Systems) >= 2 {
		a, b = p.Systems[0], p.Systems[1] // start with two different systems, never A = B
	}
	data := map[string]any{"Title": "Compare two systems · " + p.Title, "Base": p.Base, "Home": p.Home, "Systems": p.Systems, "A": "", "B": ""}
	if a != "" && b != "" {
		ai, bi := indexOf(p.Systems, a), indexOf(p.Systems, b)
		if ai < 0 || bi < 0 {
			http.Error(w, "unknown system", http.StatusBadRequest)
			return
		}
		aOnly, bOnly := Compare(p.Questions, ai, bi)
		data["A"], data["B"], data["AOnly"], data["BOnly"] = a, b, aOnly, bOnly
	}
	s.render(w, "compare", data)
}

// Compare splits questions into those system a gets right and b does not (incorrect or
// error), and the reverse. Questions either system could not be judged on are left out.
func Compare(qs []QuestionView, a, b int) (aOnly, bOnly []QuestionView) {
	for _, q := range qs {
		va, vb := verdictOf(q, a), verdictOf(q, b)
		wrong := func(v string) bool { return v == string(record.Incorrect) || v == string(record.Error) }
		switch {
		case va == string(record.Correct) && wrong(vb):
			aOnly = append(aOnly, q)
		case vb == string(record.Correct) && wrong(va):
			bOnly = append(bOnly, q)
		}
	}
	return aOnly, bOnly
}

func verdictOf(q QuestionView, sys int) string {
	for _, a := range q.Answers {
		if a.SysIdx == sys {
			return a.Verdict
		}
	}
	return ""
}

func indexOf(xs []string, x string) int {
	for i, v := range xs {
		if v == x {
			return i
		}
	}
	return -1
}

func (s *Server) render(w http.ResponseWriter, name string, data any) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Content-Security-Policy", contentSecurityPolicy)
	w.Header().Set("X-Content-Type-Options", "nosniff")
	// same-origin, not no-referrer: no referrer leaves for another site, and the review
	// form's POST carries its real Origin (no-referrer would make it "null").
	w.Header().Set("Referrer-Policy", "same-origin")
	if err := pageTemplates.ExecuteTemplate(w, name, data); err != nil {
		http.Error(w, "render: "+err.Error(), http.StatusInternalServerError)
	}
}

func httpError(w http.ResponseWriter, err error) {
	if errors.Is(err, errUnknownRun) {
		http.Error(w, err.Error(), http.StatusNotFound)
		return
	}
	http.Error(w, err.Error(), http.StatusInternalServerError)
}
