package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// fakeQueryService speaks the Couchbase Query Service's REST shape (POST /query/service,
// JSON body, basic auth; a response object with results, errors and status) for a few
// canned statements. It records the last request body.
type fakeQueryService struct {
	last map[string]any
}

func (f *fakeQueryService) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/query/service" || r.Method != http.MethodPost {
		http.Error(w, "not found", http.StatusNotFound)
		return
	}
	if u, p, ok := r.BasicAuth(); !ok || u != "reader" || p != "secret" {
		w.WriteHeader(http.StatusUnauthorized)
		fmt.Fprint(w, `{"errors":[{"code":10000,"msg":"Authentication failure"}],"status":"fatal"}`)
		return
	}
	var body map[string]any
	if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	f.last = body
	stmt, _ := body["statement"].(string)
	w.Header().Set("Content-Type", "application/json")
	write := func(results, errs, status string) {
		fmt.Fprintf(w, `{"requestID":"x","signature":{"*":"*"},"results":[%s],"errors":[%s],"status":%q,"metrics":{"resultCount":1}}`, results, errs, status)
	}
	switch {
	case stmt == "SELECT h.* FROM hero h":
		write(`{"id":1,"name":"3-D Man","height":188.5,"alive":true,"tags":["a"]},{"id":2,"name":null},{"id":3,"name":"Abe","extra":{"k":1}}`, "", "success")
	case stmt == "SELECT * FROM hero h":
		// Nested objects, an array of objects, an empty object, and documents that lack
		// fields others have; whitespace inside the documents as a server may send it.
		write(`{"h": {"id": 1, "name": "A", "addr": {"city": "X", "geo": {"lat": 1.5, "lon": -2}}, "powers": [{"p": 1}, 2]}},`+
			`{"h": {"id": 2, "addr": {"city": null}, "meta": {}}},`+
			`{"h": {"id": 3, "name": "C", "addr": "none"}}`, "", "success")
	case stmt == "SELECT RAW name FROM hero":
		write(`"A",null,{"x":1}`, "", "success")
	case stmt == "SELECT RAW COUNT(*) FROM hero":
		write(`3`, "", "success")
	case stmt == "SELECT $1 AS a, $n AS b":
		args, _ := body["args"].([]any)
		fmt.Fprintf(w, `{"results":[{"a":%s,"b":%s}],"status":"success"}`, mustJSON(args[0]), mustJSON(body["$n"]))
	case stmt == "SELECT * FROM nope":
		write("", `{"code":12003,"msg":"Keyspace not found in CB datastore: default:nope"}`, "fatal")
	case stmt == "SELEC 1":
		write("", `{"code":3000,"msg":"syntax error - line 1, column 1, near 'SELEC', at: 1"}`, "fatal")
	case stmt == "SELECT NOFUNC(1)":
		write("", `{"code":3000,"msg":"Invalid function NOFUNC (near line 1, column 8)"}`, "fatal")
	case strings.HasPrefix(stmt, "DELETE"):
		if body["readonly"] == true {
			write("", `{"code":1000,"msg":"The server or request is read-only and cannot accept this write statement."}`, "fatal")
			return
		}
		write("", "", "success")
	case stmt == "SLOW":
		d, _ := time.ParseDuration(fmt.Sprint(body["timeout"]))
		select {
		case <-time.After(d):
			write("", `{"code":1080,"msg":"Timeout `+d.String()+` exceeded"}`, "timeout")
		case <-r.Context().Done():
		}
	case stmt == "MANY":
		var b strings.Builder
		for i := range 100 {
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `{"i":%d}`, i)
		}
		write(b.String(), "", "success")
	default:
		write("", `{"code":5000,"msg":"unexpected statement"}`, "fatal")
	}
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func newFakeSQLPP(t *testing.T) (*SQLPP, *fakeQueryService) {
	t.Helper()
	f := &fakeQueryService{}
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	e, err := NewSQLPP(srv.URL, "reader", "secret", "bird")
	if err != nil {
		t.Fatal(err)
	}
	return e, f
}

