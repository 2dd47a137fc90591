// Package sqlppfake is a stand-in Couchbase Query Service for tests: an HTTP server on
// loopback (net/http/httptest) that speaks the REST wire format of POST /query/service
// (JSON body with statement, readonly, timeout, query_context, args; optional basic auth)
// and answers like Couchbase does ({"requestID", "signature", "results", "errors",
// "status", "metrics"}), so engine.SQLPP and everything above it can be tested without a
// cluster, which these machines cannot run.
//
// It is SQL on SQLite behind the SQL++ wire format, not an SQL++ implementation: the
// statement runs, read-only, on <dbRoot>/<db_id>/<db_id>.sqlite, db_id being the scope
// of the request's query_context (default:`bucket`.`db_id`), i.e. the database
// export-docs turned into that scope's collections. So statements that SQLite and SQL++
// both accept (plain SELECT, joins, GROUP BY, backticked identifiers) behave as on a
// cluster over the exported documents; SQL++-only syntax (RAW, MISSING, UNNEST, NEST,
// META(), array functions, ...) fails here as an SQLite syntax error and is out of scope.
// Results are JSON objects in column order, keyed by SQLite's column names (Couchbase
// would name an unaliased expression $1, $2, ...; a repeated name gets the suffix _2, _3);
// NULL is null, BLOBs are base64 strings, and no field is ever MISSING. Query arguments
// (args, $name) are refused with an error: SQLite's placeholders differ.
//
// SQLite errors become one entry of "errors" with a plausible Couchbase code (3000 syntax
// error, 12003 keyspace not found for "no such table", 5000 otherwise) and status
// "fatal"; a timeout is code 1080 with status "timeout"; an unknown scope is code 12021.
// To extend it (e.g. to rewrite a few SQL++ forms into SQLite), change statement() below.
package sqlppfake

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nl2sqlbench/nl2sqlbench/internal/engine"
)

// Server is a running fake query service.
type Server struct {
	root string
	srv  *httptest.Server
	eng  *engine.SQLite

	requests atomic.Int64
	mu       sync.Mutex
	user, pw string
	seen     []Request
}

// Request is one request the server answered (for tests to inspect).
type Request struct {
	Statement    string
	QueryContext string
	DBID         string
	ReadOnly     bool
	Timeout      string
}

// New starts a fake query service over the SQLite databases under dbRoot.
func New(dbRoot string) *Server {
	s := &Server{root: dbRoot, eng: engine.NewSQLite()}
	s.srv = httptest.NewServer(http.HandlerFunc(s.handle))
	return s
}

// URL is the service's base URL (what --sqlpp-endpoint takes).
func (s *Server) URL() string { return s.srv.URL }

// Close stops the server and closes its databases.
func (s *Server) Close() {
	s.srv.Close()
	s.eng.Close()
}

// RequireAuth makes the server refuse requests without these basic-auth credentials
// (HTTP 401, as Couchbase does).
func (s *Server) RequireAuth(user, password string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.user, s.pw = user, password
}

// Requests is how many query requests arrived (refused ones included).
func (s *Server) Requests() int64 { return s.requests.Load() }

// Seen returns a copy of the requests answered so far.
func (s *Server) Seen() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.seen...)
}

// Couchbase error codes the fake uses.
const (
	codeReadOnly     = 1000
	codeTimeout      = 1080
	codeSyntax       = 3000
	codeGeneric      = 5000
	codeNoKeyspace   = 12003
	codeNoScope      = 12021
	codeBadRequest   = 1050
	defaultTimeoutMS = 75_000 // Couchbase's default request timeout
	maxResultDocs    = 1_000_000
)

type qerror struct {
	Code int    `json:"code"`
	Msg  string `json:"msg"`
}

