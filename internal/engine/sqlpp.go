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
	if onlyTrivia(stmt) {
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
	res, err := readSQLPPResponse(resp.Body, lim.MaxRows)
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

// sqlppError is one entry of the response's "errors".
type sqlppError struct {
	Code int    `json:"code"`
	Msg  string `json:"msg"`
}

// readSQLPPResponse streams the response object: "results" element by element, then
// "errors" and "status" (which the service writes after the results). Each document is
// flattened as it is read and kept only as its (column, value) cells, so the row cap
// bounds memory; rows are laid out at the end, when the full column set is known.
func readSQLPPResponse(r io.Reader, maxRows int) (*Result, error) {
	dec := json.NewDecoder(r)
	dec.UseNumber()
	if err := expectDelim(dec, '{'); err != nil {
		return nil, err
	}
	res := &Result{}
	colIdx := map[string]int{}
	var docs []sqlppDoc
	raw := false
	var errs []sqlppError
	status := ""
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, fmt.Errorf("read sql++ response: %w", err)
		}
		key, _ := tok.(string)
		switch key {
		case "results":
			if err := expectDelim(dec, '['); err != nil {
				return nil, err
			}
			for dec.More() {
				if maxRows > 0 && len(docs) >= maxRows {
					return nil, fmt.Errorf("%w (%d rows)", ErrRowLimit, maxRows)
				}
				fields, rawVal, isObj, err := readDoc(dec)
				if err != nil {
					return nil, err
				}
				doc := sqlppDoc{raw: rawVal, isObj: isObj}
				if !isObj {
					raw = true
				}
				for _, f := range fields {
					c, ok := colIdx[f.name]
					if !ok {
						c = len(res.Columns)
						colIdx[f.name] = c
						res.Columns = append(res.Columns, f.name)
					}
					doc.cells = append(doc.cells, sqlppCell{col: c, v: f.v})
				}
				docs = append(docs, doc)
			}
			if _, err := dec.Token(); err != nil { // ]
				return nil, fmt.Errorf("read sql++ results: %w", err)
			}
		case "errors":
			if err := dec.Decode(&errs); err != nil {
				return nil, fmt.Errorf("read sql++ errors: %w", err)
			}
		case "status":
			if err := dec.Decode(&status); err != nil {
				return nil, fmt.Errorf("read sql++ status: %w", err)
			}
		default:
			var skip json.RawMessage
			if err := dec.Decode(&skip); err != nil {
				return nil, fmt.Errorf("read sql++ response field %q: %w", key, err)
			}
		}
	}
	if len(errs) > 0 || (status != "" && status != "success") {
		return nil, sqlppFailure(status, errs)
	}
	if raw {
		fieldNames := res.Columns
		res.Columns = []string{"$1"}
		for _, doc := range docs {
			res.Rows = append(res.Rows, []any{doc.rawValue(fieldNames)})
		}
		return res, nil
	}
	// set[c] == i+1 when document i has column c; the rest are MISSING.
	set := make([]int, len(res.Columns))
	for i, doc := range docs {
		row := make([]any, len(res.Columns))
		for _, c := range doc.cells {
			row[c.col] = c.v // a key repeated after flattening: the last value wins
			set[c.col] = i + 1
		}
		var missing []int
		for c := range row {
			if set[c] != i+1 {
				missing = append(missing, c)
			}
		}
		if missing != nil {
			if res.Missing == nil {
				res.Missing = make([][]int, len(docs))
			}
			res.Missing[i] = missing
		}
		res.Rows = append(res.Rows, row)
	}
	return res, nil
}

// sqlppDoc is one result, flattened: its cells, or (for a SELECT RAW scalar) its value.
type sqlppDoc struct {
	cells []sqlppCell
	raw   any
	isObj bool
}

type sqlppCell struct {
	col int
	v   any
}

type sqlppField struct {
	name string
	v    any
}

