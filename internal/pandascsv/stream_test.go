package pandascsv

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"
	"unicode/utf8"
)

// The streaming tokenizer must split exactly as the former whole-text one did (kept
// below as the oracle, tokenizeWhole), wherever the reader's blocks happen to end.

// chunkReader returns at most a random 1..7 bytes per Read.
type chunkReader struct {
	r   io.Reader
	rnd *rand.Rand
}

func (c *chunkReader) Read(p []byte) (int, error) {
	n := 1 + c.rnd.IntN(7)
	if len(p) > n {
		p = p[:n]
	}
	return c.r.Read(p)
}

func TestStreamingTokenizerMatchesWhole(t *testing.T) {
	if testing.Short() {
		t.Skip("every CSV is slow for -short; go test ./... runs it")
	}
	texts := []string{"", "a", "a,b\n1,2\n", "a,b\r\n1,2\r\n", "a\r1\r2", "a,\n", "a,b,", "\ufeffa,b\n1,2",
		"  \n\t\na\n  x\n", "a\n\"x\"\"y\"z\n", "a\n\"open", "a\n\"multi\nline\",2\n", "a\n\"x\"\n",
		"a,b\n\"\",\"\"\n", "\xef\xbb", "a\n\xff\n", "a\n\xc3\xa9\n", "a\n\xc3\"\xa9\n", "a\n\xe2\x82\xac,\xf0\x9f\x98\x80\n",
		"a\n\xe2\x82\n", " \"q\",1\n", "a,b\n1,2\n\n\n3,4", "x,\"a\"\"\"\r\n\"\"\"\"\n"}
	data, err := os.ReadFile("testdata/pandas_reference.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []refCase
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		texts = append(texts, c.CSV)
	}
	rnd := rand.New(rand.NewPCG(1, 2))
	alphabet := []string{"a", "1", ",", "\"", "\n", "\r", " ", "\t", "\xc3\xa9", "\xff", "\ufeff", "NA"}
	for range 3000 {
		var b strings.Builder
		for range rnd.IntN(30) {
			b.WriteString(alphabet[rnd.IntN(len(alphabet))])
		}
		texts = append(texts, b.String())
	}
	for _, text := range texts {
		want, wantErr := tokenizeWhole([]byte(text))
		if !utf8.ValidString(text) {
			want, wantErr = nil, ErrEncoding // the former Parse checked UTF-8 first
		}
		for name, r := range map[string]io.Reader{
			"whole":    bytes.NewReader([]byte(text)),
			"one byte": iotest.OneByteReader(strings.NewReader(text)),
			"chunks":   &chunkReader{strings.NewReader(text), rnd},
		} {
			got, err := tokenize(r, Limits{})
			if fmt.Sprint(err) != fmt.Sprint(wantErr) || (err == nil && !reflect.DeepEqual(got, want)) {
				t.Fatalf("%s reader, text %q:\n got %+v, %v\nwant %+v, %v", name, text, got, err, want, wantErr)
			}
		}
	}
}

// rowSource yields a CSV lazily: a header, then the same row n times (n < 0: forever),
// counting what was read.
type rowSource struct {
	header, row string
	n           int
	read        int64
	buf         []byte
}

func (s *rowSource) Read(p []byte) (int, error) {
	for len(s.buf) == 0 {
		switch {
		case s.header != "":
			s.buf, s.header = []byte(s.header), ""
		case s.n == 0:
			return 0, io.EOF
		default:
			s.buf = []byte(s.row)
			if s.n > 0 {
				s.n--
			}
		}
	}
	k := copy(p, s.buf)
	s.buf = s.buf[k:]
	s.read += int64(k)
	return k, nil
}

