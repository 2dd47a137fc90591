package taskdb

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
)

// A Setup is how to build one database: its steps, run in order on an empty database.
type Setup struct {
	Name  string // the benchmark's database name (db_blog); part of the template's name
	Steps []Step
}

// A Step is SQL from one place of the setup files. Source names that place
// ("setup/db_blog/data/tbl_users.csv:12") for an error message.
type Step struct {
	Source string
	SQL    string // one statement or several separated by semicolons (Script)
	// Script: SQL may hold several statements and is sent as one simple query
	// (PostgreSQL) or executed statement by statement (SQLite). Otherwise it is one
	// statement, sent on its own so that an error names its Source exactly.
	Script bool
}

// Hash identifies the setup's content: equal hashes, equal databases. It names
// templates, so a later run with the same setup files reuses the template.
func (s Setup) Hash() string {
	h := sha256.New()
	put := func(b []byte) {
		var n [8]byte
		binary.LittleEndian.PutUint64(n[:], uint64(len(b)))
		h.Write(n[:])
		h.Write(b)
	}
	put([]byte("taskdb setup v1"))
	put([]byte(s.Name))
	for _, st := range s.Steps {
		kind := []byte{0}
		if st.Script {
			kind[0] = 1
		}
		put(kind)
		put([]byte(st.SQL))
	}
	return hex.EncodeToString(h.Sum(nil))
}
