package predict

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
)

// JSON for the module-record field types (modulerecord.go). A value of the wrong shape is
// a *json.UnmarshalTypeError: encoding/json then names the field it was in, and
// fieldError says what the field wants.

// null is JSON's null, for comparing (never returned: callers may keep what they get).
var null = []byte("null")

// UnmarshalJSON reads a string (trimmed) or a number (without decimals when integral).
func (id *QuestionID) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	switch {
	case bytes.Equal(b, null):
		return nil
	case len(b) > 0 && b[0] == '"':
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*id = QuestionID(strings.TrimSpace(s))
		return nil
	}
	s, err := formatNumberID(string(b))
	if err != nil {
		return typeError[QuestionID](b)
	}
	*id = QuestionID(s)
	return nil
}

// formatNumberID renders a numeric question id as text without decimals: "12",
// "12.0" and "1.2e1" all give "12". Non-integral numbers keep their JSON text.
func formatNumberID(num string) (string, error) {
	if _, err := strconv.ParseInt(num, 10, 64); err == nil {
		return num, nil
	}
	f, err := strconv.ParseFloat(num, 64)
	if err != nil {
		return "", fmt.Errorf("want a string or a number, got %s", num)
	}
	if f == math.Trunc(f) && math.Abs(f) < 1<<53 {
		return strconv.FormatInt(int64(f), 10), nil
	}
	return num, nil
}

// MarshalJSON writes a string for one query, an array for a list; HTML characters are
// left to the encoder (an encoder with SetEscapeHTML(false) writes them as they are).
func (v SQLValue) MarshalJSON() ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	var err error
	switch {
	case v.List:
		qs := v.Queries
		if qs == nil {
			qs = []string{}
		}
		err = enc.Encode(qs)
	case len(v.Queries) == 1:
		err = enc.Encode(v.Queries[0])
	case len(v.Queries) == 0:
		return []byte("null"), nil
	default:
		return nil, fmt.Errorf("SQL value holds %d queries but is not a list", len(v.Queries))
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), err
}

// UnmarshalJSON reads a string or an array of strings; null is absent.
func (v *SQLValue) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	switch {
	case bytes.Equal(b, null):
		*v = SQLValue{}
		return nil
	case len(b) > 0 && b[0] == '[':
		var qs []string
		if err := json.Unmarshal(b, &qs); err != nil {
			return typeError[SQLValue](b)
		}
		*v = SQLList(qs)
		return nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return typeError[SQLValue](b)
	}
	*v = OneSQL(s)
	return nil
}

// MarshalJSON writes the count as a number (unknown counts are left out by omitzero).
func (c Count) MarshalJSON() ([]byte, error) {
	if !c.Known {
		return []byte("null"), nil
	}
	return strconv.AppendInt(nil, int64(c.N), 10), nil
}

// UnmarshalJSON reads a non-negative integer, integral floats included; null is unknown.
func (c *Count) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if bytes.Equal(b, null) {
		*c = Count{}
		return nil
	}
	f, err := strconv.ParseFloat(string(b), 64)
	if err != nil || f != math.Trunc(f) || f < 0 || f > 1<<53 {
		return typeError[Count](b)
	}
	*c = CountOf(int(f))
	return nil
}

// typeError reports JSON value b where a T was wanted.
func typeError[T any](b []byte) error {
	return &json.UnmarshalTypeError{Value: describe(b), Type: reflect.TypeFor[T]()}
}

// describe names a JSON value for a message: itself when it is short enough to quote,
// else its kind as encoding/json names it ("object", "array", "string").
func describe(b []byte) string {
	switch {
	case len(b) == 0:
		return "nothing"
	case len(b) <= 40:
		return string(b)
	case b[0] == '{':
		return "object"
	case b[0] == '[':
		return "array"
	}
	return "string"
}

// wants says what a field of each type holds, for messages.
var wants = map[reflect.Type]string{
	reflect.TypeFor[Count]():               "an integer from 0 to 2^53 (9007199254740992)",
	reflect.TypeFor[SQLValue]():            "a string or an array of strings",
	reflect.TypeFor[QuestionID]():          "a string or a number",
	reflect.TypeFor[string]():              "a string",
	reflect.TypeFor[map[string][]string](): "an object of {table: [columns]}",
}

// fieldError turns a decoding error into a message that names the field as the file spells
// it and says what the field wants, e.g. `total_tokens: want a non-negative integer, got 1.5`.
func fieldError(err error) string {
	var te *json.UnmarshalTypeError
	if !errors.As(err, &te) || te.Field == "" {
		return err.Error()
	}
	// Field is a path through embedded structs ("ModuleOutput.total_tokens"); a value
	// inside a field (a map's) is reported at the field.
	field := te.Field[strings.LastIndexByte(te.Field, '.')+1:]
	want, ok := wants[recordFieldType(field)]
	if !ok {
		want = te.Type.String()
	}
	return fmt.Sprintf("%s: want %s, got %s", field, want, got(te.Value))
}

// recordFieldType is the Go type of the ModuleRecord field spelt name in JSON (nil if none).
func recordFieldType(name string) reflect.Type {
	for _, t := range []reflect.Type{reflect.TypeFor[ModuleOutput](), reflect.TypeFor[ModuleDetails]()} {
		for i := range t.NumField() {
			f := t.Field(i)
			if tag, _, _ := strings.Cut(f.Tag.Get("json"), ","); tag == name {
				return f.Type
			}
		}
	}
	return nil
}

// got words encoding/json's description of a value for a message: "number" becomes
// "a number", "number 1.5" becomes "1.5"; values themselves stay as they are.
func got(value string) string {
	switch value {
	case "object", "array":
		return "an " + value
	case "string", "number", "bool":
		return "a " + value
	}
	return strings.TrimPrefix(value, "number ")
}
