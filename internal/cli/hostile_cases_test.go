package cli

import (
	"fmt"
	"strings"
)

// This file generates the hostile-input corpus of TestEvalHostileInputs: malformed
// prediction files, question files, databases and tables.json files, each with what
// `eval` must answer. The corpus is generated rather than stored so that every case
// says how it was made; the fixture it runs against is hostileFixture (hostile_test.go).

// hostileCase is one malformed input and the answer it must get.
type hostileCase struct {
	name string
	// role is what the file is: "pred" (a prediction file), "bird", "spider", "gold"
	// (a Spider gold file), "jsonl" (question files), "db" (the database), "tables".
	role string
	file string // base name the content is written to
	data []byte
	code int // wanted exit code
	// where are substrings the message must hold besides the file name: the line
	// (":3:") or the key ("key \"0\"").
	where []string
}

// validBIRDPred, validRecords and validQuestions answer the fixture's two questions.
const (
	validBIRDPred = "{\n  \"0\": \"SELECT count(*) FROM t\\t----- bird -----\\tshop\",\n  \"1\": \"SELECT name FROM t\\t----- bird -----\\tshop\"\n}\n"
	validRecords  = "{\"question_id\": \"q0\", \"db_id\": \"shop\", \"PREDICTED_SQL\": \"SELECT count(*) FROM t\"}\n" +
		"{\"question_id\": \"q1\", \"db_id\": \"shop\", \"PREDICTED_SQL\": \"SELECT name FROM t\"}\n"
	validBIRDQuestions = "[\n  {\"question_id\": 0, \"db_id\": \"shop\", \"question\": \"How many?\", \"evidence\": \"\", \"SQL\": \"SELECT count(*) FROM t\", \"difficulty\": \"simple\"},\n" +
		"  {\"question_id\": 1, \"db_id\": \"shop\", \"question\": \"Names?\", \"evidence\": \"\", \"SQL\": \"SELECT name FROM t\", \"difficulty\": \"simple\"}\n]\n"
)

// deep nests n JSON arrays.
func deep(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }

// cuts returns prefixes of s cut inside its JSON (never at the end), a few per line.
func cuts(s string, n int) []string {
	var out []string
	for i := 1; i <= n; i++ {
		out = append(out, s[:len(s)*i/(n+1)])
	}
	return out
}

// lineOf is the 1-based line at which a truncated prefix ends (where the decoder gives up).
func lineOf(s string) string {
	return fmt.Sprintf(":%d:", 1+strings.Count(strings.TrimRight(s, " \t\r\n"), "\n"))
}

