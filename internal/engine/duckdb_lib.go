package engine

// The DuckDB engine links against nothing: libduckdb.so (70 MB, fetched by .ci/duckdb.sh)
// is loaded at run time with dlopen, and the few functions of DuckDB's C API it uses are
// looked up with dlsym. The declarations below are ours, written from the C API's
// documented signatures (duckdb.h): opaque handles are pointers, enums are C ints,
// idx_t is uint64_t, duckdb_result is a six-word struct passed by pointer (and by value
// to duckdb_fetch_chunk). A build, and go test, on a machine without the library works;
// only a DuckDB query needs it.

/*
#cgo LDFLAGS: -ldl
#include <dlfcn.h>
#include "duckdb_api.h"

static struct {
	const char *(*library_version)(void);
	int (*create_config)(void **);
	int (*set_config)(void *, const char *, const char *);
	void (*destroy_config)(void **);
	int (*open_ext)(const char *, void **, void *, char **);
	void (*close)(void **);
	int (*connect)(void *, void **);
	void (*disconnect)(void **);
	void (*interrupt)(void *);
	void (*free)(void *);
	int (*prepare)(void *, const char *, void **);
	const char *(*prepare_error)(void *);
	int (*prepared_statement_type)(void *);
	void (*destroy_prepare)(void **);
	int (*execute_prepared_streaming)(void *, ddb_result *);
	const char *(*result_error)(ddb_result *);
	int (*result_error_type)(ddb_result *);
	void (*destroy_result)(ddb_result *);
	ddb_idx (*column_count)(ddb_result *);
	const char *(*column_name)(ddb_result *, ddb_idx);
	void *(*column_logical_type)(ddb_result *, ddb_idx);
	void *(*fetch_chunk)(ddb_result);
	void (*destroy_data_chunk)(void **);
	ddb_idx (*data_chunk_get_size)(void *);
	void *(*data_chunk_get_vector)(void *, ddb_idx);
	void *(*vector_get_data)(void *);
	uint64_t *(*vector_get_validity)(void *);
	int (*get_type_id)(void *);
	uint8_t (*decimal_width)(void *);
	uint8_t (*decimal_scale)(void *);
	int (*decimal_internal_type)(void *);
	int (*enum_internal_type)(void *);
	uint32_t (*enum_dictionary_size)(void *);
	char *(*enum_dictionary_value)(void *, ddb_idx);
	void (*destroy_logical_type)(void **);
} ddb;

static void *ddb_handle;

// ddb_load opens the library at path and resolves every function; it returns NULL, or
// the name of what failed (dlerror's text, or the missing symbol).
const char *ddb_load(const char *path) {
	ddb_handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!ddb_handle) return dlerror();
#define SYM(field, name) if (!(*(void **)(&ddb.field) = dlsym(ddb_handle, name))) return name;
	SYM(library_version, "duckdb_library_version")
	SYM(create_config, "duckdb_create_config")
	SYM(set_config, "duckdb_set_config")
	SYM(destroy_config, "duckdb_destroy_config")
	SYM(open_ext, "duckdb_open_ext")
	SYM(close, "duckdb_close")
	SYM(connect, "duckdb_connect")
	SYM(disconnect, "duckdb_disconnect")
	SYM(interrupt, "duckdb_interrupt")
	SYM(free, "duckdb_free")
	SYM(prepare, "duckdb_prepare")
	SYM(prepare_error, "duckdb_prepare_error")
	SYM(prepared_statement_type, "duckdb_prepared_statement_type")
	SYM(destroy_prepare, "duckdb_destroy_prepare")
	SYM(execute_prepared_streaming, "duckdb_execute_prepared_streaming")
	SYM(result_error, "duckdb_result_error")
	SYM(result_error_type, "duckdb_result_error_type")
	SYM(destroy_result, "duckdb_destroy_result")
	SYM(column_count, "duckdb_column_count")
	SYM(column_name, "duckdb_column_name")
	SYM(column_logical_type, "duckdb_column_logical_type")
	SYM(fetch_chunk, "duckdb_fetch_chunk")
	SYM(destroy_data_chunk, "duckdb_destroy_data_chunk")
	SYM(data_chunk_get_size, "duckdb_data_chunk_get_size")
	SYM(data_chunk_get_vector, "duckdb_data_chunk_get_vector")
	SYM(vector_get_data, "duckdb_vector_get_data")
	SYM(vector_get_validity, "duckdb_vector_get_validity")
	SYM(get_type_id, "duckdb_get_type_id")
	SYM(decimal_width, "duckdb_decimal_width")
	SYM(decimal_scale, "duckdb_decimal_scale")
	SYM(decimal_internal_type, "duckdb_decimal_internal_type")
	SYM(enum_internal_type, "duckdb_enum_internal_type")
	SYM(enum_dictionary_size, "duckdb_enum_dictionary_size")
	SYM(enum_dictionary_value, "duckdb_enum_dictionary_value")
	SYM(destroy_logical_type, "duckdb_destroy_logical_type")
#undef SYM
	return NULL;
}

const char *ddb_library_version(void) { return ddb.library_version(); }
int ddb_create_config(void **c) { return ddb.create_config(c); }
int ddb_set_config(void *c, const char *k, const char *v) { return ddb.set_config(c, k, v); }
void ddb_destroy_config(void **c) { ddb.destroy_config(c); }
int ddb_open_ext(const char *p, void **db, void *c, char **err) { return ddb.open_ext(p, db, c, err); }
void ddb_close(void **db) { ddb.close(db); }
int ddb_connect(void *db, void **conn) { return ddb.connect(db, conn); }
void ddb_disconnect(void **conn) { ddb.disconnect(conn); }
void ddb_interrupt(void *conn) { ddb.interrupt(conn); }
void ddb_free(void *p) { ddb.free(p); }
int ddb_prepare(void *conn, const char *q, void **st) { return ddb.prepare(conn, q, st); }
const char *ddb_prepare_error(void *st) { return ddb.prepare_error(st); }
int ddb_prepared_statement_type(void *st) { return ddb.prepared_statement_type(st); }
void ddb_destroy_prepare(void **st) { ddb.destroy_prepare(st); }
int ddb_execute_prepared_streaming(void *st, ddb_result *r) { return ddb.execute_prepared_streaming(st, r); }
const char *ddb_result_error(ddb_result *r) { return ddb.result_error(r); }
int ddb_result_error_type(ddb_result *r) { return ddb.result_error_type(r); }
void ddb_destroy_result(ddb_result *r) { ddb.destroy_result(r); }
ddb_idx ddb_column_count(ddb_result *r) { return ddb.column_count(r); }
const char *ddb_column_name(ddb_result *r, ddb_idx i) { return ddb.column_name(r, i); }
void *ddb_column_logical_type(ddb_result *r, ddb_idx i) { return ddb.column_logical_type(r, i); }
void *ddb_fetch_chunk(ddb_result *r) { return ddb.fetch_chunk(*r); }
void ddb_destroy_data_chunk(void **c) { ddb.destroy_data_chunk(c); }
ddb_idx ddb_data_chunk_get_size(void *c) { return ddb.data_chunk_get_size(c); }
void *ddb_data_chunk_get_vector(void *c, ddb_idx i) { return ddb.data_chunk_get_vector(c, i); }
void *ddb_vector_get_data(void *v) { return ddb.vector_get_data(v); }
uint64_t *ddb_vector_get_validity(void *v) { return ddb.vector_get_validity(v); }
int ddb_get_type_id(void *t) { return ddb.get_type_id(t); }
uint8_t ddb_decimal_width(void *t) { return ddb.decimal_width(t); }
uint8_t ddb_decimal_scale(void *t) { return ddb.decimal_scale(t); }
int ddb_decimal_internal_type(void *t) { return ddb.decimal_internal_type(t); }
int ddb_enum_internal_type(void *t) { return ddb.enum_internal_type(t); }
uint32_t ddb_enum_dictionary_size(void *t) { return ddb.enum_dictionary_size(t); }
char *ddb_enum_dictionary_value(void *t, ddb_idx i) { return ddb.enum_dictionary_value(t, i); }
void ddb_destroy_logical_type(void **t) { ddb.destroy_logical_type(t); }
*/
import "C"

