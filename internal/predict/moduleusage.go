package predict

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

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
	src, closeFile, err := openSource(path)
	if err != nil {
		return nil, false, fmt.Errorf("module usage: %w", err)
	}
	defer closeFile()
	if first, _ := src.firstByte(); first != '{' && first != '[' {
		return nil, false, nil
	}
	// Checked whole first, as the prediction reader does: a file it rejects has no usage.
	if src.eachObject(itemCap{}, nil) != nil {
		return nil, false, nil
	}
	usage = map[string]map[string]record.Usage{}
	errNone := errors.New("no module usage")
	err = src.eachObject(itemCap{}, func(o object) error {
		var r ModuleOutput
		if err := json.Unmarshal(o.raw, &r); err != nil {
			return errNone
		}
		module, known := r.Module()
		if !known {
			return errNone
		}
		key := string(r.QuestionID)
		if key == "" {
			key = strings.TrimSpace(r.Question)
		}
		if module == "" || key == "" {
			return nil
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
		return nil
	})
	if err != nil {
		return nil, false, nil
	}
	return usage, ok, nil
}
