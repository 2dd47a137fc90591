package engine

/*
#include "duckdb_api.h"
*/
import "C"

import (
	"context"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"time"
	"unsafe"
)

// DuckDB values are read straight from the result's vectors (the data-chunk API; the
// per-value functions are deprecated) and mapped to the Result types the other engines
// produce, so the comparators never know DuckDB ran a query:
//
//	BOOLEAN                      int64 0/1 (as SQLite stores it, as PostgreSQL's engine maps it)
//	TINYINT..BIGINT, UTINYINT..  int64; a UBIGINT above 2^63-1 a float64
//	HUGEINT, UHUGEINT            int64 when it fits, else the nearest float64 (pandas' fetchdf
//	                             gives float64 for these columns too)
//	DECIMAL(w, 0)                int64 when it fits, else exact (DecimalText, as below)
//	DECIMAL(w, s>0)              exact, as PostgreSQL's NUMERIC and MySQL's DECIMAL are
//	                             (parseDecimal): a float64 when one equals it ("55.00" -> 55.0,
//	                             "2.50" -> 2.5), else its canonical DecimalText ("0.10")
//	FLOAT, DOUBLE                float64 (a FLOAT widened exactly, as Python's float(x))
//	VARCHAR, ENUM                string; BLOB []byte (never nil)
//	DATE                         "2024-01-05"                 (Python's str(date))
//	TIMESTAMP(_S/_MS/_NS)        "2024-01-05 10:00:00" and ".ffffff" when the microseconds are
//	                             not 0 (Python's str(datetime); nanoseconds truncated)
//	TIMESTAMP WITH TIME ZONE     the same in UTC, then "+00:00"
//	TIME                         "10:00:00[.ffffff]"
//	UUID                         its canonical text
//	NULL                         nil
//
// Any other type (LIST, STRUCT, MAP, INTERVAL, ...) is not read: the query fails with a
// FaultError naming the column and type (the task is left unjudged, never scored wrong);
// CAST such a column to VARCHAR.

// DuckDB type ids (duckdb_type).
const (
	duckBoolean     = 1
	duckTinyint     = 2
	duckSmallint    = 3
	duckInteger     = 4
	duckBigint      = 5
	duckUTinyint    = 6
	duckUSmallint   = 7
	duckUInteger    = 8
	duckUBigint     = 9
	duckFloat       = 10
	duckDouble      = 11
	duckTimestamp   = 12
	duckDate        = 13
	duckTime        = 14
	duckInterval    = 15
	duckHugeint     = 16
	duckVarchar     = 17
	duckBlob        = 18
	duckDecimal     = 19
	duckTimestampS  = 20
	duckTimestampMS = 21
	duckTimestampNS = 22
	duckEnum        = 23
	duckUUID        = 27
	duckTimestampTZ = 31
	duckUHugeint    = 32
	duckSQLNull     = 36
)

// duckTypeNames name the types this engine does not read, for the error message.
var duckTypeNames = map[int]string{
	duckInterval: "INTERVAL", 24: "LIST", 25: "STRUCT", 26: "MAP", 28: "UNION", 29: "BIT",
	30: "TIME WITH TIME ZONE", 33: "ARRAY", 35: "BIGNUM", 39: "TIME_NS",
}

// duckCol is what reading one result column needs from its logical type.
type duckCol struct {
	name  string
	typ   int
	inner int      // DECIMAL and ENUM: the physical type of the stored integers
	scale int      // DECIMAL
	dict  []string // ENUM
}

