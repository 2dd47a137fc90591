package livesql

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/nl2sqlbench/nl2sqlbench/internal/taskdb"
)

// ErrPython is what the official evaluator's Python raised where ours has no value: a
// value psycopg2 cannot parse, a Decimal that quantize refuses, a list json.dumps cannot
// encode. ex_base does not catch it, so the test case fails.
var ErrPython = errors.New("python error")

// FromPostgres turns a result's rows (PostgreSQL text form) into the values psycopg2
// makes of them with its default type casters. Types it has no caster for (uuid, inet,
// an enum, a composite, money, ...) stay strings, as in psycopg2.
func FromPostgres(res *taskdb.Result) ([][]Value, error) {
	rows := make([][]Value, len(res.Rows))
	for i, r := range res.Rows {
		row := make([]Value, len(r))
		for j, cell := range r {
			if cell == nil {
				continue // None
			}
			v, err := pgValue(res.Columns[j].Type, cell.(string))
			if err != nil {
				return nil, fmt.Errorf("row %d column %q: %w", i+1, res.Columns[j].Name, err)
			}
			row[j] = v
		}
		rows[i] = row
	}
	return rows, nil
}

// arrayElems are the array types psycopg2 casts element by element (its *ARRAY
// casters); other arrays come back as their text.
var arrayElems = map[string]string{
	"_int2": "int2", "_int4": "int4", "_int8": "int8", "_oid": "oid",
	"_float4": "float4", "_float8": "float8", "_numeric": "numeric",
	"_text": "text", "_varchar": "varchar", "_bpchar": "bpchar", "_name": "name", "_char": "char",
	"_bool": "bool", "_date": "date", "_timestamp": "timestamp", "_timestamptz": "timestamptz",
	"_time": "time", "_timetz": "timetz", "_interval": "interval", "_bytea": "bytea",
	"_json": "json", "_jsonb": "jsonb",
}

func pgValue(typ, s string) (Value, error) {
	switch typ {
	case "int2", "int4", "int8", "oid":
		n, ok := new(big.Int).SetString(s, 10)
		if !ok {
			return Value{}, fmt.Errorf("%w: int(%q)", ErrPython, s)
		}
		return Value{Kind: Int, Int: n}, nil
	case "float4", "float8":
		return pyFloat(s)
	case "numeric":
		d, err := parseDec(s)
		return Value{Kind: Decimal, Dec: d}, err
	case "bool":
		return Value{Kind: Bool, Bool: s == "t"}, nil
	case "bytea":
		b, err := hex.DecodeString(strings.TrimPrefix(s, `\x`))
		if err != nil {
			return Value{}, fmt.Errorf("%w: bytea %q", ErrPython, s)
		}
		return Value{Kind: Bytes, Text: string(b)}, nil
	case "date":
		return pgDate(Date, s)
	case "timestamp", "timestamptz":
		return pgDate(Datetime, s)
	case "time", "timetz":
		return Value{Kind: Time, Text: s}, nil
	case "interval":
		return pgInterval(s)
	case "json", "jsonb":
		return pyJSONLoads(s)
	}
	if elem, ok := arrayElems[typ]; ok {
		return pgArray(elem, s)
	}
	return Value{Kind: Str, Text: s}, nil
}

// pyFloat is Python's float() of PostgreSQL's text (which writes NaN and Infinity).
func pyFloat(s string) (Value, error) {
	switch s {
	case "NaN":
		return Value{Kind: Float, Float: math.NaN()}, nil
	case "Infinity":
		return Value{Kind: Float, Float: math.Inf(1)}, nil
	case "-Infinity":
		return Value{Kind: Float, Float: math.Inf(-1)}, nil
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return Value{}, fmt.Errorf("%w: float(%q)", ErrPython, s)
	}
	return Value{Kind: Float, Float: f}, nil
}

