package record

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"reflect"
	"time"
	"unsafe"
)

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