func TestSQLPPResults(t *testing.T) {
	e, f := newFakeSQLPP(t)
	res, err := e.Query(context.Background(), "superhero", "SELECT h.* FROM hero h", Limits{Timeout: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	wantCols := []string{"id", "name", "height", "alive", "tags", "extra"}
	wantCols[5] = "extra.k"
	wantRows := [][]any{
		{int64(1), "3-D Man", 188.5, int64(1), `["a"]`, nil},
		{int64(2), nil, nil, nil, nil, nil},
		{int64(3), "Abe", nil, nil, nil, int64(1)},
	}
	// Document 2's name is a JSON null, not MISSING; everything else it lacks is.
	wantMissing := [][]int{{5}, {2, 3, 4, 5}, {2, 3, 4}}
	checkSQLPPResult(t, res, wantCols, wantRows, wantMissing)
	if f.last["readonly"] != true || f.last["timeout"] != "2000ms" || f.last["query_context"] != "default:`bird`.`superhero`" {
		t.Errorf("request body %v: want readonly, timeout 2000ms and the scope's query_context", f.last)
	}

	res, err = e.Query(context.Background(), "superhero", "SELECT RAW COUNT(*) FROM hero", Limits{})
	if err != nil || !cmp.Equal(res.Columns, []string{"$1"}) || !cmp.Equal(res.BoxedRows(), [][]any{{int64(3)}}) || res.Missing() != nil {
		t.Errorf("RAW result: %+v, %v", res, err)
	}
	if _, ok := f.last["timeout"]; ok {
		t.Errorf("no timeout asked, but the request has one: %v", f.last)
	}

	res, err = e.QueryArgs(context.Background(), "superhero", "SELECT $1 AS a, $n AS b", []any{"x"}, map[string]any{"n": 2}, Limits{})
	if err != nil || !cmp.Equal(res.BoxedRows(), [][]any{{"x", int64(2)}}) {
		t.Errorf("arguments: %+v, %v", res, err)
	}
}

func TestSQLPPErrors(t *testing.T) {
	e, _ := newFakeSQLPP(t)
	ctx := context.Background()
	tests := []struct {
		stmt      string
		wantClass ErrorClass
		wantIs    error
	}{
		{"SELECT * FROM nope", ClassNoTable, nil},
		{"SELEC 1", ClassSyntax, nil},
		{"SELECT NOFUNC(1)", ClassNoFunction, nil},
		{"DELETE FROM hero", "", ErrNotReadOnly},
		{"SLOW", "", ErrTimeout},
		{"  ", "", ErrEmptyQuery},
	}
	for _, tc := range tests {
		_, err := e.Query(ctx, "superhero", tc.stmt, Limits{Timeout: 200 * time.Millisecond})
		if tc.wantIs != nil {
			if !errors.Is(err, tc.wantIs) {
				t.Errorf("%q: %v, want %v", tc.stmt, err, tc.wantIs)
			}
			continue
		}
		var dbe *DBError
		if !errors.As(err, &dbe) || dbe.Class != tc.wantClass || !strings.Contains(dbe.Message, "SQL++ error") {
			t.Errorf("%q: %#v, want a DBError of class %q carrying the service's message", tc.stmt, err, tc.wantClass)
		}
	}
	if _, err := e.Query(ctx, "superhero", "MANY", Limits{MaxRows: 10}); !errors.Is(err, ErrRowLimit) {
		t.Errorf("100 results with MaxRows 10: %v, want ErrRowLimit", err)
	}
	bad := *e
	bad.Password = "wrong"
	if _, err := bad.Query(ctx, "superhero", "MANY", Limits{}); err == nil || !strings.Contains(err.Error(), "401") {
		t.Errorf("wrong password: %v, want a 401 error", err)
	}
	cctx, cancel := context.WithCancel(ctx)
	time.AfterFunc(100*time.Millisecond, cancel)
	if _, err := e.Query(cctx, "superhero", "SLOW", Limits{Timeout: 5 * time.Second}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v, want context.Canceled", err)
	}
	if _, err := NewSQLPP("", "", "", ""); !errors.Is(err, ErrSQLPPNoEndpoint) {
		t.Errorf("empty endpoint: %v", err)
	}
}

// TestSQLPPFlatten checks that nested objects become dotted columns (recursively), arrays
// stay JSON text, an empty object stays one "{}" column, and a field a document lacks is
// MISSING (nil, listed in Missing) while a JSON null is not.
func TestSQLPPFlatten(t *testing.T) {
	e, _ := newFakeSQLPP(t)
	res, err := e.Query(context.Background(), "superhero", "SELECT * FROM hero h", Limits{MaxRows: 3})
	if err != nil {
		t.Fatal(err)
	}
	wantCols := []string{"h.id", "h.name", "h.addr.city", "h.addr.geo.lat", "h.addr.geo.lon", "h.powers", "h.meta", "h.addr"}
	wantRows := [][]any{
		{int64(1), "A", "X", 1.5, int64(-2), `[{"p":1},2]`, nil, nil},
		{int64(2), nil, nil, nil, nil, nil, "{}", nil},
		{int64(3), "C", nil, nil, nil, nil, nil, "none"},
	}
	wantMissing := [][]int{{6, 7}, {1, 3, 4, 5, 7}, {2, 3, 4, 5, 6}}
	checkSQLPPResult(t, res, wantCols, wantRows, wantMissing)
	if _, err := e.Query(context.Background(), "superhero", "SELECT * FROM hero h", Limits{MaxRows: 2}); !errors.Is(err, ErrRowLimit) {
		t.Errorf("3 results with MaxRows 2: %v, want ErrRowLimit", err)
	}

	// A RAW result mixing scalars and an object: one column; the object as JSON text.
	res, err = e.Query(context.Background(), "superhero", "SELECT RAW name FROM hero", Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([][]any{{"A"}, {nil}, {`{"x":1}`}}, res.BoxedRows()); diff != "" || res.Missing() != nil {
		t.Errorf("raw rows (-want +got):\n%s (missing %v)", diff, res.Missing())
	}
}

// checkSQLPPResult compares a result's columns, rows and MISSING cells with the wanted ones.
func checkSQLPPResult(tb testing.TB, res *Result, cols []string, rows [][]any, missing [][]int) {
	tb.Helper()
	if diff := cmp.Diff(cols, res.Columns); diff != "" {
		tb.Errorf("columns (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(rows, res.BoxedRows()); diff != "" {
		tb.Errorf("rows (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(missing, res.Missing()); diff != "" {
		tb.Errorf("missing (-want +got):\n%s", diff)
	}
}
