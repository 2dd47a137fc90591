package record

// record_json_gen.go is Writer's encoder: Record's JSON without reflection, byte for
// byte what encoding/json writes (record_json_test.go). Regenerate it after changing
// any type a Record holds; TestGeneratedUpToDate fails until then. The gencodec tag
// swaps the generated files for encoding/json fallbacks, so this runs even when they
// no longer compile (after a field was removed or retyped).
//go:generate go test -tags gencodec -run ^TestGeneratedUpToDate$ . -update
