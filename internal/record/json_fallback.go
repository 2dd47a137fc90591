//go:build gencodec

package record

// appendJSONRecord is encoding/json's encoding, used only while the generator itself
// runs (built with the gencodec tag), so the package compiles even when
// record_json_gen.go is out of date.
func (e *jsonState) appendJSONRecord(b []byte, v *Record) []byte {
	return e.appendValue(b, v)
}
