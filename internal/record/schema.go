package record

// SchemaLinking holds the gold schema, the predicted schema and schema-selection precision / recall / F1.
// Fields are added here, never renamed.
type SchemaLinking struct{}
