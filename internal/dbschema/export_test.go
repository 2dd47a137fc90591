package dbschema

// parseTablesJSON reads and checks the tables.json at path (uncached).
func parseTablesJSON(path string) (*tablesFile, error) {
	data, err := readTablesData(path)
	if err != nil {
		return nil, err
	}
	return parseTablesData(path, data)
}
