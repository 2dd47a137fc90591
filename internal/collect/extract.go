package collect

import (
	"encoding/json"
	"regexp"
	"strings"

	"github.com/nl2sqlbench/nl2sqlbench/internal/dbschema"
)

var (
	anyFence    = regexp.MustCompile("(?s)```[A-Za-z]*[ \t]*\n?(.*?)```")
	stmtStart   = regexp.MustCompile(`(?im)^\s*(select|with)\b`)
	jsonFence   = regexp.MustCompile("(?s)```(?:json)?[ \t]*\n(.*?)```")
	sqlLabelled = regexp.MustCompile("(?s)```(?:sql|sqlite)[ \t]*\n(.*?)```")
)

// extractSQL takes the SQL out of a model's answer: the first ```sql block, else the first
// fenced block, else the bare text from the first line starting with SELECT or WITH (up to
// a ';'), else the whole answer. A trailing ';' is dropped.
func extractSQL(text string) string {
	var sql string
	switch {
	case sqlLabelled.MatchString(text):
		sql = sqlLabelled.FindStringSubmatch(text)[1]
	case anyFence.MatchString(text):
		sql = anyFence.FindStringSubmatch(text)[1]
	default:
		sql = text
		if loc := stmtStart.FindStringIndex(text); loc != nil {
			sql = text[loc[0]:]
			if i := strings.Index(sql, ";"); i >= 0 {
				sql = sql[:i]
			}
		}
	}
	sql = strings.TrimSpace(sql)
	return strings.TrimSpace(strings.TrimSuffix(sql, ";"))
}

// extractSchemaJSON reads the tables and columns a model returned as JSON ({"table":
// ["column", ...]}, in a ```json block or bare), keeping only names the database has (in
// its spelling). ok is false when no JSON object could be read.
func extractSchemaJSON(text string, s *dbschema.Schema) (map[string][]string, bool) {
	body := text
	if m := jsonFence.FindStringSubmatch(text); m != nil {
		body = m[1]
	}
	i, j := strings.Index(body, "{"), strings.LastIndex(body, "}")
	if i < 0 || j < i {
		return nil, false
	}
	var raw map[string]any
	if err := json.Unmarshal([]byte(body[i:j+1]), &raw); err != nil {
		return nil, false
	}
	out := map[string][]string{}
	for name, v := range raw {
		t := s.Table(name)
		if t == nil {
			continue // a table the database does not have: the model made it up
		}
		cols := out[t.Name]
		if cols == nil {
			cols = []string{}
		}
		list, _ := v.([]any)
		for _, x := range list {
			cn, _ := x.(string)
			if c := t.Column(cn); c != nil && !contains(cols, c.Name) {
				cols = append(cols, c.Name)
			}
		}
		out[t.Name] = cols
	}
	return out, true
}

func contains(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}
