package collect

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/nl2sqlbench/nl2sqlbench/internal/dbschema"
)

// Document shapes: what an SQL++ prompt shows instead of CREATE TABLE. Documents have no
// declared schema, so the shape of each collection is read from its first documents in
// the export-docs output (DIR/<db_id>/<collection>.jsonl): every field (nested objects'
// fields as dotted paths under their object), the JSON types seen (a union such as
// "number|null" when documents differ), "optional" when some sampled documents lack the
// field, and a few distinct example values, as the CREATE TABLE path's sample comments.

// docKeyField is export-docs' document-key field; cbimport does not store it in the
// document, so it is not part of the shape.
const docKeyField = "_key"

// docShapes is one database's collections, in file-name order.
type docShapes struct {
	colls []*collShape
}

type collShape struct {
	name    string
	sampled int
	fields  []*fieldShape // in order of first appearance
	byName  map[string]*fieldShape
}

type fieldShape struct {
	path     []string // name segments: ["address", "city"] for a nested field
	types    []string // JSON types, in order of first sight
	present  int      // sampled documents holding the field
	examples []string // distinct rendered scalar values
	seen     map[string]bool
}

func (f *fieldShape) name() string { return strings.Join(f.path, ".") }

// readDocShapes reads the shapes of every collection file in dir, from its first n
// documents, keeping up to examples example values per field.
func readDocShapes(dir string, n, examples int) (*docShapes, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("read documents: %w", err)
	}
	var names []string
	for _, e := range ents {
		if !e.IsDir() && strings.HasSuffix(e.Name(), ".jsonl") {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	if len(names) == 0 {
		return nil, fmt.Errorf("read documents: %s holds no <collection>.jsonl file: %w", dir, errNoDatabase)
	}
	s := &docShapes{}
	for _, name := range names {
		c, err := readCollShape(filepath.Join(dir, name), strings.TrimSuffix(name, ".jsonl"), n, examples)
		if err != nil {
			return nil, err
		}
		s.colls = append(s.colls, c)
	}
	return s, nil
}

func readCollShape(path, name string, n, examples int) (*collShape, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("read documents: %w", err)
	}
	defer f.Close()
	c := &collShape{name: name, byName: map[string]*fieldShape{}}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 1<<16), 1<<26)
	line := 0
	for c.sampled < n && sc.Scan() {
		line++
		raw := bytes.TrimSpace(sc.Bytes())
		if len(raw) == 0 {
			continue
		}
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.UseNumber()
		here := map[*fieldShape]bool{}
		if err := c.walkObject(dec, nil, here, examples); err != nil {
			return nil, fmt.Errorf("%s:%d: not a JSON document: %w", path, line, err)
		}
		for fs := range here {
			fs.present++
		}
		c.sampled++
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	return c, nil
}

// walkObject reads one JSON object from dec (its opening brace first) and records its
// fields under prefix; here collects the fields this document holds.
func (c *collShape) walkObject(dec *json.Decoder, prefix []string, here map[*fieldShape]bool, examples int) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return errors.New("want an object")
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		key, _ := tok.(string)
		if len(prefix) == 0 && key == docKeyField {
			var skip json.RawMessage
			if err := dec.Decode(&skip); err != nil {
				return err
			}
			continue
		}
		path := append(append([]string(nil), prefix...), key)
		fs := c.field(path)
		here[fs] = true
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return err
		}
		raw = bytes.TrimSpace(raw)
		typ := jsonType(raw)
		fs.addType(typ)
		switch typ {
		case "object":
			sub := json.NewDecoder(bytes.NewReader(raw))
			sub.UseNumber()
			if err := c.walkObject(sub, path, here, examples); err != nil {
				return err
			}
		case "string", "number", "boolean":
			if len(fs.examples) < examples {
				v := renderJSONValue(raw, typ)
				if !fs.seen[v] {
					fs.seen[v] = true
					fs.examples = append(fs.examples, v)
				}
			}
		}
	}
	_, err = dec.Token() // }
	return err
}

