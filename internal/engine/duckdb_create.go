package engine

/*
#include "duckdb_api.h"
*/
import "C"

import (
	"fmt"
	"os"
	"unsafe"
)

// CreateDuckDB creates (or extends) the DuckDB file at path, read-write, and runs stmts
// on it in order. It exists for test fixtures and for scripts/mkduckdb (the docs'
// example database): the engine itself only ever opens files read-only. lib is the
// library's path ("": $NL2SQLBENCH_LIBDUCKDB).
func CreateDuckDB(lib, path string, stmts ...string) (err error) {
	if lib == "" {
		lib = os.Getenv(LibDuckDBEnv)
	}
	if _, err := loadDuckDB(lib); err != nil {
		return err
	}
	cpath := C.CString(path)
	defer C.free(unsafe.Pointer(cpath))
	var db unsafe.Pointer
	var cerr *C.char
	if C.ddb_open_ext(cpath, &db, nil, &cerr) != 0 {
		msg := "unknown error"
		if cerr != nil {
			msg = C.GoString(cerr)
			C.ddb_free(unsafe.Pointer(cerr))
		}
		return fmt.Errorf("create duckdb database %s: %s", path, msg)
	}
	defer C.ddb_close(&db)
	var conn unsafe.Pointer
	if C.ddb_connect(db, &conn) != 0 {
		return fmt.Errorf("create duckdb database %s: duckdb_connect failed", path)
	}
	defer C.ddb_disconnect(&conn)
	for _, s := range stmts {
		if err := duckExec(conn, s); err != nil {
			return fmt.Errorf("create duckdb database %s: %q: %w", path, s, err)
		}
	}
	return nil
}

// duckExec runs one statement of any kind and discards its result.
func duckExec(conn unsafe.Pointer, stmt string) error {
	cq := C.CString(stmt)
	defer C.free(unsafe.Pointer(cq))
	var st unsafe.Pointer
	rc := C.ddb_prepare(conn, cq, &st)
	defer C.ddb_destroy_prepare(&st)
	if rc != 0 {
		return fmt.Errorf("%s", C.GoString(C.ddb_prepare_error(st)))
	}
	var r C.ddb_result
	rc = C.ddb_execute_prepared_streaming(st, &r)
	defer C.ddb_destroy_result(&r)
	if rc != 0 {
		return fmt.Errorf("%s", C.GoString(C.ddb_result_error(&r)))
	}
	for {
		chunk := C.ddb_fetch_chunk(&r)
		if chunk == nil {
			break
		}
		C.ddb_destroy_data_chunk(&chunk)
	}
	if e := C.ddb_result_error(&r); e != nil {
		return fmt.Errorf("%s", C.GoString(e))
	}
	return nil
}
