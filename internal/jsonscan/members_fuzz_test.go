package jsonscan

import (
	"bytes"
	"encoding/json"
	"testing"
)

// FuzzMembers: on any valid JSON object, Members gives the keys and values a decoder
// gives, in order, and DuplicateKey the first repeated key.
func FuzzMembers(f *testing.F) {
	for _, seed := range []string{`{}`, `{"a":1,"b":[1,{"c":"}"}],"a":null}`, `{"\u0030":"x\"","1":{"2":[]}}`, ` {"a" : -1e3 , "b":true}`} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, obj []byte) {
		if !json.Valid(obj) || bytes.TrimSpace(obj)[0] != '{' {
			return
		}
		var wantKeys, wantValues []string
		dec := json.NewDecoder(bytes.NewReader(obj))
		dec.Token()
		for dec.More() {
			tok, err := dec.Token()
			if err != nil {
				t.Fatal(err)
			}
			var v json.RawMessage
			if err := dec.Decode(&v); err != nil {
				t.Fatal(err)
			}
			wantKeys = append(wantKeys, tok.(string))
			wantValues = append(wantValues, string(v))
		}
		var keys, values []string
		Members(obj, func(key, value []byte) bool {
			keys = append(keys, string(key))
			values = append(values, string(value))
			return true
		})
		if len(keys) != len(wantKeys) {
			t.Fatalf("Members gave %d members, the decoder %d", len(keys), len(wantKeys))
		}
		wantDup, wantOK := "", false
		seen := map[string]bool{}
		for i := range keys {
			if keys[i] != wantKeys[i] || values[i] != wantValues[i] {
				t.Fatalf("member %d: %q=%q, decoder %q=%q", i, keys[i], values[i], wantKeys[i], wantValues[i])
			}
			if seen[keys[i]] && !wantOK {
				wantDup, wantOK = keys[i], true
			}
			seen[keys[i]] = true
		}
		if dup, ok := DuplicateKey(obj); dup != wantDup || ok != wantOK {
			t.Fatalf("DuplicateKey = %q, %v; want %q, %v", dup, ok, wantDup, wantOK)
		}
	})
}
