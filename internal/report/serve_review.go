package report

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/nl2sqlbench/nl2sqlbench/internal/review"
	"github.com/nl2sqlbench/nl2sqlbench/internal/rundir"
)

// Recording a review from the dashboard (docs/review.md). A drill-down's form POSTs to
// /run/RUN/q/IDX/review; the server appends the review to RUN/reviews.jsonl (one line,
// O_APPEND, fsync: review.Append) and re-scores the run through the Rescorer the
// command gave it, which writes RUN/reviewed.json; the pages then show raw and reviewed
// scores side by side.
//
// Against cross-site requests (a page elsewhere making the browser POST to 127.0.0.1):
// every POST must carry the session token, random per server start and embedded only in
// the dashboard's own pages (a hidden form field, or the X-Review-Token header for
// JSON), compared in constant time; a request naming another origin in its Origin
// header, or without a token or with a wrong one, gets 403; the body must be
// application/x-www-form-urlencoded or application/json (415 otherwise), which a
// cross-site "simple" request can send only without the token. The Host check of
// HandlerAt still applies.

// reviewsPath is dir's reviews file, refused when it (or a folder on the way) is a
// symlink leaving the run directory: the dashboard appends to it, and must never write
// to a file someone else's run points at.
func reviewsPath(dir string) (string, error) {
	if _, err := rundir.Resolve(dir, rundir.ReviewsFile); err != nil && !errors.Is(err, os.ErrNotExist) {
		return "", fmt.Errorf("%s: %w", rundir.ReviewsFile, err)
	}
	return filepath.Join(dir, rundir.ReviewsFile), nil
}

// Rescorer re-scores a run directory from its reviews file, writing reviewed.json.
type Rescorer func(ctx context.Context, run *rundir.Run, reviewsPath string) error

// maxReviewBody bounds a review request's body.
const maxReviewBody = 1 << 20

// newToken is 32 random bytes, hex.
func newToken() string {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		panic("dashboard: no randomness for the session token: " + err.Error())
	}
	return hex.EncodeToString(b)
}

// SetRescorer lets the dashboard record reviews; without one it shows no review form.
func (s *Server) SetRescorer(f Rescorer) { s.rescore = f }

// reviewInput is a review request's body: the fields of review.Review a person chooses
// (the question's index comes from the URL), and the token when posted as a form.
type reviewInput struct {
	System   string `json:"system"`
	Decision string `json:"decision"`
	SQL      string `json:"sql"`
	Note     string `json:"note"`
	Token    string `json:"-"`
}

// errField is a review request's field that cannot be used: 400 naming it.
type errField struct{ field, why string }

func (e *errField) Error() string { return "review: field " + e.field + ": " + e.why }

func (s *Server) postReview(w http.ResponseWriter, r *http.Request) {
	if s.rescore == nil {
		http.Error(w, "this dashboard does not record reviews", http.StatusNotFound)
		return
	}
	if o := r.Header.Get("Origin"); o != "" && !sameOrigin(o, r.Host) {
		http.Error(w, "review: cross-origin request refused (Origin "+o+")", http.StatusForbidden)
		return
	}
	in, err := readReviewInput(w, r)
	if err != nil {
		code := http.StatusBadRequest
		if errors.Is(err, errMediaType) {
			code = http.StatusUnsupportedMediaType
		}
		http.Error(w, err.Error(), code)
		return
	}
	if tok := in.Token; tok == "" || subtle.ConstantTimeCompare([]byte(tok), []byte(s.token)) != 1 {
		http.Error(w, "review: missing or wrong session token (reload the page)", http.StatusForbidden)
		return
	}
	id := r.PathValue("id")
	run, p, err := s.load(r.Context(), id)
	if err != nil {
		httpError(w, err)
		return
	}
	rv, err := checkReview(in, r.PathValue("idx"), p)
	if err == nil && !s.opt.Executes() && len(review.Corrections([]review.Review{rv})) > 0 {
		// Judging a corrected gold runs it: refused before it is recorded.
		err = &errField{"sql", "a corrected gold is judged by running it, and this dashboard runs no query (start serve with " + ExecFlag + ")"}
	}
	if err == nil {
		s.reviewMu.Lock()
		defer s.reviewMu.Unlock()
		var path string
		if path, err = reviewsPath(run.Dir); err == nil {
			err = review.Append(path, rv)
		}
	}
	var fe *errField
	switch {
	case errors.As(err, &fe), errors.Is(err, review.ErrBadReview):
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	case err != nil:
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	if err := s.rescore(r.Context(), run, filepath.Join(run.Dir, rundir.ReviewsFile)); err != nil {
		http.Error(w, "review recorded in "+rundir.ReviewsFile+", but re-scoring failed: "+err.Error(), http.StatusInternalServerError)
		return
	}
	s.forget(id)
	if isJSON(r) {
		run, _, err := s.load(r.Context(), id)
		if err != nil {
			httpError(w, err)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"recorded": rv, "reviewed": run.Reviewed})
		return
	}
	http.Redirect(w, r, p.Base+"q/"+strconv.Itoa(rv.Index)+"#review", http.StatusSeeOther)
}

var errMediaType = errors.New("review: Content-Type must be application/x-www-form-urlencoded or application/json")

func isJSON(r *http.Request) bool {
	mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	return mt == "application/json"
}