func (s *Server) handle(w http.ResponseWriter, r *http.Request) {
	s.requests.Add(1)
	if r.URL.Path != "/query/service" {
		http.NotFound(w, r)
		return
	}
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	s.mu.Lock()
	user, pw := s.user, s.pw
	s.mu.Unlock()
	if user != "" || pw != "" {
		u, p, ok := r.BasicAuth()
		if !ok || u != user || p != pw {
			w.Header().Set("WWW-Authenticate", `Basic realm="Couchbase Query Service"`)
			writeResponse(w, http.StatusUnauthorized, nil, nil, []qerror{{Code: 10000, Msg: "Authentication failure"}}, "fatal", 0)
			return
		}
	}
	params, err := readParams(r)
	if err != nil {
		writeResponse(w, http.StatusBadRequest, nil, nil, []qerror{{Code: codeBadRequest, Msg: err.Error()}}, "fatal", 0)
		return
	}
	stmt, _ := params["statement"].(string)
	qc, _ := params["query_context"].(string)
	timeout, _ := params["timeout"].(string)
	ro, _ := params["readonly"].(bool)
	dbID := scopeOf(qc)
	hasArgs := params["args"] != nil
	for k := range params {
		hasArgs = hasArgs || strings.HasPrefix(k, "$")
	}
	s.mu.Lock()
	s.seen = append(s.seen, Request{Statement: stmt, QueryContext: qc, DBID: dbID, ReadOnly: ro, Timeout: timeout})
	s.mu.Unlock()

	t0 := time.Now()
	status, res, errs := s.run(r.Context(), stmt, dbID, qc, timeout)
	if hasArgs {
		status, res, errs = "fatal", nil, []qerror{{Code: codeGeneric, Msg: "sqlppfake: query arguments (args, $name) are not supported"}}
	}
	code := http.StatusOK
	switch status {
	case "fatal":
		code = http.StatusBadRequest
		if errs[0].Code == codeGeneric {
			code = http.StatusInternalServerError
		}
	case "timeout":
		code = http.StatusOK
	}
	var cols []string
	var rows [][]any
	if res != nil {
		cols, rows = dedupe(res.Columns), res.BoxedRows() // a test double: results are small
	}
	writeResponse(w, code, cols, rows, errs, status, time.Since(t0))
}

// readParams reads the request's parameters from a JSON body, or from form fields (the
// service accepts both).
func readParams(r *http.Request) (map[string]any, error) {
	if strings.HasPrefix(r.Header.Get("Content-Type"), "application/x-www-form-urlencoded") {
		if err := r.ParseForm(); err != nil {
			return nil, fmt.Errorf("bad form body: %v", err)
		}
		p := map[string]any{}
		for k, v := range r.PostForm {
			if len(v) > 0 {
				p[k] = v[0]
			}
		}
		if ro, ok := p["readonly"].(string); ok {
			p["readonly"] = ro == "true"
		}
		return p, nil
	}
	var p map[string]any
	dec := json.NewDecoder(r.Body)
	dec.UseNumber()
	if err := dec.Decode(&p); err != nil {
		return nil, fmt.Errorf("request body is not a JSON object: %v", err)
	}
	return p, nil
}

var contextPart = regexp.MustCompile("`([^`]*)`|([^.`:]+)")

// scopeOf returns the scope named by a query_context such as default:`bucket`.`scope`
// or bucket.scope ("" when it names no scope).
func scopeOf(qc string) string {
	if i := strings.IndexByte(qc, ':'); i >= 0 && !strings.Contains(qc[:i], "`") {
		qc = qc[i+1:]
	}
	parts := contextPart.FindAllStringSubmatch(qc, -1)
	if len(parts) < 2 {
		return ""
	}
	last := parts[len(parts)-1]
	if last[1] != "" {
		return last[1]
	}
	return last[2]
}

