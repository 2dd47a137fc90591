package counterex

import (
	"testing"

	"github.com/nl2sqlbench/nl2sqlbench/internal/dbschema"
)

// TestAddForeignKeysFromTablesJSON: a foreign key tables.json declares and the SQLite
// file lacks is added (names as the file spells them); one already declared is not
// repeated; one naming a column the file lacks is dropped.
func TestAddForeignKeysFromTablesJSON(t *testing.T) {
	file := &dbschema.Schema{Tables: []*dbschema.Table{
		{Name: "Singer", Columns: []*dbschema.Column{{Name: "Singer_ID"}}},
		{Name: "Concert", Columns: []*dbschema.Column{{Name: "Concert_ID"}, {Name: "Singer_ID"}, {Name: "Stadium_ID"}},
			ForeignKeys: []dbschema.ForeignKey{{Columns: []string{"Stadium_ID"}, RefTable: "stadium", RefColumns: []string{"Stadium_ID"}}}},
		{Name: "stadium", Columns: []*dbschema.Column{{Name: "Stadium_ID"}}},
	}}
	tables := &dbschema.Schema{Tables: []*dbschema.Table{
		{Name: "concert", ForeignKeys: []dbschema.ForeignKey{
			{Columns: []string{"singer_id"}, RefTable: "singer", RefColumns: []string{"singer_id"}},
			{Columns: []string{"stadium_id"}, RefTable: "Stadium", RefColumns: []string{"stadium_id"}},
			{Columns: []string{"band_id"}, RefTable: "singer", RefColumns: []string{"singer_id"}},
		}},
	}}
	addForeignKeys(file, tables)
	fks := file.Table("concert").ForeignKeys
	if len(fks) != 2 {
		t.Fatalf("got %d foreign keys, want 2: %+v", len(fks), fks)
	}
	if got := fks[1]; got.Columns[0] != "Singer_ID" || got.RefTable != "Singer" || got.RefColumns[0] != "Singer_ID" {
		t.Errorf("added foreign key %+v; want Concert.Singer_ID -> Singer.Singer_ID", got)
	}
}
