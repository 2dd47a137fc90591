//go:build gencodec

package record

// appendJSONGenFixture is encoding/json's encoding while the generator runs (see
// json_fallback.go).
func (e *jsonState) appendJSONGenFixture(b []byte, v *GenFixture) []byte {
	return e.appendValue(b, v)
}