// TestReadStopsAtLimits: a table over a cap fails with that cap's error as soon as it
// passes it, having read about the cap and no more: 20 million rows, one endless line,
// a line of 10 million fields and an endless quoted field are generated as they are read
// and never exist whole.
func TestReadStopsAtLimits(t *testing.T) {
	tests := []struct {
		name    string
		src     *rowSource
		lim     Limits
		want    error
		maxRead int64
	}{
		{"20M rows, row cap", &rowSource{header: "a,b\n", row: "12345,some text\n", n: 20_000_000}, Limits{MaxRows: 1000}, ErrRowLimit, 1 << 20},
		{"20M rows, byte cap", &rowSource{header: "a,b\n", row: "12345,some text\n", n: 20_000_000}, Limits{MaxBytes: 1 << 20}, ErrByteLimit, 2 << 20},
		{"one endless line", &rowSource{header: "a\n", row: "xxxxxxxxxxxxxxxx", n: -1}, Limits{MaxBytes: 1 << 20}, ErrByteLimit, 2 << 20},
		{"endless header", &rowSource{row: "xxxxxxxxxxxxxxxx", n: -1}, Limits{MaxBytes: 1 << 20}, ErrByteLimit, 2 << 20},
		{"endless quoted field", &rowSource{header: "a\n\"", row: "x\"\"\n", n: -1}, Limits{MaxBytes: 1 << 20}, ErrByteLimit, 2 << 20},
		{"endless blank lines and spaces", &rowSource{header: "a\n", row: "      ", n: -1}, Limits{MaxBytes: 1 << 20}, ErrByteLimit, 2 << 20},
		{"10M columns", &rowSource{header: "a", row: ",", n: 10_000_000}, Limits{MaxBytes: 1 << 30}, ErrColumnLimit, 1 << 20},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := read(tc.src, tc.lim)
			if !errors.Is(err, tc.want) {
				t.Fatalf("err %v, want %v", err, tc.want)
			}
			if tc.src.read > tc.maxRead {
				t.Errorf("read %d bytes before stopping, want at most %d", tc.src.read, tc.maxRead)
			}
		})
	}
	// At the caps exactly, the table is read (a line costs 2 bytes and 2 fields).
	f, err := read(&rowSource{header: "a,b\n", row: "1,x\n", n: 1000}, Limits{MaxRows: 1000, MaxBytes: 1001 * (2 + 2*CellOverhead)})
	if err != nil || f.Rows != 1000 {
		t.Fatalf("a table at the caps: %v rows, %v", f, err)
	}
	if _, err := read(&rowSource{header: "a,b\n", row: "1,x\n", n: 1000}, Limits{MaxRows: 1000, MaxBytes: 1001*(2+2*CellOverhead) - 1}); !errors.Is(err, ErrByteLimit) {
		t.Fatalf("one byte over the byte cap: %v", err)
	}
}

func tokenizeWhole(raw []byte) ([]record, error) {
	// One string for the whole file: unquoted fields are substrings of it (no copy).
	data := strings.TrimPrefix(string(raw), "\ufeff")
	var (
		recs   []record
		fields []string
		field  []byte
		line   = 1
		start  = 1
	)
	i, n := 0, len(data)
	for i < n {
		// At a record's start: skip blank and whitespace-only lines.
		if len(fields) == 0 {
			j := i
			for j < n && (data[j] == ' ' || data[j] == '\t') {
				j++
			}
			if j == n {
				break
			}
			if data[j] == '\n' || data[j] == '\r' {
				i = skipEOLWhole(data, j)
				line++
				continue
			}
			start = line
		}
		// One field. An unquoted field is a substring of data.
		if data[i] != '"' {
			j := i
			for j < n && data[j] != ',' && data[j] != '\n' && data[j] != '\r' {
				j++
			}
			fields = append(fields, data[i:j])
			i = j
		} else {
			field = field[:0]
			i++
			closed := false
			for i < n {
				c := data[i]
				if c == '"' {
					if i+1 < n && data[i+1] == '"' {
						field = append(field, '"')
						i += 2
						continue
					}
					i++
					closed = true
					break
				}
				if c == '\n' {
					line++
				}
				field = append(field, c)
				i++
			}
			if !closed {
				return nil, fmt.Errorf("%w: EOF inside string starting at line %d", ErrTokenize, start)
			}
			for i < n && data[i] != ',' && data[i] != '\n' && data[i] != '\r' {
				field = append(field, data[i])
				i++
			}
			fields = append(fields, string(field))
		}
		if i < n && data[i] == ',' {
			i++
			if i == n { // a trailing delimiter at EOF ends a record with one more, empty field
				fields = append(fields, "")
			}
			continue
		}
		recs = append(recs, record{fields: fields, line: start})
		fields = make([]string, 0, len(fields))
		if i < n {
			i = skipEOLWhole(data, i)
			line++
		}
	}
	if len(fields) > 0 {
		recs = append(recs, record{fields: fields, line: start})
	}
	return recs, nil
}

// skipEOL steps over the line end at data[i] (LF, CR or CRLF).
func skipEOLWhole(data string, i int) int {
	if data[i] == '\r' && i+1 < len(data) && data[i+1] == '\n' {
		return i + 2
	}
	return i + 1
}
