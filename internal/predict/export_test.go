package predict

import "bytes"

// Read reads a prediction file, detecting its format, however many items it holds (the
// tests' reader; production reads through ReadFor, which bounds them).
func Read(path string) (*Set, error) { return ReadFormat(path, "") }

// ReadFormat reads a prediction file in the given format ("" or "auto": detected).
func ReadFormat(path, format string) (*Set, error) { return readFormat(path, format, itemCap{}) }

// Detect is detect on content already in memory (path is only for messages).
func Detect(path string, data []byte) (string, error) { return bytesSource(path, data).detect() }

// bytesSource is data as a source; it is scanned whole.
func bytesSource(path string, data []byte) *source {
	src := &source{path: path, file: bytes.NewReader(data), ra: bytes.NewReader(data)}
	// Detect is given content whose mark was already taken off: no mark is looked for.
	if err := src.scanFrom(bytes.NewReader(data), false); err != nil {
		panic(err) // reading bytes does not fail
	}
	return src
}