func predCases() []hostileCase {
	var cs []hostileCase
	add := func(name, file, data string, code int, where ...string) {
		cs = append(cs, hostileCase{name: "pred/" + name, role: "pred", file: file, data: []byte(data), code: code, where: where})
	}
	for i, c := range cuts(validBIRDPred, 8) {
		add(fmt.Sprintf("bird truncated %d", i), "cut.json", c, 1, lineOf(c))
		add(fmt.Sprintf("bird truncated after BOM %d", i), "bomcut.json", "\xef\xbb\xbf"+c, 1, lineOf(c))
		crlf := strings.ReplaceAll(c, "\n", "\r\n")
		add(fmt.Sprintf("bird truncated CRLF %d", i), "crlfcut.json", crlf, 1, lineOf(c))
	}
	for i, c := range cuts(validRecords, 4) {
		add(fmt.Sprintf("records truncated %d", i), "cut.jsonl", c, 1, lineOf(c))
	}
	add("bird duplicate key", "dup.json", "{\n\"0\": \"SELECT 1\",\n\"1\": \"SELECT 2\",\n\"0\": \"SELECT 3\"\n}", 1, ":4:", `key "0"`)
	add("bird duplicate index with zero", "dup0.json", "{\n\"1\": \"SELECT 1\",\n\"01\": \"SELECT 2\"\n}", 1, ":3:", `key "01"`)
	for _, k := range []string{"a", "-1", "1.0", "+1", " 1", "", "99999999999999999999999"} {
		add("bird key "+k, "key.json", fmt.Sprintf("{\n\"0\": \"SELECT 1\",\n%q: \"SELECT 2\"\n}", k), 1, ":3:", fmt.Sprintf("key %q", k))
	}
	for _, v := range []string{"1", "true", "[]", "{}", `["SELECT 1"]`, "1e999"} {
		add("bird value "+v, "val.json", "{\n\"0\": \"SELECT 1\",\n\"1\": "+v+"\n}", 1, ":3:", `key "1"`)
	}
	add("bird NaN", "nan.json", "{\n\"0\": \"SELECT 1\",\n\"1\": NaN\n}", 1, ":3:")
	add("bird trailing data", "trail.json", validBIRDPred+"x\n", 1, ":5:")
	add("bird second object", "two.json", validBIRDPred+"{}\n", 1, ":5:")
	add("bird deep nesting", "deep.json", "{\"0\": \"SELECT 1\", \"1\": "+deep(20000)+"}", 1, ":1:")
	add("bird key out of range", "range.json", "{\n\"0\": \"SELECT 1\",\n\"7\": \"SELECT 2\"\n}", 1, ":3:", `key "7"`)
	add("bird too few", "few.json", "{\n\"0\": \"SELECT 1\"\n}", 1, "1 ")
	add("bird empty object", "empty.json", "{}", 1, "0 ")
	add("bird db_id mismatch", "db.json", "{\n\"0\": \"SELECT 1\\t----- bird -----\\tzoo\",\n\"1\": \"SELECT 2\"\n}", 1, ":2:", "zoo")
	add("spider one line", "one.txt", "SELECT 1\n", 1, "1 line")
	add("spider three lines", "three.txt", "SELECT 1\nSELECT 2\nSELECT 3\n", 1, "3 lines")
	add("spider CRLF three lines", "crlf.txt", "SELECT 1\r\nSELECT 2\r\nSELECT 3\r\n", 1, "3 lines")
	add("spider empty file", "zero.txt", "", 1, "0 lines")
	add("spider only newline", "nl.txt", "\n", 1, "1 line")
	add("spider db_id mismatch", "dbm.txt", "SELECT 1\tzoo\nSELECT 2\tshop\n", 1, ":1:", "zoo")
	// SQL that SQLite sees as empty once it stops at the NUL: judged as an error
	// verdict (exit 0) once the known crash is fixed (hostileKnownFailures).
	add("NUL prediction", "nul.txt", "\x00\nSELECT name FROM t\n", 0)
	add("NUL then DLE", "nuldle.txt", "SELECT 1\n\x00\x10\n", 0)
	add("vertical tab comment", "vt.json", "{\"0\": \"-- c\\n\\u000b\", \"1\": \"SELECT 1\"}", 0)
	add("records not objects", "arr.json", "[1, \"x\", null]", 1, ":1:")
	add("records bad line", "bad.jsonl", "{\"question_id\": \"q0\", \"PREDICTED_SQL\": \"SELECT 1\"}\n{\"question_id\": \n", 1, ":2:")
	add("records unknown id", "unk.jsonl", strings.Replace(validRecords, "q1", "q9", 1), 1, ":2:", `"q9"`)
	add("records duplicate id", "dupid.jsonl", strings.Replace(validRecords, "q1", "q0", 1), 1, ":2:", `"q0"`)
	add("records duplicate key", "dupkey.jsonl", strings.Replace(validRecords, "}\n", ", \"PREDICTED_SQL\": \"DROP TABLE t\"}\n", 1), 1, ":1:", `key "PREDICTED_SQL"`)
	add("records wrong sql type", "type.jsonl", strings.Replace(validRecords, "\"SELECT name FROM t\"", "5", 1), 1, ":2:")
	add("records db_id mismatch", "recdb.jsonl", strings.Replace(validRecords, "\"shop\"", "\"zoo\"", 1), 1, ":1:", "zoo")
	add("records NaN usage", "nanuse.jsonl", strings.Replace(validRecords, "}\n", ", \"token_cost\": NaN}\n", 1), 1, ":1:")
	add("records huge number", "huge.jsonl", strings.Replace(validRecords, "}\n", ", \"prompt_tokens\": 1e999}\n", 1), 1, ":1:")
	add("records non-UTF-8 key", "utf.jsonl", "{\"question_id\": \"q\xff\", \"PREDICTED_SQL\": \"SELECT 1\"}\n", 1, ":1:")
	add("records deep nesting", "deep.jsonl", "{\"question_id\": \"q0\", \"x\": "+deep(20000)+"}\n", 1, ":1:")
	return cs
}

