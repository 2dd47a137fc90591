package engine

import "testing"

// TestPostgresExpandDSN: search_path names each schema that holds {db} quoted (PostgreSQL
// folds an unquoted one to lower case), suffixes and other schemas kept; {db} elsewhere
// is put in as it was.
func TestPostgresExpandDSN(t *testing.T) {
	for _, tc := range []struct{ tmpl, db, want string }{
		{"postgres://u@h/d?search_path={db}", "cre_Doc_Template_Mgt", "postgres://u@h/d?search_path=%22cre_Doc_Template_Mgt%22"},
		{"postgres://u@h/d?search_path={db}_cli&sslmode=disable", "superhero", "postgres://u@h/d?search_path=%22superhero_cli%22&sslmode=disable"},
		{"postgres://u@h/d?search_path={db}%2Cpublic", "a,b", "postgres://u@h/d?search_path=%22a%2Cb%22%2Cpublic"},
		{"postgres://u@h/{db}?sslmode=disable", "x y", "postgres://u@h/x+y?sslmode=disable"},
		{"host=h dbname=d search_path={db} sslmode=disable", "Mixed", `host=h dbname=d search_path="Mixed" sslmode=disable`},
		{"host=h dbname={db}", "d", "host=h dbname=d"},
	} {
		if got := (pgDialect{}).expandDSN(tc.tmpl, tc.db); got != tc.want {
			t.Errorf("expandDSN(%q, %q) = %q, want %q", tc.tmpl, tc.db, got, tc.want)
		}
	}
}
