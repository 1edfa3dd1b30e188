package main

// The byte strings and words of the engine protocol (docs/protocol.md, "Engines in any
// language": "Lines, words, byte strings"): a bare token (bytes 0x21-0x7E
// other than '"', '\' and '=') or a double-quoted string with \\, \", \n, \t
// and \xNN escapes; option words are KEY=VALUE, split at the first '='.

import (
	"errors"
	"fmt"
	"strings"
)

// errInvalid is a request that cannot be read: its reply is `err invalid`.
func errInvalid(format string, args ...any) *failure {
	return &failure{kind: "invalid", msg: fmt.Sprintf(format, args...)}
}

// isBareByte reports whether b may stand in a bare token.
func isBareByte(b byte) bool {
	return b >= 0x21 && b <= 0x7e && b != '"' && b != '\\' && b != '='
}

func hexDigit(b byte) (byte, bool) {
	switch {
	case b >= '0' && b <= '9':
		return b - '0', true
	case b >= 'a' && b <= 'f':
		return b - 'a' + 10, true
	case b >= 'A' && b <= 'F':
		return b - 'A' + 10, true
	}
	return 0, false
}

// splitWords splits a request line into its words: separated by spaces, a
// double-quoted part (escapes included) never splitting a word.
func splitWords(line []byte) ([][]byte, error) {
	var words [][]byte
	i := 0
	for i < len(line) {
		if line[i] == ' ' {
			i++
			continue
		}
		start := i
		quoted := false
		for i < len(line) && (quoted || line[i] != ' ') {
			switch {
			case line[i] == '"':
				quoted = !quoted
			case line[i] == '\\' && quoted:
				i++
			}
			i++
		}
		if quoted {
			return nil, fmt.Errorf("unterminated quoted string in word starting at byte %d", start)
		}
		words = append(words, line[start:min(i, len(line))])
	}
	return words, nil
}

// decodeQuoted decodes one quoted string, q holding it whole (both quotes).
func decodeQuoted(q []byte) ([]byte, error) {
	if len(q) < 2 || q[0] != '"' || q[len(q)-1] != '"' {
		return nil, fmt.Errorf("bad quoted string %s", show(q))
	}
	body := q[1 : len(q)-1]
	out := make([]byte, 0, len(body))
	for i := 0; i < len(body); {
		c := body[i]
		if c == '"' {
			return nil, fmt.Errorf("unescaped '\"' inside quoted string %s", show(q))
		}
		if c != '\\' {
			out = append(out, c)
			i++
			continue
		}
		if i+1 >= len(body) {
			return nil, fmt.Errorf("bad escape in quoted string %s", show(q))
		}
		switch body[i+1] {
		case '\\':
			out = append(out, '\\')
		case '"':
			out = append(out, '"')
		case 'n':
			out = append(out, '\n')
		case 't':
			out = append(out, '\t')
		case 'x':
			if i+3 >= len(body) {
				return nil, fmt.Errorf("bad \\x escape in quoted string %s", show(q))
			}
			hi, ok1 := hexDigit(body[i+2])
			lo, ok2 := hexDigit(body[i+3])
			if !ok1 || !ok2 {
				return nil, fmt.Errorf("bad \\x escape in quoted string %s", show(q))
			}
			out = append(out, hi<<4|lo)
			i += 2
		default:
			return nil, fmt.Errorf("bad escape in quoted string %s", show(q))
		}
		i += 2
	}
	return out, nil
}

// decodeBytes decodes a word that is one byte string (bare or quoted).
func decodeBytes(word []byte) ([]byte, error) {
	if len(word) > 0 && word[0] == '"' {
		return decodeQuoted(word)
	}
	ok := len(word) > 0
	for _, b := range word {
		ok = ok && isBareByte(b)
	}
	if !ok {
		return nil, fmt.Errorf("expected a byte string (bare bytes 0x21-0x7e other than '\"', '\\' and '=', or quoted), got %s", show(word))
	}
	return append([]byte(nil), word...), nil
}

// errNotOption: the word is no KEY=VALUE option word.
var errNotOption = errors.New("not an option word")

// splitOption splits an option word KEY=VALUE (KEY bare, VALUE a bare run of
// non-space bytes or a quoted string); errNotOption when the word is none.
func splitOption(word []byte) (string, []byte, error) {
	eq := -1
	for i, b := range word {
		if b == '=' {
			eq = i
			break
		}
	}
	if eq <= 0 {
		return "", nil, errNotOption
	}
	for _, b := range word[:eq] {
		if !isBareByte(b) {
			return "", nil, errNotOption
		}
	}
	key, value := string(word[:eq]), word[eq+1:]
	switch {
	case len(value) > 0 && value[0] == '"':
		v, err := decodeQuoted(value)
		return key, v, err
	case strings.ContainsRune(string(value), '"'):
		return "", nil, fmt.Errorf("option %s: a '\"' inside a bare value", key)
	}
	return key, append([]byte(nil), value...), nil
}

const hexDigits = "0123456789abcdef"

// appendEncoded appends b as a byte string: bare when it can be, else
// quoted. The empty string and the word none are always quoted.
func appendEncoded(dst, b []byte) []byte {
	bare := len(b) > 0 && string(b) != "none"
	for _, c := range b {
		if !isBareByte(c) {
			bare = false
			break
		}
	}
	if bare {
		return append(dst, b...)
	}
	dst = append(dst, '"')
	for _, c := range b {
		switch {
		case c == '\\':
			dst = append(dst, '\\', '\\')
		case c == '"':
			dst = append(dst, '\\', '"')
		case c == '\n':
			dst = append(dst, '\\', 'n')
		case c == '\t':
			dst = append(dst, '\\', 't')
		case c >= 0x20 && c <= 0x7e:
			dst = append(dst, c)
		default:
			dst = append(dst, '\\', 'x', hexDigits[c>>4], hexDigits[c&15])
		}
	}
	return append(dst, '"')
}

// encode is appendEncoded as a string.
func encode(b []byte) string { return string(appendEncoded(nil, b)) }

// decodeHex decodes the hex of a filter context: 0-64 bytes.
func decodeHex(text []byte) ([]byte, error) {
	if len(text)%2 != 0 || len(text) > 128 {
		return nil, fmt.Errorf("ctx: expected 0-64 bytes as an even number of hex digits, got %s", show(text))
	}
	out := make([]byte, 0, len(text)/2)
	for i := 0; i < len(text); i += 2 {
		hi, ok1 := hexDigit(text[i])
		lo, ok2 := hexDigit(text[i+1])
		if !ok1 || !ok2 {
			return nil, fmt.Errorf("ctx: bad hex digit in %s", show(text))
		}
		out = append(out, hi<<4|lo)
	}
	return out, nil
}

// show is b for a message: encoded, cut after 80 bytes.
func show(b []byte) string {
	if len(b) > 80 {
		return encode(b[:80]) + "..."
	}
	return encode(b)
}
