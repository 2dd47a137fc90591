package jsonscan

import (
	"errors"
	"fmt"
)

// Shape is what decoding a JSON text builds, counted by a scan that decodes nothing: a
// reader compares it with the text's size before decoding, because a few bytes can
// decode into far more memory than they take (`{}` is 3 bytes and a struct of a
// kilobyte; a million of them took gigabytes), so a cap on bytes alone does not bound
// what a decoder allocates.
type Shape struct {
	// Containers counts the objects and arrays (each a struct, map or slice once decoded).
	Containers int
	// Values counts every value, containers and object keys included (each at least one
	// word once decoded).
	Values int
}

// Measure counts data's containers and values in one pass (strings skipped as written;
// data need not be valid JSON: a count over invalid text is only an estimate, and the
// decoder reports the error).
func Measure(data []byte) Shape {
	var s Shape
	inValue := false // within a scalar (a number, true, false, null)
	for i := 0; i < len(data); i++ {
		switch c := data[i]; c {
		case '"':
			i = stringEnd(data, i)
			s.Values++
			inValue = false
		case '{', '[':
			s.Containers++
			s.Values++
			inValue = false
		case '}', ']', ',', ':', ' ', '\t', '\r', '\n':
			inValue = false
		default:
			if !inValue {
				s.Values++
				inValue = true
			}
		}
	}
	return s
}

// Items is the number of elements of the JSON array arr (0 when arr is not an array), by
// a scan of brackets and strings, without decoding them.
func Items(arr []byte) int {
	i := SkipSeparators(arr, 0)
	if i >= len(arr) || arr[i] != '[' {
		return 0
	}
	n := 0
	for i = SkipSeparators(arr, i+1); i < len(arr) && arr[i] != ']'; i = SkipSeparators(arr, i) {
		n++
		i = ValueEnd(arr, i)
	}
	return n
}

// ErrTooDense reports a JSON text with more objects and arrays than its size allows: what
// a program writes averages far more bytes a container, and a text of nothing but `{}`
// would make its decoder allocate tens of times its size.
var ErrTooDense = errors.New("too many objects and arrays for the file's size")

const (
	// MinContainerBytes is the fewest bytes an object or array may take on average
	// (past FreeContainers): an empty object is 2, and a struct decoded from it up to a
	// kilobyte.
	MinContainerBytes = 16
	// FreeContainers are allowed whatever the size, so that a small file written by hand
	// (`{"systems": [{}]}`) is read.
	FreeContainers = 4096
)

// CheckDensity returns ErrTooDense, with the counts, when data holds more containers than
// len(data)/MinContainerBytes + FreeContainers: a reader calls it before decoding, so the
// memory decoding takes stays within a few tens of times the text's size.
func CheckDensity(data []byte) error {
	s := Measure(data)
	if limit := len(data)/MinContainerBytes + FreeContainers; s.Containers > limit {
		return fmt.Errorf("%w: %d in %d bytes (at most %d: one per %d bytes, past the first %d)", ErrTooDense, s.Containers, len(data), limit, MinContainerBytes, FreeContainers)
	}
	return nil
}
