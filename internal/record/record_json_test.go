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
	"time"
	"unsafe"
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

// trickyStrings are the strings encoding/json treats specially.
var trickyStrings = []string{
	"", "a", `quote " and backslash \`, "<b>&amp;</b>", "tab\tnl\nret\r bs\b ff\f",
	"\x00\x01\x1f\x7f", "\u2028\u2029", "é ü 中文 🙂", "bad \xff\xfe utf8 \xc3", "\xed\xa0\x80",
	"SELECT * FROM t WHERE a = 'x' -- \u00e9", " ", "null",
}

// interestingFloats are the floats at encoding/json's formatting edges, and the values
// it refuses.
var interestingFloats = []float64{
	0, math.Copysign(0, -1), 1, -1, 0.5, 1.0 / 3, 1e-6, 9.99999e-7, 1e-7, 1e20, 1e21, 123456789e13,
	math.MaxFloat64, math.SmallestNonzeroFloat64, -1e-300, 0.1 + 0.2, 100, 0.534,
	math.NaN(), math.Inf(1), math.Inf(-1),
}

// filler sets every field of a value at random, through reflection, so a field added
// to Record is exercised without this test knowing it. byteSrc, when set, drives the
// choices (the fuzz target); else rnd does.
type filler struct {
	rnd     *rand.Rand
	byteSrc []byte
	noNaN   bool // leave out NaN and the infinities
	depth   int
}

func (f *filler) n(k int) int {
	if f.byteSrc != nil {
		if len(f.byteSrc) == 0 {
			return 0
		}
		c := f.byteSrc[0]
		f.byteSrc = f.byteSrc[1:]
		return int(c) % k
	}
	return f.rnd.IntN(k)
}

func (f *filler) str() string {
	if f.n(3) > 0 {
		return trickyStrings[f.n(len(trickyStrings))]
	}
	b := make([]byte, f.n(12))
	for i := range b {
		b[i] = byte(f.n(256))
	}
	return string(b)
}

func (f *filler) float() float64 {
	if f.n(2) == 0 {
		x := interestingFloats[f.n(len(interestingFloats))]
		if f.noNaN && (math.IsNaN(x) || math.IsInf(x, 0)) {
			return 2
		}
		return x
	}
	return math.Ldexp(float64(f.n(1<<16)-1<<15), f.n(160)-80)
}

// anyValue is a result-table cell: the scalars a database gives, and some values only
// encoding/json handles.
func (f *filler) anyValue() any {
	switch f.n(12) {
	case 0:
		return nil
	case 1, 2:
		return f.str()
	case 3:
		return int64(f.n(1<<16) - 1<<15)
	case 4:
		return f.n(100)
	case 5:
		if f.noNaN {
			return 1.5
		}
		return f.float()
	case 6:
		return f.n(2) == 0
	case 7:
		return []byte(f.str())
	case 8:
		return json.Number("12.5")
	case 9:
		return time.Date(2024, 2, 29, 12, 30, 0, 0, time.UTC)
	case 10:
		return map[string]any{f.str(): f.str(), "<k>": 1}
	default:
		return json.RawMessage(`{"a": [1, 2]}`)
	}
}

func (f *filler) fill(v reflect.Value) {
	f.depth++
	defer func() { f.depth-- }()
	t := v.Type()
	switch t {
	case reflect.TypeFor[PartialScore]():
		v.Set(reflect.ValueOf(PartialScore{f.n(2), f.n(5), f.n(5) - 1}))
		return
	case reflect.TypeFor[time.Time]():
		v.Set(reflect.ValueOf([]time.Time{{}, time.Date(2024, 2, 29, 12, 30, 0, 5, time.FixedZone("x", 3600))}[f.n(2)]))
		return
	case reflect.TypeFor[json.Number]():
		v.SetString([]string{"", "12", "-0.5e3", "1.", "x"}[f.n(5)])
		return
	case reflect.TypeFor[json.RawMessage]():
		v.SetBytes([][]byte{nil, {}, []byte(`{"a" : [1, 2 ], "<":"&"}`), []byte("bad")}[f.n(4)])
		return
	}
	switch t.Kind() {
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			fv := v.Field(i)
			if sf := t.Field(i); sf.Anonymous && !sf.IsExported() {
				// An unexported embedded struct: its exported fields are JSON's.
				fv = reflect.NewAt(sf.Type, unsafe.Pointer(fv.UnsafeAddr())).Elem()
			}
			if fv.CanSet() {
				f.fill(fv)
			}
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint([]uint64{0, 1, math.MaxUint64 >> (64 - t.Bits())}[f.n(3)])
	case reflect.Array:
		for i := 0; i < v.Len(); i++ {
			f.fill(v.Index(i))
		}
	case reflect.String:
		v.SetString(f.str())
	case reflect.Bool:
		v.SetBool(f.n(2) == 0)
	case reflect.Int, reflect.Int64, reflect.Int32, reflect.Int16, reflect.Int8:
		switch f.n(4) {
		case 0:
			v.SetInt(0)
		case 1:
			v.SetInt(int64(f.n(3)))
		case 2:
			v.SetInt(-int64(f.n(1 << 20)))
		default:
			v.SetInt(math.MaxInt64 >> (64 - t.Bits()))
		}
	case reflect.Float64, reflect.Float32:
		v.SetFloat(f.float())
	case reflect.Pointer:
		if f.n(3) == 0 {
			v.SetZero()
			return
		}
		p := reflect.New(t.Elem())
		f.fill(p.Elem())
		v.Set(p)
	case reflect.Slice:
		switch f.n(4) {
		case 0:
			v.SetZero() // nil
		case 1:
			v.Set(reflect.MakeSlice(t, 0, 0)) // empty, not nil
		default:
			n := 1 + f.n(3)
			s := reflect.MakeSlice(t, n, n)
			for i := 0; i < s.Len(); i++ {
				f.fill(s.Index(i))
			}
			v.Set(s)
		}
	case reflect.Map:
		switch f.n(4) {
		case 0:
			v.SetZero()
		case 1:
			v.Set(reflect.MakeMap(t))
		default:
			m := reflect.MakeMap(t)
			for range 1 + f.n(5) {
				k := reflect.New(t.Key()).Elem()
				f.fill(k)
				e := reflect.New(t.Elem()).Elem()
				f.fill(e)
				m.SetMapIndex(k, e)
			}
			v.Set(m)
		}
	case reflect.Interface:
		if x := f.anyValue(); x != nil {
			v.Set(reflect.ValueOf(x))
		} else {
			v.SetZero()
		}
	default:
		panic("filler: no case for " + t.String() + ": add one, so the new field is tested")
	}
}

func (f *filler) record() *Record {
	var r Record
	f.fill(reflect.ValueOf(&r).Elem())
	return &r
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
// records (internal/run's BenchmarkEncodeRecords uses a real run's records).
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
