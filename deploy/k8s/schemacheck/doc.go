// Package schemacheck holds only a test: see schema_test.go.
package schemacheck
