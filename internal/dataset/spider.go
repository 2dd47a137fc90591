package dataset

import (
	"bytes"
	"context"
	"path/filepath"
	"strconv"
	"strings"
)

// loadSpider reads Spider questions. PATH is a directory (its dev.json, else its
// dev_gold.sql) or a file: *.json in Spider's form (db_id, query, question) or a gold
// file with one "SQL<TAB>db_id" per line (dev_gold.sql, train_gold.sql; blank lines
// skipped, as Spider's evaluation skips them). IDs are the 0-based index as text.
//
// Databases default to <dir>/database, tables.json to <dir>/tables.json, where dir
// holds the question file. Spider files carry no difficulty: it is Spider's hardness,
// derived from the gold SQL (hardness.go).
func loadSpider(ctx context.Context, path string, opt Options) (*Dataset, error) {
	file, data, err := readQuestionFile(path, "dev.json", "dev_gold.sql")
	if err != nil {
		return nil, err
	}
	dir := filepath.Dir(file)
	tables, err := tablesFile(opt, filepath.Join(dir, "tables.json"))
	if err != nil {
		return nil, err
	}
	d := &Dataset{Kind: KindSpider, Path: file, DBRoot: filepath.Join(dir, "database"), Tables: tables}
	if opt.DBRoot != "" {
		d.DBRoot = opt.DBRoot
	}
	if strings.EqualFold(filepath.Ext(file), ".json") {
		err = spiderJSON(d, data)
	} else {
		err = spiderGold(d, data)
	}
	if err != nil {
		return nil, err
	}
	if opt.NoHardness {
		for i := range d.Questions {
			d.Questions[i].Difficulty = Unknown
		}
		return d, nil
	}
	cache := hardnessCachePath(d, data) // hardness_cache.go: pure per dataset and build
	if cachedHardness(d, cache) {
		return d, nil
	}
	warnFrom := len(d.Warnings)
	if err := addHardness(ctx, d); err != nil {
		return nil, err
	}
	storeHardness(d, cache, warnFrom)
	return d, nil
}

func spiderJSON(d *Dataset, data []byte) error {
	objs, err := arrayObjects(d.Path, data)
	if err != nil {
		return err
	}
	for i, o := range objs {
		q := Question{Index: i, ID: strconv.Itoa(i)}
		for _, f := range []struct {
			key string
			dst *string
		}{{"db_id", &q.DBID}, {"question", &q.Text}} {
			if *f.dst, err = o.str(d.Path, f.key); err != nil {
				return err
			}
		}
		gold, err := o.str(d.Path, "query")
		if err != nil {
			return err
		}
		if strings.TrimSpace(gold) != "" {
			q.Gold = []string{gold}
		}
		if err := check(d.Path, o.line, &q); err != nil {
			return err
		}
		d.Questions = append(d.Questions, q)
	}
	return nil
}

// spiderGold reads "SQL<TAB>db_id" lines. The db_id is after the last tab, so a tab
// inside the SQL does no harm.
func spiderGold(d *Dataset, data []byte) error {
	for n, raw := range bytes.Split(data, []byte{'\n'}) {
		line := strings.TrimSpace(string(raw))
		if line == "" {
			continue
		}
		i := len(d.Questions)
		q, err := goldLineQuestion(d.Path, n+1, i, line, `"SQL<TAB>db_id"`)
		if err != nil {
			return err
		}
		if err := check(d.Path, n+1, &q); err != nil {
			return err
		}
		d.Questions = append(d.Questions, q)
	}
	return nil
}
