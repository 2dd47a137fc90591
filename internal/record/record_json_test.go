package record

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// encodingJSON is what Writer wrote before the generated encoder, and must still write:
// encoding/json's Encoder with HTML escaping off.
func encodingJSON(r *Record) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	err := enc.Encode(r)
	return buf.Bytes(), err
}

// sameAsEncodingJSON fails unless the generated encoder gives encoding/json's bytes, or
// fails as it fails.
func sameAsEncodingJSON(tb testing.TB, st *jsonState, r *Record) {
	tb.Helper()
	want, wantErr := encodingJSON(r)
	got, err := st.appendLine(nil, r)
	switch {
	case (err == nil) != (wantErr == nil):
		tb.Fatalf("error %v, encoding/json's %v; record %+v", err, wantErr, r)
	case err != nil:
		if err.Error() != wantErr.Error() || len(got) != 0 {
			tb.Fatalf("error %q with %d bytes written, encoding/json's %q", err, len(got), wantErr)
		}
	case !bytes.Equal(got, want):
		tb.Fatalf("generated encoder differs from encoding/json %s", firstDiff(got, want))
	}
}

// firstDiff shows where got and want part, with some context.
func firstDiff(got, want []byte) string {
	i := 0
	for i < len(got) && i < len(want) && got[i] == want[i] {
		i++
	}
	from := max(i-60, 0)
	return fmt.Sprintf("at byte %d\n got: ...%s\nwant: ...%s", i, got[from:min(i+60, len(got))], want[from:min(i+60, len(want))])
}

// TestEncodeMatchesEncodingJSON: records with every field set at random (zero values,
// nil and empty slices and maps, strings encoding/json escapes, floats at its format
// edges and the ones it refuses, interface cells of many types) encode as
// encoding/json encodes them, and fail where it fails.
func TestEncodeMatchesEncodingJSON(t *testing.T) {
	var st jsonState
	rnd := rand.New(rand.NewPCG(1, 2))
	errs := 0
	for i := range 5000 {
		f := &filler{rnd: rnd, noNaN: i%4 != 0}
		r := f.record()
		if _, err := encodingJSON(r); err != nil {
			errs++
		}
		sameAsEncodingJSON(t, &st, r)
	}
	if errs == 0 || errs > 2500 {
		t.Errorf("%d of 5000 records fail to encode: the NaN cases are not exercised as meant", errs)
	}
	// The zero record and the fixed edge cases.
	sameAsEncodingJSON(t, &st, &Record{})
	for _, s := range trickyStrings {
		sameAsEncodingJSON(t, &st, &Record{PredSQL: s, SchemaLinking: SchemaLinking{GoldSchema: map[string][]string{s: {s}}}})
	}
	for _, x := range interestingFloats {
		sameAsEncodingJSON(t, &st, &Record{ExecMillis: x})
		sameAsEncodingJSON(t, &st, &Record{Efficiency: Efficiency{VES: &x}})
	}
}

// TestEncodeFixtureMatchesEncodingJSON: the generator's other shapes (GenFixture:
// pointer-receiver and text marshalers, json.Number, []byte, arrays, map keys that are
// not strings, struct values in maps, omitzero with IsZero, ...) encode as
// encoding/json encodes them, or fail as it fails.
func TestEncodeFixtureMatchesEncodingJSON(t *testing.T) {
	var st jsonState
	rnd := rand.New(rand.NewPCG(7, 8))
	errs := 0
	for i := range 5000 {
		var v GenFixture
		(&filler{rnd: rnd, noNaN: i%4 != 0}).fill(reflect.ValueOf(&v).Elem())
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		wantErr := enc.Encode(&v)
		st.err = nil
		got := st.appendJSONGenFixture(nil, &v)
		switch {
		case (st.err == nil) != (wantErr == nil):
			t.Fatalf("error %v, encoding/json's %v; value %+v", st.err, wantErr, v)
		case wantErr != nil:
			errs++
			if st.err.Error() != wantErr.Error() {
				t.Fatalf("error %q, encoding/json's %q", st.err, wantErr)
			}
		case !bytes.Equal(append(got, '\n'), buf.Bytes()):
			t.Fatalf("generated encoder differs from encoding/json %s", firstDiff(append(got, '\n'), buf.Bytes()))
		}
	}
	if errs == 0 || errs > 4900 {
		t.Errorf("%d of 5000 values fail to encode: the fixture does not exercise what it should", errs)
	}
}

