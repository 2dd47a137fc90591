// Command genrecord writes internal/record/record_json_gen.go, the generated encoder of
// record.Record (package gencodec). Run it through go generate in internal/record:
//
//	go generate ./internal/record
//
// It builds with the gencodec tag, which swaps the generated file for an
// encoding/json fallback, so it runs even when the generated file no longer compiles
// (after a field was removed or retyped).
package main

import (
	"fmt"
	"os"

	"github.com/nl2sqlbench/nl2sqlbench/internal/record/internal/gencodec"
)

func main() {
	src, err := gencodec.Generate(gencodec.RecordConfig())
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if err := os.WriteFile(gencodec.RecordFile, src, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