// badQuestionFiles are question-file contents every JSON loader must refuse, each with
// the location its message must give.
func badQuestionFiles(valid string) []struct {
	name, data string
	where      []string
} {
	type bad = struct {
		name, data string
		where      []string
	}
	one := func(fields string) string { return "[\n{" + fields + "}\n]" }
	bs := []bad{
		{"empty file", "", []string{":1:"}},
		{"only BOM", "\xef\xbb\xbf", []string{":1:"}},
		{"white space", " \n\n", []string{":1:"}},
		{"open bracket", "[", []string{":1:"}},
		{"object not array", "{}", []string{":1:"}},
		{"null", "null", []string{":1:"}},
		{"array of numbers", "[1, 2]", []string{":1:", "question 0"}},
		{"array of nulls", "[null]", []string{":1:", "question 0"}},
		{"trailing data", valid + "]", []string{":5:"}},
		{"non-UTF-8", strings.Replace(valid, "How many?", "How \xff many?", 1), []string{":2:", "UTF-8"}},
		{"Latin-1", strings.Replace(valid, "Names?", "Nam\xe9s?", 1), []string{":3:", "UTF-8"}},
		{"UTF-16", "\xff\xfe[\x00]\x00", []string{":1:"}},
		{"deep nesting", "[" + deep(20000) + "]", []string{":1:"}},
		{"NaN", one(`"db_id": "shop", "SQL": "SELECT 1", "query": "SELECT 1", "gold": "SELECT 1", "question_id": NaN`), []string{":2:"}},
		{"db_id number", one(`"db_id": 3, "SQL": "SELECT 1", "query": "SELECT 1", "gold": "SELECT 1"`), []string{":2:", `key "db_id"`}},
		{"db_id array", one(`"db_id": ["shop"], "SQL": "SELECT 1", "query": "SELECT 1", "gold": "SELECT 1"`), []string{":2:", `key "db_id"`}},
		{"db_id missing", one(`"SQL": "SELECT 1", "query": "SELECT 1", "gold": "SELECT 1"`), []string{":2:", "db_id"}},
		{"db_id empty", one(`"db_id": " ", "SQL": "SELECT 1", "query": "SELECT 1", "gold": "SELECT 1"`), []string{":2:", "db_id"}},
		{"db_id path", one(`"db_id": "../shop", "SQL": "SELECT 1", "query": "SELECT 1", "gold": "SELECT 1"`), []string{":2:", "db_id"}},
		{"db_id NUL", one(`"db_id": "sh\u0000op", "SQL": "SELECT 1", "query": "SELECT 1", "gold": "SELECT 1"`), []string{":2:", "db_id"}},
		{"gold missing", one(`"db_id": "shop"`), []string{":2:", "gold SQL"}},
		{"gold empty", one(`"db_id": "shop", "SQL": " ", "query": "", "gold": "  "`), []string{":2:", "gold SQL"}},
		{"gold number", one(`"db_id": "shop", "SQL": 1, "query": 1, "gold": 1`), []string{":2:"}},
		{"duplicate key", one(`"db_id": "shop", "SQL": "SELECT 1", "query": "SELECT 1", "gold": "SELECT 1", "db_id": "zoo"`), []string{":2:", `key "db_id" appears twice`}},
		{"question object", one(`"db_id": "shop", "SQL": "SELECT 1", "query": "SELECT 1", "gold": "SELECT 1", "question": {}`), []string{":2:", `key "question"`}},
		{"truncated in string", valid[:len(valid)/3], []string{lineOf(valid[:len(valid)/3])}},
		{"truncated late", valid[:len(valid)-4], []string{lineOf(valid[:len(valid)-4])}},
		{"CRLF truncated", strings.ReplaceAll(valid[:len(valid)-4], "\n", "\r\n"), []string{lineOf(valid[:len(valid)-4])}},
		{"BOM truncated", "\xef\xbb\xbf" + valid[:len(valid)/2], []string{lineOf(valid[:len(valid)/2])}},
	}
	return bs
}

