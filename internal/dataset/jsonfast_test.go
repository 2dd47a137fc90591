package dataset

import (
	"bytes"
	"encoding/json"
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/nl2sqlbench/nl2sqlbench/internal/testutil"
)

// objectsEqual compares two readings field by field (raw values compared as bytes).
func objectsEqual(t *testing.T, name string, fast, slow []object) {
	t.Helper()
	if len(fast) != len(slow) {
		t.Fatalf("%s: fast path read %d objects, slow %d", name, len(fast), len(slow))
	}
	for i := range fast {
		if fast[i].line != slow[i].line {
			t.Errorf("%s: object %d on line %d, slow path says %d", name, i, fast[i].line, slow[i].line)
		}
		f, s := map[string]string{}, map[string]string{}
		for k, v := range fast[i].fields {
			f[k] = string(bytes.TrimSpace(v))
		}
		for k, v := range slow[i].fields {
			s[k] = string(bytes.TrimSpace(v))
		}
		if d := cmp.Diff(s, f); d != "" {
			t.Errorf("%s: object %d (-slow +fast):\n%s", name, i, d)
		}
	}
}

// TestArrayObjectsFast: the fast path reads what encoding/json reads, and leaves to it
// every file it must refuse or decode itself (escaped keys, repeated keys, invalid JSON).
func TestArrayObjectsFast(t *testing.T) {
	tests := []struct {
		name   string
		in     string
		fastOK bool
	}{
		{"empty array", "[]", true},
		{"spaces and lines", "[\n {\"a\": \"x\", \"b\" : [1, {\"c\": \"]}\"}], \"n\": -1.5e3},\n\n {\"a\": null, \"t\": true}\n]\n", true},
		{"escapes in values", `[{"q": "say \"hi\" \\ \u00e9", "s": "a}b]c{"}]`, true},
		{"escaped key", `[{"d\u0062_id": "x"}]`, false},
		{"repeated key", `[{"db_id": "a", "db_id": "b"}]`, false},
		{"not an object", `[{"a": 1}, 2]`, false},
		{"not an array", `{"a": 1}`, false},
		{"invalid", `[{"a": 1},]`, false},
		{"trailing data", `[] []`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fast, ok := arrayObjectsFast([]byte(tt.in))
			if ok != tt.fastOK {
				t.Fatalf("fast path ok = %v, want %v", ok, tt.fastOK)
			}
			slow, err := arrayObjectsSlow("f.json", []byte(tt.in))
			if ok {
				if err != nil {
					t.Fatalf("fast path read a file the slow path refuses: %v", err)
				}
				objectsEqual(t, tt.name, fast, slow)
			}
		})
	}
	for _, name := range []string{"\"plain\"", `"a\"b"`, `"é"`, `3`} {
		want, err := object{fields: map[string]json.RawMessage{"k": json.RawMessage(name)}}.str("f", "k")
		s, ok := plainString([]byte(name))
		if ok && (err != nil || s != want) {
			t.Errorf("plainString(%s) = %q, json reads %q (%v)", name, s, want, err)
		}
	}
}

// TestArrayObjectsFastReal: Spider's and BIRD's dev files read the same both ways.
func TestArrayObjectsFastReal(t *testing.T) {
	for _, rel := range []string{"data/spider/dev.json", "data/bird/dev.json", "data/bird/mini_dev_sqlite.json"} {
		path, ok := testutil.SharedIfPresent(t, rel)
		if !ok {
			t.Logf("skipping %s: not in ../shared", rel)
			continue
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		fast, ok := arrayObjectsFast(data)
		if !ok {
			t.Fatalf("%s: fast path gave up", rel)
		}
		slow, err := arrayObjectsSlow(path, data)
		if err != nil {
			t.Fatal(err)
		}
		objectsEqual(t, rel, fast, slow)
	}
}

func BenchmarkArrayObjects(b *testing.B) {
	path := testutil.Shared(b, "data/spider/dev.json")
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("fast", func(b *testing.B) {
		for range b.N {
			if _, ok := arrayObjectsFast(data); !ok {
				b.Fatal("gave up")
			}
		}
	})
	b.Run("slow", func(b *testing.B) {
		for range b.N {
			if _, err := arrayObjectsSlow(path, data); err != nil {
				b.Fatal(err)
			}
		}
	})
}
