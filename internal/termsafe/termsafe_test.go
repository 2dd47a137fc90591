package termsafe

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func TestEscape(t *testing.T) {
	cases := []struct{ in, want string }{
		{"plain text\nnext line\twith tab", "plain text\nnext line\twith tab"},
		{"ESC \x1bc reset", `ESC \u001bc reset`},
		{"CSI \x1b[2J\x1b[H clear", `CSI \u001b[2J\u001b[H clear`},
		{"OSC \x1b]0;pwned\x07 title", `OSC \u001b]0;pwned\u0007 title`},
		{"OSC 8 \x1b]8;;http://x\x1b\\link", `OSC 8 \u001b]8;;http://x\u001b\link`},
		{"BEL \a", `BEL \u0007`},
		{"CR over\rwrite", `CR over\u000dwrite`},
		{"back\b\b\bspace", `back\u0008\u0008\u0008space`},
		{"DEL \x7f", `DEL \u007f`},
		{"C1 CSI \u009b2J", `C1 CSI \u009b2J`},
		{"NUL \x00", `NUL \u0000`},
		{"non-ASCII é ü 日本 \u00a0 kept", "non-ASCII é ü 日本 \u00a0 kept"},
	}
	for _, c := range cases {
		if got := Escape(c.in); got != c.want {
			t.Errorf("Escape(%q) = %q, want %q", c.in, got, c.want)
		}
		var b bytes.Buffer
		w := NewWriter(&b)
		// Byte by byte: a C1 control split across writes is still escaped.
		for i := range len(c.in) {
			if n, err := w.Write([]byte{c.in[i]}); n != 1 || err != nil {
				t.Fatalf("Write: %d, %v", n, err)
			}
		}
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		if b.String() != c.want {
			t.Errorf("Writer(%q) wrote %q, want %q", c.in, b.String(), c.want)
		}
	}
}

// TestEscapeKeepsJSON: JSON printed through the Writer decodes to the same values
// (its escapes are JSON's own), so --json output stays correct.
func TestEscapeKeepsJSON(t *testing.T) {
	in := map[string]string{"q": "a\x1b[31mred\u009b\x7f\r\n", "name": "日本"}
	b, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	out := Escape(string(b))
	if strings.ContainsAny(out, "\x1b\x7f\r") || strings.Contains(out, "\u009b") {
		t.Fatalf("control characters left: %q", out)
	}
	var back map[string]string
	if err := json.Unmarshal([]byte(out), &back); err != nil {
		t.Fatal(err)
	}
	if back["q"] != in["q"] || back["name"] != in["name"] {
		t.Errorf("round trip: %q, want %q", back, in)
	}
}