// duckColumns reads the result's column names and types.
func duckColumns(r *C.ddb_result) ([]duckCol, error) {
	n := int(C.ddb_column_count(r))
	cols := make([]duckCol, n)
	for i := range cols {
		c := &cols[i]
		c.name = C.GoString(C.ddb_column_name(r, C.ddb_idx(i)))
		lt := C.ddb_column_logical_type(r, C.ddb_idx(i))
		c.typ = int(C.ddb_get_type_id(lt))
		switch c.typ {
		case duckDecimal:
			c.inner, c.scale = int(C.ddb_decimal_internal_type(lt)), int(C.ddb_decimal_scale(lt))
		case duckEnum:
			c.inner = int(C.ddb_enum_internal_type(lt))
			size := int(C.ddb_enum_dictionary_size(lt))
			c.dict = make([]string, size)
			for k := range c.dict {
				s := C.ddb_enum_dictionary_value(lt, C.ddb_idx(k))
				c.dict[k] = C.GoString(s)
				C.ddb_free(unsafe.Pointer(s))
			}
		}
		C.ddb_destroy_logical_type(&lt)
		if name, bad := duckTypeNames[c.typ]; bad || c.typ <= 0 || c.typ > duckSQLNull {
			if !bad {
				name = "type id " + strconv.Itoa(c.typ)
			}
			// Not the database's fault, but no verdict either: the result cannot be compared.
			// The default hint (restart the server) would send the user the wrong way.
			return nil, &FaultError{Op: "read duckdb result", Err: fmt.Errorf("column %q has DuckDB type %s, which nl2sqlbench does not read; CAST it to VARCHAR", c.name, name),
				Hint: "the statement returns a DuckDB " + name + " column, which nl2sqlbench cannot compare: cast it to VARCHAR in the SQL, or leave the question out"}
		}
	}
	return cols, nil
}

// rowSink receives a result row by row: a ResultBuilder, or in a DuckDB worker the pipe
// to its parent (wireSink), so that the worker never holds the result.
type rowSink interface {
	AppendNull()
	AppendValue(v any)
	EndRow() error
	NumRows() int
	Bytes() int64
}

// duckStream streams the result chunk by chunk into the sink open returns for its
// columns, stopping at the row and byte caps (counted as a ResultBuilder counts them),
// and at ctx's end (the watcher has interrupted DuckDB by then).
func duckStream(ctx context.Context, r *C.ddb_result, open func(names []string) rowSink, maxRows int, maxBytes int64) error {
	cols, err := duckColumns(r)
	if err != nil {
		return err
	}
	names := make([]string, len(cols))
	for i, c := range cols {
		names[i] = c.name
	}
	b := open(names)
	data := make([]unsafe.Pointer, len(cols))
	valid := make([]*uint64, len(cols))
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		chunk := C.ddb_fetch_chunk(r)
		if chunk == nil {
			if err := ctx.Err(); err != nil {
				return err
			}
			if e := C.ddb_result_error(r); e != nil {
				return duckError(C.GoString(e))
			}
			return nil
		}
		n := int(C.ddb_data_chunk_get_size(chunk))
		for i := range cols {
			v := C.ddb_data_chunk_get_vector(chunk, C.ddb_idx(i))
			data[i] = C.ddb_vector_get_data(v)
			valid[i] = (*uint64)(unsafe.Pointer(C.ddb_vector_get_validity(v)))
		}
		err := func() error {
			defer C.ddb_destroy_data_chunk(&chunk)
			for k := range n {
				if maxRows > 0 && b.NumRows() >= maxRows {
					return fmt.Errorf("%w (%d rows)", ErrRowLimit, maxRows)
				}
				for i := range cols {
					if !duckValid(valid[i], k) {
						b.AppendNull()
					} else {
						b.AppendValue(cols[i].value(data[i], k))
					}
					if maxBytes > 0 && b.Bytes() > maxBytes {
						return byteLimitError(maxBytes)
					}
				}
				if err := b.EndRow(); err != nil {
					return err
				}
			}
			return nil
		}()
		if err != nil {
			return err
		}
	}
}

// duckValid reads row k's bit of a validity mask (nil: every row is valid).
func duckValid(mask *uint64, k int) bool {
	if mask == nil {
		return true
	}
	w := *(*uint64)(unsafe.Add(unsafe.Pointer(mask), (k/64)*8))
	return w>>(k%64)&1 == 1
}

