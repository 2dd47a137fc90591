package record

// SchemaLinking holds the gold schema, the predicted schema and schema-selection precision / recall / F1.
// Fields are added here, never renamed.
//
// Schemas map a table name to its column names (lower-cased, sorted). A P/R/F1 field is
// omitted when it is undefined for the question: the gold set is empty (e.g. the gold
// columns of SELECT COUNT(*) FROM t), or no predicted schema is known.
type SchemaLinking struct {
	// GoldSchema is what the question's gold SQL uses (sqlast.ExtractSchema). It and
	// PredSchema are omitted only when nil: an empty schema (SQL that names no table) is
	// written as {}, so the summary of records read back (resume, merge) counts it as
	// the run that judged them did. Read-only: the records of one question share one
	// GoldSchema map (internal/linking); replace it, never write into it.
	GoldSchema map[string][]string `json:"gold_schema,omitzero"`
	// GoldSchemaError says why the gold schema could not be extracted (parse failure,
	// unknown database schema); the gold schema is then absent.
	GoldSchemaError string `json:"gold_schema_error,omitempty"`
	// GoldSchemaUnresolved lists gold column references that resolved to no table, or to
	// several; they are left out of GoldSchema.
	GoldSchemaUnresolved []string `json:"gold_schema_unresolved,omitempty"`
	// PredSchema is the schema the system selected.
	PredSchema map[string][]string `json:"pred_schema,omitzero"`
	// PredSchemaSource says where PredSchema comes from: "reported" (the system's
	// schema-selection output) or "pred_sql" (extracted from the judged SQL because the
	// system reported no selection).
	PredSchemaSource string `json:"pred_schema_source,omitempty"`

	SchemaTableP   *float64 `json:"schema_table_p,omitempty"`
	SchemaTableR   *float64 `json:"schema_table_r,omitempty"`
	SchemaTableF1  *float64 `json:"schema_table_f1,omitempty"`
	SchemaColumnP  *float64 `json:"schema_column_p,omitempty"`
	SchemaColumnR  *float64 `json:"schema_column_r,omitempty"`
	SchemaColumnF1 *float64 `json:"schema_column_f1,omitempty"`
}
