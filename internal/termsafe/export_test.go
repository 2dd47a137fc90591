package termsafe

// Escape returns s with every C0 control character but newline and tab, DEL, and every
// C1 control character (U+0080-U+009F) replaced by its \u00XX form. That form is also
// JSON's escape of the same character, so JSON output stays the same JSON.
func Escape(s string) string {
	if !needsEscape(s) {
		return s
	}
	b := make([]byte, 0, len(s)+16)
	return string(appendEscaped(b, []byte(s)))
}

func needsEscape(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 && c != '\n' && c != '\t' || c == 0x7f || c == 0xc2 {
			return true
		}
	}
	return false
}