// rawValue is the document's single value in a RAW result. An object among scalars (a
// RAW expression that is an object for some documents only; rare) becomes the JSON text
// of its flattened fields, since the nested form is not kept.
func (d sqlppDoc) rawValue(cols []string) any {
	if !d.isObj {
		return d.raw
	}
	m := make(map[string]any, len(d.cells))
	for _, c := range d.cells {
		m[cols[c.col]] = c.v
	}
	b, err := json.Marshal(m)
	if err != nil {
		return fmt.Sprint(m)
	}
	return string(b)
}

func expectDelim(dec *json.Decoder, d json.Delim) error {
	tok, err := dec.Token()
	if err != nil {
		return fmt.Errorf("read sql++ response: %w", err)
	}
	if tok != d {
		return fmt.Errorf("read sql++ response: got %v, want %v", tok, d)
	}
	return nil
}

// readDoc reads one result: an object's flattened fields in order, or a raw value.
func readDoc(dec *json.Decoder) ([]sqlppField, any, bool, error) {
	var rawMsg json.RawMessage
	if err := dec.Decode(&rawMsg); err != nil {
		return nil, nil, false, fmt.Errorf("read sql++ result: %w", err)
	}
	trim := bytes.TrimSpace(rawMsg)
	if len(trim) == 0 || trim[0] != '{' {
		v, err := decodeValue(trim)
		if err != nil {
			return nil, nil, false, fmt.Errorf("read sql++ result: %w", err)
		}
		return nil, sqlppValue(v), false, nil
	}
	fields, err := flattenObject(trim, "", nil)
	if err != nil {
		return nil, nil, false, fmt.Errorf("read sql++ result: %w", err)
	}
	return fields, nil, true, nil
}

// flattenObject appends the fields of the JSON object obj to out, nested objects
// recursively under dotted names ({"a":{"b":1}} is a.b). An empty nested object is kept
// as one field whose value is its text "{}", so the field is not mistaken for MISSING.
// Arrays are not flattened: their elements have no names, and their length varies.
func flattenObject(obj []byte, prefix string, out []sqlppField) ([]sqlppField, error) {
	d := json.NewDecoder(bytes.NewReader(obj))
	d.UseNumber()
	if _, err := d.Token(); err != nil { // {
		return nil, err
	}
	for d.More() {
		tok, err := d.Token()
		if err != nil {
			return nil, err
		}
		k, _ := tok.(string)
		var msg json.RawMessage
		if err := d.Decode(&msg); err != nil {
			return nil, fmt.Errorf("field %q: %w", prefix+k, err)
		}
		msg = bytes.TrimSpace(msg)
		if len(msg) > 0 && msg[0] == '{' {
			n := len(out)
			if out, err = flattenObject(msg, prefix+k+".", out); err != nil {
				return nil, err
			}
			if len(out) == n {
				out = append(out, sqlppField{name: prefix + k, v: "{}"})
			}
			continue
		}
		v, err := decodeValue(msg)
		if err != nil {
			return nil, fmt.Errorf("field %q: %w", prefix+k, err)
		}
		out = append(out, sqlppField{name: prefix + k, v: sqlppValue(v)})
	}
	return out, nil
}

func decodeValue(b []byte) (any, error) {
	var v any
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	return v, nil
}

// sqlppValue maps a decoded JSON value to the Result types.
func sqlppValue(v any) any {
	switch x := v.(type) {
	case nil, string:
		return x
	case bool:
		if x {
			return int64(1)
		}
		return int64(0)
	case json.Number:
		if i, err := x.Int64(); err == nil {
			return i
		}
		if f, err := x.Float64(); err == nil {
			return f
		}
		return x.String()
	default: // arrays (and objects inside them): their JSON text, keys sorted
		b, err := json.Marshal(x)
		if err != nil {
			return fmt.Sprint(x)
		}
		return string(b)
	}
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