// value reads row k of a vector of column c's type. A VARCHAR or BLOB is a view of the
// chunk's memory, not a copy: the sink copies it (a ResultBuilder into its arena) or
// writes it (a worker's pipe) before the chunk is destroyed. A copy here cost a second
// copy of every text, and in a worker under its memory cap a 300 MB value did not fit.
func (c *duckCol) value(p unsafe.Pointer, k int) any {
	switch c.typ {
	case duckBoolean:
		if *(*uint8)(unsafe.Add(p, k)) != 0 {
			return int64(1)
		}
		return int64(0)
	case duckTinyint, duckSmallint, duckInteger, duckBigint, duckUTinyint, duckUSmallint, duckUInteger, duckSQLNull:
		return duckInt(c.typ, p, k)
	case duckUBigint:
		u := *(*uint64)(unsafe.Add(p, k*8))
		if u > math.MaxInt64 {
			return float64(u)
		}
		return int64(u)
	case duckFloat:
		return float64(*(*float32)(unsafe.Add(p, k*4)))
	case duckDouble:
		return *(*float64)(unsafe.Add(p, k*8))
	case duckHugeint, duckUHugeint:
		lo, hi := duckHuge(p, k)
		return duckBigValue(duckBig(lo, hi, c.typ == duckHugeint))
	case duckDecimal:
		return c.decimal(p, k)
	case duckVarchar:
		b := duckBytes(p, k)
		if len(b) == 0 {
			return ""
		}
		return unsafe.String(&b[0], len(b))
	case duckBlob:
		return duckBytes(p, k) // non-nil even when empty: an empty BLOB is not NULL
	case duckEnum:
		i := duckInt(c.inner, p, k).(int64)
		if i < 0 || int(i) >= len(c.dict) {
			return strconv.FormatInt(i, 10)
		}
		return c.dict[i]
	case duckDate:
		return duckDateText(*(*int32)(unsafe.Add(p, k*4)))
	case duckTimestamp, duckTimestampTZ:
		s := duckTimestampText(*(*int64)(unsafe.Add(p, k*8)), 1)
		if c.typ == duckTimestampTZ && !strings.HasSuffix(s, "infinity") {
			s += "+00:00"
		}
		return s
	case duckTimestampS:
		return duckTimestampText(*(*int64)(unsafe.Add(p, k*8)), 1_000_000)
	case duckTimestampMS:
		return duckTimestampText(*(*int64)(unsafe.Add(p, k*8)), 1_000)
	case duckTimestampNS:
		return duckTimestampText(*(*int64)(unsafe.Add(p, k*8)), -1_000)
	case duckTime:
		us := *(*int64)(unsafe.Add(p, k*8))
		return duckClock(us/1e6/3600, us/1e6/60%60, us/1e6%60, us%1e6)
	case duckUUID:
		lo, hi := duckHuge(p, k)
		var b [16]byte
		binary.BigEndian.PutUint64(b[:8], uint64(hi)^(1<<63)) // DuckDB flips the top bit
		binary.BigEndian.PutUint64(b[8:], lo)
		h := hex.EncodeToString(b[:])
		return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
	}
	return nil // unreachable: duckColumns refuses other types
}

// duckInt reads row k of an integer vector of physical type typ as an int64.
func duckInt(typ int, p unsafe.Pointer, k int) any {
	switch typ {
	case duckTinyint:
		return int64(*(*int8)(unsafe.Add(p, k)))
	case duckSmallint:
		return int64(*(*int16)(unsafe.Add(p, k*2)))
	case duckInteger, duckSQLNull:
		return int64(*(*int32)(unsafe.Add(p, k*4)))
	case duckBigint:
		return *(*int64)(unsafe.Add(p, k*8))
	case duckUTinyint:
		return int64(*(*uint8)(unsafe.Add(p, k)))
	case duckUSmallint:
		return int64(*(*uint16)(unsafe.Add(p, k*2)))
	case duckUInteger:
		return int64(*(*uint32)(unsafe.Add(p, k*4)))
	}
	return int64(0)
}