import (
	"errors"
	"fmt"
	"os"
	"sync"
	"unsafe"
)

// LibDuckDBEnv is the environment variable naming libduckdb.so when --duckdb-lib does not.
const LibDuckDBEnv = "NL2SQLBENCH_LIBDUCKDB"

// ErrNoLibDuckDB: the DuckDB engine was asked for and no library was named.
var ErrNoLibDuckDB = errors.New("no DuckDB library: give --duckdb-lib PATH or set " + LibDuckDBEnv + " to a libduckdb.so (bash .ci/duckdb.sh fetches one and prints its path)")

// duckLib is the process's one loaded DuckDB library: dlopen'd once, never unloaded
// (databases opened from it may outlive any one engine).
var duckLib struct {
	mu      sync.Mutex
	path    string
	err     error
	version string
}

// loadDuckDB loads the library at path (once per process); a second, different path is
// refused, as two DuckDB libraries in one process would share symbols.
func loadDuckDB(path string) (version string, err error) {
	if path == "" {
		return "", ErrNoLibDuckDB
	}
	duckLib.mu.Lock()
	defer duckLib.mu.Unlock()
	if duckLib.path != "" {
		if duckLib.path != path {
			return "", fmt.Errorf("load DuckDB library %s: %s is already loaded in this process", path, duckLib.path)
		}
		return duckLib.version, duckLib.err
	}
	if _, err := os.Stat(path); err != nil {
		return "", fmt.Errorf("load DuckDB library: %w (give --duckdb-lib or %s)", err, LibDuckDBEnv)
	}
	cpath := C.CString(path)
	defer C.free(unsafe.Pointer(cpath))
	duckLib.path = path
	if msg := C.ddb_load(cpath); msg != nil {
		duckLib.err = fmt.Errorf("load DuckDB library %s: %s", path, C.GoString(msg))
		return "", duckLib.err
	}
	duckLib.version = C.GoString(C.ddb_library_version())
	return duckLib.version, nil
}

// DuckDBLibrary loads the library at lib ("": $NL2SQLBENCH_LIBDUCKDB) and returns its path
// and DuckDB version, for a run's manifest.
func DuckDBLibrary(lib string) (path, version string, err error) {
	if lib == "" {
		lib = os.Getenv(LibDuckDBEnv)
	}
	v, err := loadDuckDB(lib)
	return lib, v, err
}
