// Declarations of the DuckDB C API functions the DuckDB engine calls, written for
// nl2sqlbench from the C API's documented signatures (not DuckDB's duckdb.h). They are
// defined in duckdb_lib.go, which resolves them from libduckdb.so with dlsym.
#ifndef NL2SQLBENCH_DUCKDB_API_H
#define NL2SQLBENCH_DUCKDB_API_H
#include <stdint.h>
#include <stdlib.h>

typedef uint64_t ddb_idx;

// duckdb_result: its fields are deprecated and never read here, but its size and
// layout must be right, as the library fills it and duckdb_fetch_chunk takes it by value.
typedef struct {
	ddb_idx deprecated_column_count;
	ddb_idx deprecated_row_count;
	ddb_idx deprecated_rows_changed;
	void *deprecated_columns;
	char *deprecated_error_message;
	void *internal_data;
} ddb_result;

const char *ddb_library_version(void);
int ddb_create_config(void **c);
int ddb_set_config(void *c, const char *k, const char *v);
void ddb_destroy_config(void **c);
int ddb_open_ext(const char *p, void **db, void *c, char **err);
void ddb_close(void **db);
int ddb_connect(void *db, void **conn);
void ddb_disconnect(void **conn);
void ddb_interrupt(void *conn);
void ddb_free(void *p);
int ddb_prepare(void *conn, const char *q, void **st);
const char *ddb_prepare_error(void *st);
int ddb_prepared_statement_type(void *st);
void ddb_destroy_prepare(void **st);
int ddb_execute_prepared_streaming(void *st, ddb_result *r);
const char *ddb_result_error(ddb_result *r);
int ddb_result_error_type(ddb_result *r);
void ddb_destroy_result(ddb_result *r);
ddb_idx ddb_column_count(ddb_result *r);
const char *ddb_column_name(ddb_result *r, ddb_idx i);
void *ddb_column_logical_type(ddb_result *r, ddb_idx i);
void *ddb_fetch_chunk(ddb_result *r);
void ddb_destroy_data_chunk(void **c);
ddb_idx ddb_data_chunk_get_size(void *c);
void *ddb_data_chunk_get_vector(void *c, ddb_idx i);
void *ddb_vector_get_data(void *v);
uint64_t *ddb_vector_get_validity(void *v);
int ddb_get_type_id(void *t);
uint8_t ddb_decimal_width(void *t);
uint8_t ddb_decimal_scale(void *t);
int ddb_decimal_internal_type(void *t);
int ddb_enum_internal_type(void *t);
uint32_t ddb_enum_dictionary_size(void *t);
char *ddb_enum_dictionary_value(void *t, ddb_idx i);
void ddb_destroy_logical_type(void **t);
const char *ddb_load(const char *path);

#endif
