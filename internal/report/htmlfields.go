package report

import (
	"encoding/json"
	"sort"
	"strconv"
	"strings"
)

// Generic access to record fields that later metrics add. Each getter tries its keys in
// order, so a chart keeps working whichever of the documented names a metric settled on.

// num returns the first of keys holding a number (or a boolean, as 0/1).
func (r *Rec) num(keys ...string) (float64, bool) {
	for _, k := range keys {
		raw, ok := r.Extra[k]
		if !ok {
			continue
		}
		var v any
		if json.Unmarshal(raw, &v) != nil {
			continue
		}
		switch x := v.(type) {
		case float64:
			return x, true
		case bool:
			if x {
				return 1, true
			}
			return 0, true
		case string:
			if f, err := strconv.ParseFloat(x, 64); err == nil {
				return f, true
			}
		}
	}
	return 0, false
}

// str returns the first of keys holding a string.
func (r *Rec) str(keys ...string) (string, bool) {
	for _, k := range keys {
		var s string
		if raw, ok := r.Extra[k]; ok && json.Unmarshal(raw, &s) == nil {
			return s, true
		}
	}
	return "", false
}

// strList returns the first of keys holding a list of strings (other items are shown as JSON).
func (r *Rec) strList(keys ...string) ([]string, bool) {
	for _, k := range keys {
		raw, ok := r.Extra[k]
		if !ok {
			continue
		}
		var items []json.RawMessage
		if json.Unmarshal(raw, &items) != nil {
			continue
		}
		out := make([]string, 0, len(items))
		for _, it := range items {
			var s string
			if json.Unmarshal(it, &s) == nil {
				out = append(out, s)
			} else {
				out = append(out, string(it))
			}
		}
		return out, true
	}
	return nil, false
}

// schemaMap returns the first of keys holding a schema: {table: [columns]}, or a list of
// "table.column" strings.
func (r *Rec) schemaMap(keys ...string) (map[string][]string, bool) {
	for _, k := range keys {
		raw, ok := r.Extra[k]
		if !ok {
			continue
		}
		var m map[string][]string
		if json.Unmarshal(raw, &m) == nil {
			return m, true
		}
		var obj struct {
			Tables  []string `json:"tables"`
			Columns []string `json:"columns"`
		}
		if json.Unmarshal(raw, &obj) == nil && (len(obj.Tables) > 0 || len(obj.Columns) > 0) {
			m = map[string][]string{}
			for _, t := range obj.Tables {
				if _, ok := m[t]; !ok {
					m[t] = []string{}
				}
			}
			for _, c := range obj.Columns {
				t, col, _ := strings.Cut(c, ".")
				m[t] = append(m[t], col)
			}
			return m, true
		}
	}
	return nil, false
}

// passAt returns the system-reported Pass@k map (k -> 0/1), if the record carries one.
func (r *Rec) passAt() (map[int]float64, bool) {
	raw, ok := r.Extra["pass_at"]
	if !ok {
		return nil, false
	}
	var m map[string]any
	if json.Unmarshal(raw, &m) != nil {
		return nil, false
	}
	out := map[int]float64{}
	for k, v := range m {
		n, err := strconv.Atoi(k)
		if err != nil {
			continue
		}
		switch x := v.(type) {
		case float64:
			out[n] = x
		case bool:
			if x {
				out[n] = 1
			} else {
				out[n] = 0
			}
		}
	}
	return out, len(out) > 0
}

// extraFields lists the record's fields that record.Record does not name, sorted, with
// their JSON text: shown in the drill-down so new metrics are visible without new code.
func (r *Rec) extraFields() []KV {
	known := knownRecordKeys()
	var out []KV
	for k, v := range r.Extra {
		if known[k] {
			continue
		}
		out = append(out, KV{Key: k, Value: prettyJSON(v)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Key < out[j].Key })
	return out
}

// KV is one key and its value as text.
type KV struct{ Key, Value string }

// knownRecordKeys are the fields the drill-down already shows in their own place.
func knownRecordKeys() map[string]bool {
	return map[string]bool{
		"index": true, "question_id": true, "db_id": true, "difficulty": true, "question": true,
		"gold_sql": true, "pred_sql": true, "verdict": true, "error_category": true, "error_message": true,
		"ex_bird": true, "ex_spider": true, "pred_rows": true, "gold_rows": true, "exec_ms": true,
		"prompt_tokens": true, "completion_tokens": true, "total_tokens": true, "llm_calls": true,
		"selected_schema": true, "candidates": true, "revision_applied": true,
		"esm": true, "etm": true, "etm_rules": true, "gold_schema": true, "pred_schema": true,
		"flex": true, "flex_verdict": true,
	}
}

// prettyJSON shows a JSON value briefly: numbers to 4 significant digits, strings unquoted.
func prettyJSON(raw json.RawMessage) string {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return string(raw)
	}
	switch x := v.(type) {
	case float64:
		return strconv.FormatFloat(x, 'g', 4, 64)
	case string:
		return x
	}
	return string(raw)
}
