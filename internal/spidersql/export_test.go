package spidersql

// Helpers only this package's tests use, kept out of the build.

import "unicode"

// pyIsSpaceSlow is pyIsSpace as first written; TestPyIsSpaceASCII holds the two together.
func pyIsSpaceSlow(r rune) bool {
	if r >= 0x1c && r <= 0x1f {
		return true
	}
	return unicode.IsSpace(r)
}
