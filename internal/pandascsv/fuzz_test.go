package pandascsv

import "testing"

// FuzzReadCSV: any bytes either parse into a rectangular frame or fail with an error;
// never a panic.
func FuzzReadCSV(f *testing.F) {
	for _, s := range []string{"a,b\n1,2\n", "a\n\"x\"\"y\"\n", "a,b\n1,2,3\n", "\ufeffa\r\nTrue\r\n", "a\n9223372036854775808\nNA\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		fr, err := Parse(data)
		if err != nil {
			return
		}
		for _, c := range fr.Columns {
			if len(c.Values) != fr.Rows {
				t.Fatalf("column %q has %d cells for %d rows", c.Name, len(c.Values), fr.Rows)
			}
		}
		if _, err := fr.Transposed(nil); err != nil {
			t.Fatal(err)
		}
	})
}