// duckHuge reads row k of a 128-bit vector: the low and high 64 bits.
func duckHuge(p unsafe.Pointer, k int) (lo uint64, hi int64) {
	q := unsafe.Add(p, k*16)
	return *(*uint64)(q), *(*int64)(unsafe.Add(q, 8))
}

// duckBig is a 128-bit integer (signed: HUGEINT; else UHUGEINT) as a big.Int.
func duckBig(lo uint64, hi int64, signed bool) *big.Int {
	h := new(big.Int)
	if signed {
		h.SetInt64(hi)
	} else {
		h.SetUint64(uint64(hi))
	}
	return h.Lsh(h, 64).Or(h, new(big.Int).SetUint64(lo))
}

// duckBigValue is an int64 when b fits, else the nearest float64.
func duckBigValue(b *big.Int) any {
	if b.IsInt64() {
		return b.Int64()
	}
	f, _ := new(big.Float).SetInt(b).Float64()
	return f
}

// decimal reads row k of a DECIMAL vector (see the type table above).
func (c *duckCol) decimal(p unsafe.Pointer, k int) any {
	var b *big.Int
	if c.inner == duckHugeint {
		lo, hi := duckHuge(p, k)
		b = duckBig(lo, hi, true)
	} else {
		b = big.NewInt(duckInt(c.inner, p, k).(int64))
	}
	if c.scale == 0 {
		if v, err := parseDecimal(b.String()); err == nil {
			return v // int64 when it fits, else exact
		}
		return duckBigValue(b)
	}
	digits := new(big.Int).Abs(b).String()
	if len(digits) <= c.scale {
		digits = strings.Repeat("0", c.scale-len(digits)+1) + digits
	}
	text := digits[:len(digits)-c.scale] + "." + digits[len(digits)-c.scale:]
	if b.Sign() < 0 {
		text = "-" + text
	}
	v, err := parseDecimal(text) // exact, as PostgreSQL's NUMERIC and MySQL's DECIMAL (decimal.go)
	if err != nil {
		f, _ := strconv.ParseFloat(text, 64) // not reached: the text is digits and a point
		return f
	}
	return v
}

// duckBytes is row k of a VARCHAR or BLOB vector (duckdb_string_t: a 4-byte length, then
// up to 12 bytes inline, or a 4-byte prefix and a pointer), still in DuckDB's memory.
func duckBytes(p unsafe.Pointer, k int) []byte {
	q := unsafe.Add(p, k*16)
	n := int(*(*uint32)(q))
	if n == 0 {
		return []byte{}
	}
	if n <= 12 {
		return unsafe.Slice((*byte)(unsafe.Add(q, 4)), n)
	}
	return unsafe.Slice(*(**byte)(unsafe.Add(q, 8)), n)
}

// DuckDB's infinite dates and timestamps.
const (
	duckDateInf = math.MaxInt32
	duckTSInf   = math.MaxInt64
)

func duckDateText(days int32) string {
	switch days {
	case duckDateInf:
		return "infinity"
	case -duckDateInf:
		return "-infinity"
	}
	return time.Unix(int64(days)*86400, 0).UTC().Format("2006-01-02")
}

// duckTimestampText writes a timestamp counted in units of per microseconds (per < 0:
// 1/-per of a microsecond, for nanoseconds) as Python's str(datetime).
func duckTimestampText(v int64, per int64) string {
	switch v {
	case duckTSInf:
		return "infinity"
	case -duckTSInf:
		return "-infinity"
	}
	var us int64
	switch {
	case per < 0:
		us = floorDiv(v, -per)
	default:
		us = v * per
	}
	t := time.UnixMicro(us).UTC()
	s := t.Format("2006-01-02 15:04:05")
	if f := t.Nanosecond() / 1000; f != 0 {
		s += fmt.Sprintf(".%06d", f)
	}
	return s
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

// duckClock writes a time of day as Python's str(time).
func duckClock(h, m, s, us int64) string {
	out := fmt.Sprintf("%02d:%02d:%02d", h, m, s)
	if us != 0 {
		out += fmt.Sprintf(".%06d", us)
	}
	return out
}
