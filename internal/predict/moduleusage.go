package predict

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/nl2sqlbench/nl2sqlbench/internal/inputfile"
	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
)

// ModuleUsage reads a module-records file (JSONL or a JSON array) and returns each
// question's usage per module: question key (question_id, else the question text) ->
// module -> usage. Per record the usage is ModuleOutput.Usage (the rules the prediction
// reader uses for the end-to-end totals), and the module is ModuleOutput.Module
// (schema_extraction counts as schema_selection, revision as query_revision). ok is false
// when the file holds no module nodes (another prediction format, flat records only, or a
// file the prediction reader rejects, which it reports): there is no per-module usage.
func ModuleUsage(path string) (usage map[string]map[string]record.Usage, ok bool, err error) {
	data, err := inputfile.Read(path)
	if err != nil {
		return nil, false, fmt.Errorf("module usage: %w", err)
	}
	data = bytes.TrimSpace(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")))
	if len(data) == 0 || (data[0] != '{' && data[0] != '[') {
		return nil, false, nil
	}
	objs, err := splitObjects(path, data, itemCap{})
	if err != nil {
		return nil, false, nil
	}
	usage = map[string]map[string]record.Usage{}
	for _, o := range objs {
		var r ModuleOutput
		if err := json.Unmarshal(o.raw, &r); err != nil {
			return nil, false, nil
		}
		module, known := r.Module()
		if !known {
			return nil, false, nil
		}
		key := string(r.QuestionID)
		if key == "" {
			key = strings.TrimSpace(r.Question)
		}
		if module == "" || key == "" {
			continue
		}
		m := usage[key]
		if m == nil {
			m = map[string]record.Usage{}
			usage[key] = m
		}
		u := m[module]
		addUsage(&u, r.Usage())
		m[module] = u
		ok = true
	}
	return usage, ok, nil
}