// TestRecordFillerIsComplete: the filler reaches every JSON field of Record, so the
// test above covers a field added later (or fails here, naming it).
func TestRecordFillerIsComplete(t *testing.T) {
	rnd := rand.New(rand.NewPCG(3, 4))
	seen := map[string]bool{}
	for range 300 {
		b, err := encodingJSON((&filler{rnd: rnd, noNaN: true}).record())
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]json.RawMessage
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		for k := range m {
			seen[k] = true
		}
	}
	for _, name := range jsonNames(reflect.TypeFor[Record]()) {
		if !seen[name] {
			t.Errorf("field %q never written by the random records", name)
		}
	}
}

// jsonNames lists a struct's JSON member names, embedded structs flattened.
func jsonNames(t reflect.Type) []string {
	var names []string
	for i := 0; i < t.NumField(); i++ {
		sf := t.Field(i)
		name, _, _ := strings.Cut(sf.Tag.Get("json"), ",")
		switch {
		case name == "-":
		case name == "" && sf.Anonymous && sf.Type.Kind() == reflect.Struct:
			names = append(names, jsonNames(sf.Type)...)
		case name == "":
			names = append(names, sf.Name)
		default:
			names = append(names, name)
		}
	}
	return names
}

// FuzzEncodeRecord: any record the input describes encodes as encoding/json encodes it.
func FuzzEncodeRecord(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte("\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f"))
	f.Add(bytes.Repeat([]byte{0xff, 0x01, 0x02}, 200))
	f.Add(bytes.Repeat([]byte{2, 5, 3, 7, 11}, 300))
	var st jsonState
	f.Fuzz(func(t *testing.T, in []byte) {
		sameAsEncodingJSON(t, &st, (&filler{byteSrc: in}).record())
	})
}

// TestWriterLines: one Write call per record, so a record is never split over two
// writes, and a record encoding/json refuses writes nothing.
func TestWriterLines(t *testing.T) {
	var cw countingWriter
	w := NewWriter(&cw)
	recs := []Record{{Index: 0, PredSQL: strings.Repeat("x", 10000)}, {Index: 1}}
	for i := range recs {
		if err := w.Write(&recs[i]); err != nil {
			t.Fatal(err)
		}
	}
	nan := math.NaN()
	err := w.Write(&Record{Index: 2, Efficiency: Efficiency{VES: &nan}})
	var uv *json.UnsupportedValueError
	if !errors.As(err, &uv) || !strings.Contains(err.Error(), "write record 2") {
		t.Errorf("NaN: got %v, want encoding/json's UnsupportedValueError naming record 2", err)
	}
	if cw.writes != 2 || bytes.Count(cw.buf.Bytes(), []byte("\n")) != 2 {
		t.Errorf("%d writes, %d lines; want 2 of each", cw.writes, bytes.Count(cw.buf.Bytes(), []byte("\n")))
	}
	var buf bytes.Buffer
	for i := range recs {
		b, _ := encodingJSON(&recs[i])
		buf.Write(b)
	}
	if !bytes.Equal(cw.buf.Bytes(), buf.Bytes()) {
		t.Error("written lines differ from encoding/json's")
	}
	// A write error sticks, as bufio's did.
	fw := NewWriter(failWriter{})
	if err := fw.Write(&recs[1]); err == nil || fw.Write(&recs[1]) != err {
		t.Errorf("write error not returned and kept: %v", err)
	}
}

type countingWriter struct {
	buf    bytes.Buffer
	writes int
}

func (c *countingWriter) Write(p []byte) (int, error) {
	c.writes++
	return c.buf.Write(p)
}

type failWriter struct{}

var errDiskFull = errors.New("disk full")

func (failWriter) Write([]byte) (int, error) { return 0, errDiskFull }

// BenchmarkWriteRecords: the generated encoder against encoding/json on random
// records (internal/benchrun's BenchmarkEncodeRecords uses a real run's records).
func BenchmarkWriteRecords(b *testing.B) {
	rnd := rand.New(rand.NewPCG(5, 6))
	recs := make([]Record, 200)
	for i := range recs {
		recs[i] = *(&filler{rnd: rnd, noNaN: true}).record()
	}
	b.Run("encoding-json", func(b *testing.B) {
		bw := &discardWriter{}
		enc := json.NewEncoder(bw)
		enc.SetEscapeHTML(false)
		for i := 0; b.Loop(); i++ {
			if err := enc.Encode(&recs[i%len(recs)]); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("generated", func(b *testing.B) {
		w := NewWriter(&discardWriter{})
		for i := 0; b.Loop(); i++ {
			if err := w.Write(&recs[i%len(recs)]); err != nil {
				b.Fatal(err)
			}
		}
	})
}

type discardWriter struct{}

func (*discardWriter) Write(p []byte) (int, error) { return len(p), nil }
