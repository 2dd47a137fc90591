package dataset

import (
	"fmt"
	"path/filepath"
	"strings"
)

// loadBIRD reads a BIRD question file: a JSON array of objects with question_id, db_id,
// question, evidence, SQL and difficulty. PATH is such a file (dev.json,
// mini_dev_sqlite.json, mini_dev_postgresql.json ...) or a directory holding dev.json.
// PATH may also be BIRD's gold .sql, with the question JSON for difficulty (bird_gold.go).
//
// Databases are looked for under the file's directory (see DBCandidates). The tables
// file, which BIRD does not need, defaults to <stem>_tables.json, else dev_tables.json,
// else tables.json beside the question file.
//
// A repeated question_id is a warning, not an error: BIRD's own mini-dev files list two
// questions twice, verbatim.
func loadBIRD(path string, opt Options) (*Dataset, error) {
	file, data, err := readQuestionFile(path, "dev.json")
	if err != nil {
		return nil, err
	}
	dir := filepath.Dir(file)
	stem := strings.TrimSuffix(filepath.Base(file), filepath.Ext(file))
	stem = strings.TrimSuffix(stem, "_gold") // a gold .sql shares its JSON's tables file
	tables, err := tablesFile(opt,
		filepath.Join(dir, stem+"_tables.json"), filepath.Join(dir, "dev_tables.json"), filepath.Join(dir, "tables.json"))
	if err != nil {
		return nil, err
	}
	d := &Dataset{Kind: KindBIRD, Path: file, DBRoot: dir, Tables: tables}
	if opt.DBRoot != "" {
		d.DBRoot = opt.DBRoot
	}
	if isGoldText(data) {
		if err := birdGold(d, data, opt); err != nil {
			return nil, err
		}
		return d, nil
	}
	objs, err := arrayObjects(file, data)
	if err != nil {
		return nil, err
	}
	seen := map[string]int{} // question_id -> line
	for i, o := range objs {
		q, err := birdQuestion(file, o, i)
		if err != nil {
			return nil, err
		}
		if prev, dup := seen[q.ID]; dup {
			d.warnAbout(q.DBID, fmt.Sprintf("%s:%d: question %d repeats question_id %s (first at line %d)", file, o.line, i, q.ID, prev))
		} else {
			seen[q.ID] = o.line
		}
		d.Questions = append(d.Questions, q)
	}
	return d, nil
}

func birdQuestion(file string, o object, i int) (Question, error) {
	q, err := commonFields(file, o, i)
	if err != nil {
		return q, err
	}
	gold, err := o.str(file, "SQL")
	if err != nil {
		return q, err
	}
	if strings.TrimSpace(gold) != "" {
		q.Gold = []string{gold}
	}
	return q, check(file, o.line, &q)
}
