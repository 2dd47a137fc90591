package dataset

// A warning about the questions on one database only is recorded with that database, so
// a run narrowed to other databases (eval --db-id) does not show it: NarrowWarnings.

// warnAbout adds a warning that concerns the questions on database db only.
func (d *Dataset) warnAbout(db, msg string) {
	if d.warningDB == nil {
		d.warningDB = map[int]string{}
	}
	d.warningDB[len(d.Warnings)] = db
	d.Warnings = append(d.Warnings, msg)
}

// NarrowWarnings drops the warnings about databases outside keep; warnings about the
// whole dataset stay.
func (d *Dataset) NarrowWarnings(keep map[string]bool) {
	var ws []string
	dbs := map[int]string{}
	for i, w := range d.Warnings {
		db, scoped := d.warningDB[i]
		if scoped && !keep[db] {
			continue
		}
		if scoped {
			dbs[len(ws)] = db
		}
		ws = append(ws, w)
	}
	d.Warnings, d.warningDB = ws, dbs
}