// parseDec is decimal.Decimal(s) of PostgreSQL's numeric text.
func parseDec(s string) (Dec, error) {
	switch s {
	case "NaN":
		return Dec{NaN: true}, nil
	case "Infinity":
		return Dec{Inf: 1}, nil
	case "-Infinity":
		return Dec{Inf: -1}, nil
	}
	neg := strings.HasPrefix(s, "-")
	t := strings.TrimPrefix(strings.TrimPrefix(s, "-"), "+")
	exp := 0
	if i := strings.IndexAny(t, "eE"); i >= 0 {
		e, err := strconv.Atoi(t[i+1:])
		if err != nil {
			return Dec{}, fmt.Errorf("%w: Decimal(%q)", ErrPython, s)
		}
		exp, t = e, t[:i]
	}
	if i := strings.IndexByte(t, '.'); i >= 0 {
		exp -= len(t) - i - 1
		t = t[:i] + t[i+1:]
	}
	c, ok := new(big.Int).SetString(t, 10)
	if !ok || t == "" {
		return Dec{}, fmt.Errorf("%w: Decimal(%q)", ErrPython, s)
	}
	if neg {
		c.Neg(c)
	}
	return Dec{Coef: c, Exp: exp, Negzero: neg && c.Sign() == 0}, nil
}

// pgDate keeps what strftime('%Y-%m-%d') will print: the date part of PostgreSQL's
// ISO text. psycopg2 turns 'infinity' into date.max / datetime.max and '-infinity' into
// date.min / datetime.min, whose strftime is 9999-12-31 and 1-01-01 (glibc pads no
// year). A BC date is a ValueError in psycopg2.
func pgDate(k Kind, s string) (Value, error) {
	switch s {
	case "infinity":
		return Value{Kind: k, Text: "9999-12-31"}, nil
	case "-infinity":
		return Value{Kind: k, Text: "1-01-01"}, nil
	}
	if strings.HasSuffix(s, " BC") || len(s) < 10 || s[4] != '-' || s[7] != '-' {
		return Value{}, fmt.Errorf("%w: psycopg2 cannot parse the date %q", ErrPython, s)
	}
	y, err := strconv.Atoi(s[:4])
	if err != nil {
		return Value{}, fmt.Errorf("%w: date %q", ErrPython, s)
	}
	return Value{Kind: k, Text: strconv.Itoa(y) + s[4:10]}, nil
}

// pgInterval is psycopg2's timedelta of an interval (IntervalStyle postgres): a year
// is 365 days and a month 30, as psycopg2 counts them.
func pgInterval(s string) (Value, error) {
	const day = int64(86400_000_000)
	total := new(big.Int)
	f := strings.Fields(s)
	bad := fmt.Errorf("%w: psycopg2 cannot parse the interval %q", ErrPython, s)
	for i := 0; i < len(f); i++ {
		if strings.Contains(f[i], ":") {
			t := f[i]
			neg := strings.HasPrefix(t, "-")
			t = strings.TrimLeft(t, "+-")
			hms := strings.Split(t, ":")
			if len(hms) != 3 {
				return Value{}, bad
			}
			h, e1 := strconv.ParseInt(hms[0], 10, 64)
			m, e2 := strconv.ParseInt(hms[1], 10, 64)
			sec, frac, _ := strings.Cut(hms[2], ".")
			sc, e3 := strconv.ParseInt(sec, 10, 64)
			if e1 != nil || e2 != nil || e3 != nil || len(frac) > 6 {
				return Value{}, bad
			}
			us, _ := strconv.ParseInt((frac + "000000")[:6], 10, 64)
			v := ((h*60+m)*60+sc)*1_000_000 + us
			if neg {
				v = -v
			}
			total.Add(total, big.NewInt(v))
			continue
		}
		if i+1 >= len(f) {
			return Value{}, bad
		}
		n, err := strconv.ParseInt(f[i], 10, 64)
		if err != nil {
			return Value{}, bad
		}
		unit := strings.TrimSuffix(f[i+1], "s")
		days := map[string]int64{"year": 365, "mon": 30, "day": 1}[unit]
		if days == 0 {
			return Value{}, bad
		}
		total.Add(total, new(big.Int).Mul(big.NewInt(n*days), big.NewInt(day)))
		i++
	}
	return Value{Kind: Interval, Micros: total}, nil
}

