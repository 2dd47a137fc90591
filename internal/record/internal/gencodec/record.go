package gencodec

import (
	"reflect"

	"github.com/nl2sqlbench/nl2sqlbench/internal/record"
)

// RecordFile is the generated encoder of record.Record, in internal/record.
const RecordFile = "record_json_gen.go"

// RecordConfig is the generation of RecordFile, shared by the genrecord command and
// internal/record's TestGeneratedUpToDate.
func RecordConfig() Config {
	return Config{
		Type:    reflect.TypeFor[record.Record](),
		Command: "go generate ./internal/record",
		Tag:     "gencodec",
	}
}
