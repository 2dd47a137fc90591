package dataset

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/nl2sqlbench/nl2sqlbench/internal/inputfile"
)

// shape is what a question file that failed to load looks like, for a hint naming the
// fix: the KIND it belongs to, or that it is a prediction file.
type shape struct {
	kind string // the KIND that reads it ("" when it is no question file)
	what string // what was seen, for the message
}

// hintFor sniffs the file a KIND:PATH spec named after loading it failed, and returns
// a hint when the file belongs to another KIND or is no question file at all; "" when
// the file looks like what kind reads (its own error then says what is wrong). Only
// the failure path pays for it.
func hintFor(kind, path string) string {
	if fi, err := os.Stat(path); err != nil {
		return ""
	} else if fi.IsDir() {
		// A directory names its dev.json (BIRD's and Spider's layout alike).
		if path, err = questionFile(path, "dev.json"); err != nil {
			return ""
		}
	}
	data, err := inputfile.Read(path)
	if err != nil {
		return ""
	}
	s := sniffShape(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")))
	switch {
	case s.what == "":
		return ""
	case s.kind == "":
		return fmt.Sprintf("%s looks like %s, not a question file: give it with --pred, and the benchmark's questions with --dataset", path, s.what)
	case s.kind == kind || (s.kind == "gold" && (kind == KindSpider || kind == KindBIRD)):
		return ""
	case s.kind == "gold":
		return fmt.Sprintf("%s looks like %s: use --dataset spider:%s or --dataset bird:%s", path, s.what, path, path)
	}
	return fmt.Sprintf("%s looks like %s: use --dataset %s:%s", path, s.what, s.kind, path)
}

// sniffShape tells question and prediction file shapes apart by their first value or
// line.
func sniffShape(data []byte) shape {
	trimmed := bytes.TrimLeft(data, " \t\r\n")
	if len(trimmed) == 0 {
		return shape{}
	}
	switch trimmed[0] {
	case '[':
		return arrayShape(trimmed)
	case '{':
		return objectShape(trimmed)
	}
	line, _, _ := bytes.Cut(trimmed, []byte{'\n'})
	if tab := bytes.LastIndexByte(line, '\t'); tab > 0 && !bytes.ContainsAny(bytes.TrimSpace(line[tab+1:]), " ();,") {
		return shape{kind: "gold", what: `a gold SQL file ("SQL<TAB>db_id" per line)`}
	}
	return shape{what: "a prediction file (one SQL per line, no db_id)"}
}

func arrayShape(data []byte) shape {
	dec := json.NewDecoder(bytes.NewReader(data))
	if _, err := dec.Token(); err != nil || !dec.More() {
		return shape{}
	}
	var first json.RawMessage
	if dec.Decode(&first) != nil {
		return shape{}
	}
	if s := bytes.TrimSpace(first); len(s) > 0 && s[0] == '"' {
		return shape{what: "a JSON list of SQL strings (predictions)"}
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(first, &obj) != nil {
		return shape{}
	}
	return questionShape(obj, "a JSON array of")
}

// questionShape names the question format of one object's keys.
func questionShape(obj map[string]json.RawMessage, container string) shape {
	keys := func(ks ...string) bool {
		for _, k := range ks {
			if _, ok := obj[k]; ok {
				return true
			}
		}
		return false
	}
	switch {
	case keys("PREDICTED_SQL", "node_type"):
		return shape{what: "NL2SQLBench prediction records"}
	case container != "JSONL" && keys("SQL", "evidence"):
		return shape{kind: KindBIRD, what: container + " BIRD questions (keys SQL, evidence, question_id)"}
	case container != "JSONL" && keys("query") && keys("question"):
		return shape{kind: KindSpider, what: container + " Spider questions (keys db_id, query, question)"}
	case container == "JSONL":
		return shape{kind: KindJSONL, what: "JSONL questions (one JSON object per line)"}
	}
	return shape{}
}

func objectShape(data []byte) shape {
	dec := json.NewDecoder(bytes.NewReader(data))
	var obj map[string]json.RawMessage
	if dec.Decode(&obj) != nil {
		return shape{}
	}
	digits := len(obj) > 0
	for k, v := range obj {
		var s string
		if json.Unmarshal(v, &s) == nil && strings.Contains(s, "----- bird -----") {
			digits = true
			break
		}
		digits = digits && k != "" && strings.Trim(k, "0123456789") == ""
	}
	if digits {
		return shape{what: `BIRD predictions ({"0": "SQL\t----- bird -----\tdb_id", ...})`}
	}
	if sh := questionShape(obj, "JSONL"); sh.what != "" && sh.kind == "" {
		return sh
	}
	if _, ok := obj["db_id"]; ok {
		return shape{kind: KindJSONL, what: "JSONL questions (one JSON object per line)"}
	}
	return shape{}
}