func questionCases() []hostileCase {
	var cs []hostileCase
	for _, k := range []struct{ role, file string }{{"bird", "dev.json"}, {"spider", "dev.json"}} {
		for _, b := range badQuestionFiles(validBIRDQuestions) {
			cs = append(cs, hostileCase{name: k.role + "/" + b.name, role: k.role, file: k.file, data: []byte(b.data), code: 1, where: b.where})
		}
	}
	// JSONL: one object per line, so the same faults sit on a line of their own.
	jsonl := map[string]struct {
		data  string
		where []string
	}{
		"truncated line":  {"{\"db_id\": \"shop\", \"gold\": \"SELECT 1\"}\n{\"db_id\": \"sh", []string{":2:"}},
		"array line":      {"[1]\n", []string{":1:"}},
		"bare string":     {"\"SELECT 1\"\n", []string{":1:"}},
		"NaN":             {"{\"db_id\": \"shop\", \"gold\": \"SELECT 1\", \"question_id\": NaN}\n", []string{":1:"}},
		"huge id":         {"{\"db_id\": \"shop\", \"gold\": \"SELECT 1\", \"question_id\": 1e999}\n", []string{":1:", "question_id"}},
		"duplicate id":    {"{\"db_id\": \"shop\", \"gold\": \"SELECT 1\", \"question_id\": 7}\n{\"db_id\": \"shop\", \"gold\": \"SELECT 1\", \"question_id\": 7.0}\n", []string{":2:", `"7"`}},
		"gold array bad":  {"{\"db_id\": \"shop\", \"gold\": [\"SELECT 1\", 2]}\n", []string{":1:", `key "gold"`}},
		"gold empty list": {"{\"db_id\": \"shop\", \"gold\": []}\n", []string{":1:", "gold SQL"}},
		"gold blank item": {"{\"db_id\": \"shop\", \"gold\": [\"SELECT 1\", \" \"]}\n", []string{":1:", "gold SQL 1"}},
		"no db_id":        {"\n\n{\"gold\": \"SELECT 1\"}\n", []string{":3:", "db_id"}},
		"non-UTF-8":       {"{\"db_id\": \"shop\", \"gold\": \"SELECT 1\"}\n{\"db_id\": \"shop\", \"gold\": \"SELECT '\xc3\x28'\"}\n", []string{":2:", "UTF-8"}},
		"CRLF bad line":   {"{\"db_id\": \"shop\", \"gold\": \"SELECT 1\"}\r\n{oops}\r\n", []string{":2:"}},
		"deep nesting":    {"{\"db_id\": \"shop\", \"gold\": \"SELECT 1\", \"x\": " + deep(20000) + "}\n", []string{":1:"}},
		"duplicate gold":  {"{\"db_id\": \"shop\", \"gold\": \"SELECT 1\", \"gold\": \"SELECT 2\"}\n", []string{":1:", `key "gold" appears twice`}},
		"wrong id type":   {"{\"db_id\": \"shop\", \"gold\": \"SELECT 1\", \"question_id\": true}\n", []string{":1:", "question_id"}},
		"evidence number": {"{\"db_id\": \"shop\", \"gold\": \"SELECT 1\", \"evidence\": 5}\n", []string{":1:", `key "evidence"`}},
	}
	for name, j := range jsonl {
		cs = append(cs, hostileCase{name: "jsonl/" + name, role: "jsonl", file: "q.jsonl", data: []byte(j.data), code: 1, where: j.where})
	}
	// Gold SQL that SQLite sees as empty: a gold_error once the known crash is fixed.
	cs = append(cs, hostileCase{name: "jsonl/gold is a NUL byte", role: "jsonl", file: "q.jsonl",
		data: []byte("{\"db_id\": \"shop\", \"gold\": \"\\u0000\"}\n{\"db_id\": \"shop\", \"gold\": \"SELECT 1\"}\n"), code: 0, where: []string{"gold_error"}})
	gold := map[string]struct {
		data  string
		where []string
	}{
		"no tab":         {"SELECT 1\tshop\nSELECT 2\n", []string{":2:", "no tab"}},
		"empty sql":      {"\tshop\n", []string{":1:", "no tab"}}, // the line is trimmed first
		"empty db_id":    {"SELECT 1\t \n", []string{":1:", "db_id"}},
		"path db_id":     {"SELECT 1\t../../etc\n", []string{":1:", "db_id"}},
		"non-UTF-8":      {"SELECT 1\tshop\nSELECT '\xff'\tshop\n", []string{":2:", "UTF-8"}},
		"CRLF no tab":    {"SELECT 1\tshop\r\n\r\nSELECT 2\r\n", []string{":3:", "no tab"}},
		"JSON not gold":  {validBIRDQuestions, []string{":1:", "no tab"}},
		"binary garbage": {"\x00\x01\x02\x03", []string{":1:", "no tab"}},
	}
	for name, g := range gold {
		cs = append(cs, hostileCase{name: "gold/" + name, role: "gold", file: "dev_gold.sql", data: []byte(g.data), code: 1, where: g.where})
	}
	return cs
}

func hostileCases() []hostileCase {
	cs := append(predCases(), questionCases()...)
	return append(cs, resourceCases()...)
}
