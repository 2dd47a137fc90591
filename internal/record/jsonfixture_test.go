package record

import (
	"encoding/json"
	"errors"
	"strconv"
	"time"
)

// GenFixture has a field of every shape the generator (internal/gencodec) translates
// or hands to encoding/json, Record's and others, so the equality test covers the
// generator beyond what Record uses today. Its encoder is jsonfixture_gen_test.go.
type GenFixture struct {
	S           string                   `json:"s"`
	B           bool                     `json:"b,omitempty"`
	I8          int8                     // untagged: the Go name
	U           uint                     `json:"u,omitempty"`
	U8          uint8                    `json:"u8"`
	F32         float32                  `json:"f32,omitempty"`
	F64Z        float64                  `json:"f64z,omitzero"` // -0 is not zero
	Arr         [3]int16                 `json:"arr"`
	Arr0        [0]int                   `json:"arr0,omitempty"`
	Bytes       []byte                   `json:"bytes,omitempty"`
	Num         json.Number              `json:"num,omitempty"`
	Time        time.Time                `json:"time"`
	TimeZ       time.Time                `json:"timez,omitzero"`
	Raw         json.RawMessage          `json:"raw,omitempty"`
	PtrM        FixPtrMarshal            `json:"ptrm"`
	PtrMs       []FixPtrMarshal          `json:"ptrms"`
	PtrMMap     map[string]FixPtrMarshal `json:"ptrm_map"` // not addressable: no MarshalJSON
	Text        FixText                  `json:"text"`
	TextMap     map[FixText]int          `json:"text_map"`
	IntMap      map[int]string           `json:"int_map,omitempty"`
	KeyMap      map[FixKey]float64       `json:"key_map"`
	StructMap   map[string]FixInner      `json:"struct_map"`
	Inner       FixInner                 `json:"inner"`
	InnerP      *FixInner                `json:",omitempty"`
	InnerPP     **FixInner               `json:"inner_pp"`
	Any         any                      `json:"any"`
	AnyMap      map[string]any           `json:"any_map,omitempty"`
	ArrMap      map[string][2]bool       `json:"arr_map"`
	fixEmbedded                          // unexported, exported fields flattened
	FixNamed    `json:"named"`           // embedded with a name: not flattened
	Skip        string                   `json:"-"`
	Dash        string                   `json:"-,"`
	BadTag      string                   `json:"a\"b"`
	Zeroer      FixZeroer                `json:"zeroer,omitzero"`
	PZeroer     *FixZeroer               `json:"pzeroer,omitzero"`
	Both        []int                    `json:"both,omitempty,omitzero"`
	Unicode     string                   `json:"ünï"`
	unexported  int
}

// FixInner is a nested struct (its own generated function).
type FixInner struct {
	Name string            `json:"name,omitempty"`
	Vals []float64         `json:"vals"`
	Deep map[string][]*int `json:"deep"`
}

type fixEmbedded struct {
	Flat  string `json:"flat"`
	Flat2 *int   `json:"flat2,omitempty"`
}

// FixNamed is embedded under a JSON name.
type FixNamed struct {
	X int `json:"x"`
}

// FixKey is a map key type of the package.
type FixKey string

// FixPtrMarshal has a pointer-receiver MarshalJSON: encoding/json calls it only on
// addressable values. A negative N fails; its output needs compacting.
type FixPtrMarshal struct{ N int }

var errFixture = errors.New("negative")

func (p *FixPtrMarshal) MarshalJSON() ([]byte, error) {
	if p.N < 0 {
		return nil, errFixture
	}
	return []byte(`{ "n" : ` + strconv.Itoa(p.N) + ` }`), nil
}

// FixText has a value-receiver MarshalText (a string in JSON, and as a map key).
type FixText int

func (t FixText) MarshalText() ([]byte, error) { return []byte("t<" + strconv.Itoa(int(t)) + ">"), nil }

// FixZeroer has its own IsZero, unlike reflect's.
type FixZeroer struct{ A int }

func (z FixZeroer) IsZero() bool { return z.A <= 0 }
