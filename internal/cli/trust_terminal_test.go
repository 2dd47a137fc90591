package cli

import (
	"path/filepath"
	"strings"
	"testing"
)

// terminalControls are bytes that drive a terminal: ESC (CSI, OSC), BEL, CR, backspace,
// DEL and the C1 CSI.
const terminalControls = "\x1b\a\r\b\x7f"

// TestTerminalOutputEscaped: text from data (a question, its db_id, a system name, a
// file name, SQL in an error) reaches stdout and stderr with its control characters
// escaped, whatever the command prints it in (tables, warnings, errors).
func TestTerminalOutputEscaped(t *testing.T) {
	t.Parallel()
	fx := newHostileFixture(t)
	dir := t.TempDir()
	evil := "\x1b]0;pwned\a\x1b[2J\x1b[H\rover\bx\x7f\u009b"
	questions := writeHostile(t, dir, "q.jsonl", []byte(
		`{"question_id": "q0", "db_id": "shop", "question": "How many?\u001b[2J", "gold": "SELECT count(*) FROM t"}`+"\n"+
			`{"question_id": "q1", "db_id": "nowhere\u001b]0;x\u0007", "question": "Names?\u0007", "gold": "SELECT name FROM t"}`+"\n"))
	pred := writeHostile(t, dir, "pred.txt", []byte("SELECT count(*) FROM t\nSELECT nope FROM t -- \x1b[2J\n"))
	badFile := writeHostile(t, dir, "bad\x1b[2J.txt", []byte("{"))
	for _, args := range [][]string{
		{"eval", "--dataset", "jsonl:" + questions, "--db-root", fx.dbRoot, "--pred", "sys" + evil + "=" + pred, "--out", filepath.Join(dir, "a"), "--details"},
		{"eval", "--dataset", "jsonl:" + questions, "--db-root", fx.dbRoot, "--pred", "sys" + evil + "=" + pred, "--out", filepath.Join(dir, "b"), "--json"},
		{"eval", "--dataset", "jsonl:" + questions, "--db-root", fx.dbRoot, "--pred", badFile, "--out", filepath.Join(dir, "c")},
		{"eval", "--dataset", "jsonl:" + questions, "--db-root", fx.dbRoot, "--pred", pred, "--out", filepath.Join(dir, "d"), "--db-id", "x" + evil},
		{"report", filepath.Join(dir, "a")},
	} {
		code, stdout, stderr := run(args...)
		if strings.Contains(stderr, "panic:") {
			t.Fatalf("%v: %s", args, stderr)
		}
		for name, out := range map[string]string{"stdout": stdout, "stderr": stderr} {
			if i := strings.IndexAny(out, terminalControls+"\u009b"); i >= 0 {
				t.Errorf("%s (exit %d): %s holds a control character at %d: %q", args[0], code, name, i, out[max(0, i-40):min(len(out), i+40)])
			}
		}
		if !strings.Contains(stdout+stderr, `\u001b`) && !strings.Contains(stdout+stderr, `\x1b`) {
			t.Errorf("%v: the escaped data is not shown at all:\n%s\n%s", args[:2], stdout, stderr)
		}
	}
}
