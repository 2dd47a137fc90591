package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/nl2sqlbench/nl2sqlbench/internal/sqlscan"
)

// SQLPP runs SQL++ statements through the Couchbase Query Service REST API: POST
// <Endpoint>/query/service with the statement, readonly=true, the per-query timeout and
// basic auth. Results are read as a stream, one document at a time, so the row cap
// bounds memory. The db argument of Query is a db_id: with Bucket set it becomes the
// query context `default:bucket.db_id` (the scope export-docs lays a database out in),
// so statements name collections (tables) directly.
//
// A result document becomes a row. Nested objects are flattened to dotted column names,
// recursively ({"a":{"b":1,"c":2}} gives columns a.b and a.c; an empty object stays one
// column holding "{}"); arrays stay their JSON text (keys sorted), since their elements
// have no names to become columns. The flattened fields, in order of first appearance
// across the documents, are the columns. A column a document lacks is MISSING: nil in
// Rows (so comparators that ignore the difference see NULL) and listed in
// Result.Missing; a JSON null is nil and not listed. Booleans are 0/1; numbers int64
// when integral else float64. SELECT RAW results have one column, "$1".
type SQLPP struct {
	Endpoint string // e.g. http://localhost:8093 or a Capella query endpoint (https://...:18093)
	Username string
	Password string // from a config file or environment variable, never a flag
	Bucket   string // optional: sets query_context to default:`Bucket`.`db`
	Client   *http.Client
}

var _ Engine = (*SQLPP)(nil)

// Close releases nothing: connections belong to the http.Client.
func (*SQLPP) Close() error { return nil }

// Query runs one read-only SQL++ statement.
func (s *SQLPP) Query(ctx context.Context, db, stmt string, lim Limits) (*Result, error) {
	return s.QueryArgs(ctx, db, stmt, nil, nil, lim)
}

// QueryArgs runs stmt with positional ($1, $2, ...) and named ($name) arguments.
func (s *SQLPP) QueryArgs(ctx context.Context, db, stmt string, positional []any, named map[string]any, lim Limits) (*Result, error) {
	if err := checkText(stmt); err != nil {
		return nil, err
	}
	if sqlscan.OnlyTrivia(stmt) {
		return nil, ErrEmptyQuery
	}
	body := map[string]any{"statement": stmt, "readonly": true}
	if lim.Timeout > 0 {
		body["timeout"] = strconv.FormatInt(max(lim.Timeout.Milliseconds(), 1), 10) + "ms"
	}
	if len(positional) > 0 {
		body["args"] = positional
	}
	for k, v := range named {
		body["$"+strings.TrimPrefix(k, "$")] = v
	}
	if s.Bucket != "" && db != "" {
		body["query_context"] = "default:`" + s.Bucket + "`.`" + db + "`"
	}
	payload, err := json.Marshal(body)
	if err != nil {
		return nil, fmt.Errorf("encode sql++ request: %w", err)
	}
	// The service stops the statement at its timeout; the HTTP call gets a little
	// longer so the service's own timeout answer arrives.
	grace := time.Duration(0)
	if lim.Timeout > 0 {
		grace = 2 * time.Second
	}
	qctx, cancel := withTimeout(ctx, lim.Timeout+grace)
	defer cancel()
	req, err := http.NewRequestWithContext(qctx, http.MethodPost, strings.TrimRight(s.Endpoint, "/")+"/query/service", bytes.NewReader(payload))
	if err != nil {
		return nil, fmt.Errorf("sql++ request: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	if s.Username != "" || s.Password != "" {
		req.SetBasicAuth(s.Username, s.Password)
	}
	client := s.Client
	if client == nil {
		client = http.DefaultClient
	}
	resp, err := client.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if qctx.Err() != nil {
			return nil, ErrTimeout
		}
		if netFault(err) {
			return nil, &FaultError{Op: "cannot reach the sql++ query service", Err: err}
		}
		return nil, fmt.Errorf("sql++ query service: %w", err)
	}
	defer resp.Body.Close()
	switch resp.StatusCode {
	case http.StatusUnauthorized, http.StatusForbidden:
		return nil, fmt.Errorf("sql++ query service: %s (check the username and password)", resp.Status)
	case http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		return nil, &FaultError{Op: "sql++ query service unavailable", Err: errors.New(resp.Status)}
	}
	rbody := io.Reader(resp.Body)
	maxBytes := lim.byteCap()
	if maxBytes > 0 {
		rbody = &cappedReader{r: resp.Body, left: bodyCap(maxBytes), limit: maxBytes}
	}
	res, err := readSQLPPResponse(rbody, lim.MaxRows, maxBytes)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if qctx.Err() != nil {
			return nil, ErrTimeout
		}
		if netFault(err) { // the response was cut short
			return nil, &FaultError{Op: "lost connection to the sql++ query service", Err: err}
		}
		return nil, err
	}
	return res, nil
}

// sqlppFailure maps the service's errors to the engine's: timeouts to ErrTimeout, write
// refusals to ErrNotReadOnly, the rest to a DBError whose message starts with SQLite's
// spelling of its category where one applies.
func sqlppFailure(status string, errs []sqlppError) error {
	if status == "timeout" {
		return ErrTimeout
	}
	if len(errs) == 0 {
		return &DBError{Message: "sql++ query ended with status " + status}
	}
	e := errs[0]
	msg := fmt.Sprintf("%s (SQL++ error %d)", e.Msg, e.Code)
	lower := strings.ToLower(e.Msg)
	switch {
	case e.Code == 1080 || strings.Contains(lower, "timeout") && strings.Contains(lower, "exceeded"):
		return ErrTimeout
	case e.Code == 1000 || strings.Contains(lower, "read-only") || strings.Contains(lower, "readonly"):
		return fmt.Errorf("%w: %s", ErrNotReadOnly, e.Msg)
	case e.Code == 12003 || e.Code == 13014 || strings.Contains(lower, "keyspace not found"):
		return &DBError{Message: msg, Class: ClassNoTable}
	case strings.Contains(lower, "invalid function") || strings.Contains(lower, "function not found"):
		return &DBError{Message: msg, Class: ClassNoFunction}
	case e.Code >= 3000 && e.Code < 4000 && strings.Contains(lower, "syntax error"):
		return &DBError{Message: msg, Class: ClassSyntax}
	case e.Code == 3000:
		return &DBError{Message: msg, Class: ClassSyntax}
	}
	return &DBError{Message: msg}
}

// ErrSQLPPNoEndpoint is returned by NewSQLPP for an empty endpoint.
var ErrSQLPPNoEndpoint = errors.New("sql++: no query service endpoint")

// NewSQLPP returns an SQL++ engine for the query service at endpoint.
func NewSQLPP(endpoint, username, password, bucket string) (*SQLPP, error) {
	if endpoint == "" {
		return nil, ErrSQLPPNoEndpoint
	}
	return &SQLPP{Endpoint: endpoint, Username: username, Password: password, Bucket: bucket, Client: &http.Client{}}, nil
}