// pyJSONLoads is json.loads: objects become dicts (a repeated key keeps its first place
// and its last value), numbers with a fraction or an exponent floats, others ints.
func pyJSONLoads(s string) (Value, error) {
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	v, err := jsonValue(dec)
	if err != nil {
		return Value{}, fmt.Errorf("%w: json.loads: %v", ErrPython, err)
	}
	return v, nil
}

func jsonValue(dec *json.Decoder) (Value, error) {
	tok, err := dec.Token()
	if err != nil {
		return Value{}, err
	}
	switch t := tok.(type) {
	case nil:
		return Value{}, nil
	case bool:
		return Value{Kind: Bool, Bool: t}, nil
	case string:
		return Value{Kind: Str, Text: t}, nil
	case json.Number:
		if strings.ContainsAny(string(t), ".eE") {
			f, err := strconv.ParseFloat(string(t), 64)
			if err != nil && !errors.Is(err, strconv.ErrRange) { // 1e400 is inf in Python too
				return Value{}, err
			}
			return Value{Kind: Float, Float: f}, nil
		}
		n, _ := new(big.Int).SetString(string(t), 10)
		return Value{Kind: Int, Int: n}, nil
	case json.Delim:
		if t == '[' {
			l := Value{Kind: List, List: []Value{}}
			for dec.More() {
				e, err := jsonValue(dec)
				if err != nil {
					return Value{}, err
				}
				l.List = append(l.List, e)
			}
			_, err := dec.Token()
			return l, err
		}
		d := Value{Kind: Dict}
		at := map[string]int{}
		for dec.More() {
			kt, err := dec.Token()
			if err != nil {
				return Value{}, err
			}
			k := kt.(string)
			e, err := jsonValue(dec)
			if err != nil {
				return Value{}, err
			}
			if i, ok := at[k]; ok {
				d.Vals[i] = e
				continue
			}
			at[k] = len(d.Keys)
			d.Keys, d.Vals = append(d.Keys, k), append(d.Vals, e)
		}
		_, err := dec.Token()
		return d, err
	}
	return Value{}, fmt.Errorf("unexpected token %v", tok)
}

// pgArray parses an array's text ({1,2,NULL}, {"a b","c\"d"}, nested) into a list of
// elements cast as psycopg2 casts them.
func pgArray(elem, s string) (Value, error) {
	p := &arrayParser{s: s, elem: elem}
	v, err := p.array()
	if err == nil && p.i != len(s) {
		err = fmt.Errorf("trailing text")
	}
	if err != nil {
		return Value{}, fmt.Errorf("%w: psycopg2 cannot parse the array %q: %v", ErrPython, s, err)
	}
	return v, nil
}

type arrayParser struct {
	s    string
	i    int
	elem string
}

func (p *arrayParser) array() (Value, error) {
	if p.i >= len(p.s) || p.s[p.i] != '{' {
		return Value{}, fmt.Errorf("want {")
	}
	p.i++
	l := Value{Kind: List, List: []Value{}}
	if p.i < len(p.s) && p.s[p.i] == '}' {
		p.i++
		return l, nil
	}
	for {
		var e Value
		var err error
		switch {
		case p.i < len(p.s) && p.s[p.i] == '{':
			e, err = p.array()
		case p.i < len(p.s) && p.s[p.i] == '"':
			var b strings.Builder
			p.i++
			for p.i < len(p.s) && p.s[p.i] != '"' {
				if p.s[p.i] == '\\' && p.i+1 < len(p.s) {
					p.i++
				}
				b.WriteByte(p.s[p.i])
				p.i++
			}
			p.i++
			e, err = pgValue(p.elem, b.String())
		default:
			j := p.i
			for p.i < len(p.s) && p.s[p.i] != ',' && p.s[p.i] != '}' {
				p.i++
			}
			if raw := p.s[j:p.i]; raw != "NULL" {
				e, err = pgValue(p.elem, raw)
			}
		}
		if err != nil {
			return Value{}, err
		}
		l.List = append(l.List, e)
		if p.i >= len(p.s) {
			return Value{}, fmt.Errorf("unterminated")
		}
		if p.s[p.i] == '}' {
			p.i++
			return l, nil
		}
		if p.s[p.i] != ',' && p.s[p.i] != ';' {
			return Value{}, fmt.Errorf("want , or }")
		}
		p.i++
	}
}