func (c *collShape) field(path []string) *fieldShape {
	k := strings.Join(path, "\x00")
	fs := c.byName[k]
	if fs == nil {
		fs = &fieldShape{path: path, seen: map[string]bool{}}
		c.byName[k] = fs
		c.fields = append(c.fields, fs)
	}
	return fs
}

func (f *fieldShape) addType(t string) {
	for _, x := range f.types {
		if x == t {
			return
		}
	}
	f.types = append(f.types, t)
}

func jsonType(raw []byte) string {
	if len(raw) == 0 {
		return "null"
	}
	switch raw[0] {
	case '{':
		return "object"
	case '[':
		return "array"
	case '"':
		return "string"
	case 't', 'f':
		return "boolean"
	case 'n':
		return "null"
	}
	return "number"
}

// renderJSONValue shows a scalar as JSON, long strings cut to 40 characters.
func renderJSONValue(raw []byte, typ string) string {
	if typ != "string" {
		return string(raw)
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return string(raw)
	}
	if utf8.RuneCountInString(s) > 40 {
		s = string([]rune(s)[:40]) + "..."
	}
	s = strings.ReplaceAll(s, "\n", " ")
	b, _ := json.Marshal(s)
	return string(b)
}

// sqlppIdent quotes a name for SQL++ when it is not a plain identifier.
func sqlppIdent(s string) string {
	if plainIdent.MatchString(s) {
		return s
	}
	return "`" + strings.ReplaceAll(s, "`", "``") + "`"
}

// render writes the shapes of the selected collections and fields (all when sel is nil).
// A selected collection with no fields listed shows all of them; otherwise it shows the
// listed fields, any field another selected collection lists (likely join keys), and the
// objects enclosing them.
func (s *docShapes) render(sel map[string][]string) string {
	var b strings.Builder
	named := map[string]bool{}
	for _, cols := range sel {
		for _, c := range cols {
			named[strings.ToLower(c)] = true
		}
	}
	for _, c := range s.colls {
		var want map[string]bool
		if sel != nil {
			found := false
			for name, cols := range sel {
				if strings.EqualFold(name, c.name) {
					found = true
					if len(cols) == 0 {
						continue
					}
					if want == nil {
						want = map[string]bool{}
					}
					for _, col := range cols {
						want[strings.ToLower(col)] = true
					}
				}
			}
			if !found {
				continue
			}
			if want != nil {
				for k := range named {
					want[k] = true
				}
			}
		}
		fmt.Fprintf(&b, "collection %s (%d documents sampled)\n", sqlppIdent(c.name), c.sampled)
		for _, f := range c.fields {
			if want != nil && !wanted(want, f.path) {
				continue
			}
			quoted := make([]string, len(f.path))
			for i, p := range f.path {
				quoted[i] = sqlppIdent(p)
			}
			line := strings.Repeat("  ", len(f.path)) + strings.Join(quoted, ".") + ": " + strings.Join(f.types, "|")
			if f.present < c.sampled {
				line += ", optional"
			}
			if len(f.types) == 1 && f.types[0] == "object" {
				line += " (nested object: its fields follow)"
			}
			if len(f.examples) > 0 {
				line += "  -- examples: " + strings.Join(f.examples, ", ")
			}
			b.WriteString(line + "\n")
		}
		b.WriteString("\n")
	}
	return strings.TrimRight(b.String(), "\n")
}

// wanted keeps a field that is selected, that lies inside a selected object, or whose
// nested fields are selected.
func wanted(want map[string]bool, path []string) bool {
	full := strings.ToLower(strings.Join(path, "."))
	for k := range want {
		if k == full || strings.HasPrefix(full, k+".") || strings.HasPrefix(k, full+".") {
			return true
		}
	}
	return false
}

// schema is the collections as a dbschema.Schema (collection = table, field path =
// column), for the schema-selection strategies' name checks.
func (s *docShapes) schema(dbID string) *dbschema.Schema {
	out := &dbschema.Schema{DBID: dbID}
	for _, c := range s.colls {
		t := &dbschema.Table{Name: c.name}
		for _, f := range c.fields {
			t.Columns = append(t.Columns, &dbschema.Column{Name: f.name(), Type: strings.Join(f.types, "|")})
		}
		out.Tables = append(out.Tables, t)
	}
	return out
}
