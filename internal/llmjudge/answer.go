package llmjudge

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/nl2sqlbench/nl2sqlbench/internal/jsonscan"
)

// ErrUnparsable marks an answer that gives no verdict: the record stays unjudged.
var ErrUnparsable = errors.New("judge answer does not parse")

// Answer is a parsed reply of the judge.
type Answer struct {
	Correct   bool
	Category  string
	Rationale string
}

// maxRationale bounds the rationale kept in a record, in runes.
const maxRationale = 600

// ParseAnswer reads the judge's reply: exactly one JSON object, alone or in one fenced
// code block, with "verdict" ("correct" or "incorrect"), "category" (a Taxonomy id:
// "none" exactly when correct) and a non-empty "rationale"; other keys are ignored.
// Anything else, prose around the object, a second object, a key given twice, is
// refused rather than guessed at: a reply that could be read two ways gives no verdict.
func ParseAnswer(text string) (Answer, error) {
	body := strings.TrimSpace(text)
	if strings.HasPrefix(body, "```") {
		inner, ok := unfence(body)
		if !ok {
			return Answer{}, fmt.Errorf("%w: a code fence that is not one closed block", ErrUnparsable)
		}
		body = inner
	}
	if !strings.HasPrefix(body, "{") {
		return Answer{}, fmt.Errorf("%w: not a JSON object (starts %q)", ErrUnparsable, head(body))
	}
	dec := json.NewDecoder(strings.NewReader(body))
	var raw json.RawMessage
	if err := dec.Decode(&raw); err != nil {
		return Answer{}, fmt.Errorf("%w: %v", ErrUnparsable, err)
	}
	if rest := strings.TrimSpace(body[dec.InputOffset():]); rest != "" {
		return Answer{}, fmt.Errorf("%w: text after the JSON object (%q)", ErrUnparsable, head(rest))
	}
	if k, dup := jsonscan.DuplicateKey(raw); dup {
		return Answer{}, fmt.Errorf("%w: key %q given twice", ErrUnparsable, k)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return Answer{}, fmt.Errorf("%w: %v", ErrUnparsable, err)
	}
	str := func(key string) (string, error) {
		v, ok := m[key]
		if !ok {
			return "", fmt.Errorf("%w: no %q", ErrUnparsable, key)
		}
		var s string
		if err := json.Unmarshal(v, &s); err != nil {
			return "", fmt.Errorf("%w: %q is not a string", ErrUnparsable, key)
		}
		return strings.TrimSpace(s), nil
	}
	verdict, err := str("verdict")
	if err != nil {
		return Answer{}, err
	}
	cat, err := str("category")
	if err != nil {
		return Answer{}, err
	}
	why, err := str("rationale")
	if err != nil {
		return Answer{}, err
	}
	a := Answer{Category: strings.ToLower(cat), Rationale: clip(why, maxRationale)}
	switch strings.ToLower(verdict) {
	case "correct":
		a.Correct = true
	case "incorrect":
	default:
		return Answer{}, fmt.Errorf("%w: verdict %q is neither correct nor incorrect", ErrUnparsable, head(verdict))
	}
	switch {
	case !knownCategory(a.Category):
		return Answer{}, fmt.Errorf("%w: category %q is not in the taxonomy", ErrUnparsable, head(cat))
	case a.Correct != (a.Category == CategoryNone):
		return Answer{}, fmt.Errorf("%w: verdict %s with category %q (none goes with correct, and only with it)", ErrUnparsable, verdict, a.Category)
	case a.Rationale == "":
		return Answer{}, fmt.Errorf("%w: empty rationale", ErrUnparsable)
	}
	return a, nil
}

// unfence returns the content of one fenced block (```json ... ```) that is the whole text.
func unfence(s string) (string, bool) {
	nl := strings.IndexByte(s, '\n')
	if nl < 0 || !strings.HasSuffix(s, "```") {
		return "", false
	}
	if lang := strings.TrimSpace(s[3:nl]); lang != "" && !strings.EqualFold(lang, "json") {
		return "", false
	}
	inner := strings.TrimSpace(s[nl+1 : len(s)-3])
	if strings.Contains(inner, "```") {
		return "", false
	}
	return inner, true
}

// head is the start of s for a message.
func head(s string) string { return clip(string(bytes.ToValidUTF8([]byte(s), []byte("?"))), 40) }

// clip cuts s to n runes, marking the cut.
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n]) + "…"
}
