package dataset

// validJSON reports whether data is one valid JSON value (RFC 8259, as json.Valid
// decides; data is already valid UTF-8, readText's check), in one pass over the bytes:
// encoding/json's state machine was nine tenths of reading Spider's dev.json on the
// fast path. A file nested deeper than maxJSONDepth is left to encoding/json.
func validJSON(data []byte) bool {
	i := skipWS(data, 0)
	var stack []byte // '{' or '[' per open container
	for {
		// A value starts at i.
		if i >= len(data) {
			return false
		}
		switch c := data[i]; {
		case c == '{' || c == '[':
			if len(stack) >= maxJSONDepth {
				return false
			}
			stack = append(stack, c)
			i = skipWS(data, i+1)
			if i < len(data) && data[i] == c+2 { // '}' is '{'+2, ']' is '['+2
				stack = stack[:len(stack)-1]
				i++
				break
			}
			if c == '{' {
				if i = objectKey(data, i); i < 0 {
					return false
				}
			}
			continue
		case c == '"':
			if i = validString(data, i); i < 0 {
				return false
			}
		case c == 't':
			if i = literal(data, i, "true"); i < 0 {
				return false
			}
		case c == 'f':
			if i = literal(data, i, "false"); i < 0 {
				return false
			}
		case c == 'n':
			if i = literal(data, i, "null"); i < 0 {
				return false
			}
		default:
			if i = validNumber(data, i); i < 0 {
				return false
			}
		}
		// After a value: close containers, or a comma and the next value (or key).
		for {
			i = skipWS(data, i)
			if len(stack) == 0 {
				return i == len(data)
			}
			if i >= len(data) {
				return false
			}
			top := stack[len(stack)-1]
			if data[i] == top+2 {
				stack = stack[:len(stack)-1]
				i++
				continue
			}
			if data[i] != ',' {
				return false
			}
			i = skipWS(data, i+1)
			if top == '{' {
				if i = objectKey(data, i); i < 0 {
					return false
				}
			}
			break
		}
	}
}

// maxJSONDepth bounds the container stack; deeper files go to encoding/json.
const maxJSONDepth = 10000

// objectKey reads `"key" :` at i and returns where the value starts, or -1.
func objectKey(data []byte, i int) int {
	if i >= len(data) || data[i] != '"' {
		return -1
	}
	if i = validString(data, i); i < 0 {
		return -1
	}
	i = skipWS(data, i)
	if i >= len(data) || data[i] != ':' {
		return -1
	}
	return skipWS(data, i+1)
}

// validString checks the string at data[i] ('"') and returns the offset after it, or -1.
func validString(data []byte, i int) int {
	for j := i + 1; j < len(data); j++ {
		switch c := data[j]; {
		case c == '"':
			return j + 1
		case c < 0x20:
			return -1
		case c == '\\':
			j++
			if j >= len(data) {
				return -1
			}
			switch data[j] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if j+4 >= len(data) {
					return -1
				}
				for _, h := range data[j+1 : j+5] {
					if !('0' <= h && h <= '9' || 'a' <= h && h <= 'f' || 'A' <= h && h <= 'F') {
						return -1
					}
				}
				j += 4
			default:
				return -1
			}
		}
	}
	return -1
}

func literal(data []byte, i int, word string) int {
	if len(data)-i < len(word) || string(data[i:i+len(word)]) != word {
		return -1
	}
	return i + len(word)
}

// validNumber checks -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? at i.
func validNumber(data []byte, i int) int {
	digits := func(j int) int { // at least one digit at j; returns the offset after them, or -1
		k := j
		for k < len(data) && '0' <= data[k] && data[k] <= '9' {
			k++
		}
		if k == j {
			return -1
		}
		return k
	}
	if i < len(data) && data[i] == '-' {
		i++
	}
	switch {
	case i < len(data) && data[i] == '0':
		i++
	default:
		if i = digits(i); i < 0 {
			return -1
		}
	}
	if i < len(data) && data[i] == '.' {
		if i = digits(i + 1); i < 0 {
			return -1
		}
	}
	if i < len(data) && (data[i] == 'e' || data[i] == 'E') {
		i++
		if i < len(data) && (data[i] == '+' || data[i] == '-') {
			i++
		}
		if i = digits(i); i < 0 {
			return -1
		}
	}
	return i
}
