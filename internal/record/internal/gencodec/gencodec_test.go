package gencodec

import (
	"reflect"
	"strings"
	"testing"
)

type withString struct {
	N int `json:"n,string"`
}

type dupA struct{ X int }

type withDup struct {
	dupA
	Y int `json:"X"` // hides dupA.X in encoding/json (depth), not handled here
}

type Inner struct{ A int }

type withEmbeddedPtr struct {
	*Inner
}

type Node struct {
	Next *Node `json:"next"`
}

type ok struct {
	A string `json:"a"`
	B *Node2 `json:"b,omitempty"`
}

type Node2 struct{ C []string }

// TestGenerateRefuses: what the generator cannot reproduce exactly fails generation,
// naming the field, instead of encoding differently from encoding/json.
func TestGenerateRefuses(t *testing.T) {
	for _, tt := range []struct {
		typ  reflect.Type
		want string
	}{
		{reflect.TypeFor[withString](), ",string option"},
		{reflect.TypeFor[withDup](), `two fields named "X"`},
		{reflect.TypeFor[withEmbeddedPtr](), "embedded struct pointer"},
		{reflect.TypeFor[Node](), "recursive"},
		{reflect.TypeFor[int](), "not a named struct"},
	} {
		_, err := Generate(Config{Type: tt.typ, Command: "x", Tag: "t"})
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%v: got %v, want an error about %s", tt.typ, err, tt.want)
		}
	}
	src, err := Generate(Config{Type: reflect.TypeFor[ok](), Command: "x", Tag: "t"})
	if err != nil || !strings.Contains(string(src), "func (e *jsonState) appendJSONNode2(") {
		t.Errorf("a plain struct: %v\n%s", err, src)
	}
}
