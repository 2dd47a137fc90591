package sqlscan

import "errors"

// MaxAnalysed is the longest query (in bytes) the structural analyses parse: sqlast.Parse
// (schema linking, ETM, slice features, the parse command) and spidersql's parse (ESM,
// partial match, hardness). Their trees cost a few hundred bytes of memory per byte of
// SQL, so a prediction near predict.MaxSQLBytes (16 MiB) took gigabytes; real gold and
// predicted queries are under 10 KB (Spider 2.0's longest gold is 7 KB). A longer query
// is still executed (execution accuracy is bounded by the engine's own caps); it only
// fails to parse, which every analysis already handles.
const MaxAnalysed = 256 << 10

// ErrTooLong: the query is over MaxAnalysed bytes, so it was not parsed. The parsers wrap
// it in their own ErrParse.
var ErrTooLong = errors.New("query over 256 KiB: not analysed")

// TooLong returns ErrTooLong when sql is longer than MaxAnalysed bytes, else nil.
func TooLong(sql string) error {
	if len(sql) > MaxAnalysed {
		return ErrTooLong
	}
	return nil
}