// readReviewInput decodes a form or JSON body strictly: an unknown field is an error.
func readReviewInput(w http.ResponseWriter, r *http.Request) (reviewInput, error) {
	var in reviewInput
	mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil {
		return in, errMediaType
	}
	r.Body = http.MaxBytesReader(w, r.Body, maxReviewBody)
	switch mt {
	case "application/json":
		dec := json.NewDecoder(r.Body)
		dec.DisallowUnknownFields()
		if err := dec.Decode(&in); err != nil {
			return in, fmt.Errorf("review: bad JSON body: %v", err)
		}
		in.Token = r.Header.Get("X-Review-Token")
	case "application/x-www-form-urlencoded":
		if err := r.ParseForm(); err != nil {
			return in, fmt.Errorf("review: bad form body: %v", err)
		}
		for k, vs := range r.PostForm {
			if len(vs) != 1 {
				return in, &errField{k, "given more than once"}
			}
			switch k {
			case "system":
				in.System = vs[0]
			case "decision":
				in.Decision = vs[0]
			case "sql":
				in.SQL = vs[0]
			case "note":
				in.Note = vs[0]
			case "token":
				in.Token = vs[0]
			default:
				return in, &errField{k, "unknown field"}
			}
		}
		if in.Token == "" {
			in.Token = r.Header.Get("X-Review-Token")
		}
	default:
		return in, errMediaType
	}
	return in, nil
}

// checkReview turns a request into a review of question idx of the page's run.
func checkReview(in reviewInput, idx string, p *Page) (review.Review, error) {
	rv := review.Review{Decision: in.Decision, System: in.System, SQL: in.SQL, Note: strings.TrimSpace(in.Note)}
	i, err := strconv.Atoi(idx)
	if err != nil || !hasQuestion(p, i) {
		return rv, &errField{"index", fmt.Sprintf("%q is not a question of this run", idx)}
	}
	rv.Index = i
	switch in.Decision {
	case review.Accept, review.Reject:
		if in.System == "" {
			return rv, &errField{"system", "decision " + in.Decision + " needs the system whose prediction it judges"}
		}
		if indexOf(p.Systems, in.System) < 0 {
			return rv, &errField{"system", fmt.Sprintf("%q is not a system of this run", in.System)}
		}
		if strings.TrimSpace(in.SQL) != "" {
			return rv, &errField{"sql", "a corrected SQL goes with decision gold_wrong only"}
		}
		rv.SQL = ""
	case review.GoldWrong:
		if strings.TrimSpace(in.SQL) == "" {
			return rv, &errField{"sql", "decision gold_wrong needs the corrected gold SQL"}
		}
		if in.System != "" {
			return rv, &errField{"system", "gold_wrong applies to every system: leave it empty"}
		}
	default:
		return rv, &errField{"decision", fmt.Sprintf("%q is not accept, reject or gold_wrong", in.Decision)}
	}
	return rv, nil
}

func hasQuestion(p *Page, i int) bool {
	for _, q := range p.Questions {
		if q.Index == i {
			return true
		}
	}
	return false
}

// sameOrigin reports whether an Origin header names the host the request was sent to
// over http (the dashboard serves no TLS).
func sameOrigin(origin, host string) bool {
	u, err := url.Parse(origin)
	return err == nil && u.Scheme == "http" && u.Host != "" && strings.EqualFold(u.Host, host)
}

// forget drops a run's cached page.
func (s *Server) forget(id string) {
	s.mu.Lock()
	delete(s.pages, id)
	s.mu.Unlock()
}

// reviewsPending reports whether dir's reviews file holds reviews that reviewed.json
// does not reflect (a restart after reviews.jsonl was written, or a hand edit).
func reviewsPending(dir string, reviewed *rundir.Reviewed) bool {
	path, err := reviewsPath(dir)
	if err != nil {
		return false
	}
	b, err := rundir.ReadFile(path, rundir.MaxReviews)
	if err != nil {
		return false
	}
	n := 0
	for _, l := range bytes.Split(b, []byte("\n")) {
		if len(bytes.TrimSpace(l)) > 0 {
			n++
		}
	}
	if n == 0 {
		return false
	}
	abs, _ := filepath.Abs(filepath.Join(dir, rundir.ReviewsFile))
	return reviewed == nil || reviewed.Count != n || reviewed.Reviews != abs
}

// ReviewForm is what a drill-down shows to record a review: the form's target and
// token, the run's systems, the reviews of this question so far and the raw and
// reviewed scores.
type ReviewForm struct {
	Action, Token string
	Systems       []string
	Prior         []review.Review
	Scores        []TextTable
	Warning       string
}

func (s *Server) reviewForm(run *rundir.Run, p *Page, idx int) ReviewForm {
	f := ReviewForm{Action: p.Base + "q/" + strconv.Itoa(idx) + "/review", Token: s.token, Systems: p.Systems, Scores: ReviewedTable(run)}
	path, err := reviewsPath(run.Dir)
	var rs []review.Review
	if err == nil {
		rs, err = review.Read(path)
	}
	switch {
	case errors.Is(err, os.ErrNotExist):
	case err != nil:
		f.Warning = err.Error()
	}
	for _, r := range rs {
		if r.Index == idx {
			f.Prior = append(f.Prior, r)
		}
	}
	return f
}
