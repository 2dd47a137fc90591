package record

// record_json_gen.go is Writer's encoder: Record's JSON without reflection, byte for
// byte what encoding/json writes (record_json_test.go). Regenerate it after changing
// any type a Record holds; TestGeneratedUpToDate fails until then.
//go:generate go run -tags gencodec ./internal/gencodec/genrecord