func (s *Server) run(ctx context.Context, stmt, dbID, qc, timeout string) (string, *engine.Result, []qerror) {
	if strings.TrimSpace(stmt) == "" {
		return "fatal", nil, []qerror{{Code: codeBadRequest, Msg: "No statement or prepared value"}}
	}
	if dbID == "" || strings.ContainsAny(dbID, `/\`) || dbID == "." || dbID == ".." {
		return "fatal", nil, []qerror{{Code: codeNoScope, Msg: fmt.Sprintf("Scope not found in CB datastore (query_context %q names no scope; the fake needs --sqlpp-bucket)", qc)}}
	}
	path := filepath.Join(s.root, dbID, dbID+".sqlite")
	if fi, err := os.Stat(path); err != nil || !fi.Mode().IsRegular() {
		return "fatal", nil, []qerror{{Code: codeNoScope, Msg: "Scope not found in CB datastore " + qc}}
	}
	lim := engine.Limits{Timeout: time.Duration(defaultTimeoutMS) * time.Millisecond, MaxRows: maxResultDocs}
	if timeout != "" {
		d, err := time.ParseDuration(timeout)
		if err != nil {
			return "fatal", nil, []qerror{{Code: codeBadRequest, Msg: fmt.Sprintf("Invalid value for timeout %q", timeout)}}
		}
		lim.Timeout = d
	}
	res, err := s.eng.Query(ctx, path, stmt, lim)
	if err == nil {
		return "success", res, nil
	}
	var dbe *engine.DBError
	switch {
	case errors.Is(err, engine.ErrTimeout):
		return "timeout", nil, []qerror{{Code: codeTimeout, Msg: "Timeout " + lim.Timeout.String() + " exceeded"}}
	case errors.Is(err, engine.ErrNotReadOnly):
		return "fatal", nil, []qerror{{Code: codeReadOnly, Msg: "The server or request is read-only and cannot accept this write statement."}}
	case errors.As(err, &dbe):
		msg := dbe.Message
		switch {
		case strings.Contains(msg, "syntax error") || strings.Contains(msg, "incomplete input") || strings.Contains(msg, "unrecognized token"):
			return "fatal", nil, []qerror{{Code: codeSyntax, Msg: "syntax error - " + msg}}
		case strings.HasPrefix(msg, "no such table: "):
			t := strings.TrimPrefix(msg, "no such table: ")
			return "fatal", nil, []qerror{{Code: codeNoKeyspace, Msg: "Keyspace not found in CB datastore: " + strings.TrimSuffix(qc, "`") + "." + t + " (" + msg + ")"}}
		}
		return "fatal", nil, []qerror{{Code: codeGeneric, Msg: msg}}
	}
	return "fatal", nil, []qerror{{Code: codeGeneric, Msg: err.Error()}}
}

// dedupe suffixes repeated column names (_2, _3, ...): a JSON object cannot hold both.
func dedupe(cols []string) []string {
	out := make([]string, len(cols))
	seen := map[string]int{}
	for i, c := range cols {
		seen[c]++
		name := c
		for n := seen[c]; n > 1; n++ {
			name = c + "_" + strconv.Itoa(n)
			if seen[name] == 0 {
				seen[name] = 1
				break
			}
		}
		out[i] = name
	}
	return out
}

// writeResponse writes the service's response object. Results are objects whose fields
// follow the column order (a map would sort them).
func writeResponse(w http.ResponseWriter, code int, cols []string, rows [][]any, errs []qerror, status string, elapsed time.Duration) {
	var b bytes.Buffer
	b.WriteString(`{"requestID":"fake-` + strconv.FormatInt(time.Now().UnixNano(), 36) + `"`)
	if cols != nil {
		b.WriteString(`,"signature":{`)
		for i, c := range cols {
			if i > 0 {
				b.WriteByte(',')
			}
			writeJSON(&b, c)
			b.WriteString(`:"json"`)
		}
		b.WriteString(`}`)
	}
	b.WriteString(`,"results":[`)
	for i, row := range rows {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteByte('{')
		for j, c := range cols {
			if j > 0 {
				b.WriteByte(',')
			}
			writeJSON(&b, c)
			b.WriteByte(':')
			writeJSON(&b, jsonValue(row[j]))
		}
		b.WriteByte('}')
	}
	b.WriteString(`]`)
	if len(errs) > 0 {
		b.WriteString(`,"errors":`)
		writeJSON(&b, errs)
	}
	b.WriteString(`,"status":`)
	writeJSON(&b, status)
	fmt.Fprintf(&b, `,"metrics":{"elapsedTime":%q,"executionTime":%q,"resultCount":%d,"resultSize":%d`, elapsed.String(), elapsed.String(), len(rows), b.Len())
	if len(errs) > 0 {
		fmt.Fprintf(&b, `,"errorCount":%d`, len(errs))
	}
	b.WriteString("}}\n")
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	w.Write(b.Bytes())
}

func writeJSON(b *bytes.Buffer, v any) {
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		b.WriteString("null")
		return
	}
	b.Truncate(b.Len() - 1) // Encode's newline
}

// jsonValue maps an SQLite value to JSON as export-docs does: BLOBs base64, non-finite
// reals as strings.
func jsonValue(v any) any {
	switch x := v.(type) {
	case []byte:
		return base64.StdEncoding.EncodeToString(x)
	case float64:
		if math.IsInf(x, 0) || math.IsNaN(x) {
			return strconv.FormatFloat(x, 'g', -1, 64)
		}
	}
	return v
}
