package main

// filterlab's policy list and spec grammar (engine/registry.c, bloom.c,
// extractors.c; ported from adapters/slatedb/src/spec.rs), for the one
// built-in policy kind the adapter maps, bloom, the four built-in
// extractors, and the kinds of the plugins loaded (plugin.go: a plugin's
// spec is the host's to parse):
//
//	policy list     = blanks "none" blanks | spec (";" spec)*   (split at parenthesis depth 0)
//	policy spec     = blanks KIND [ "(" ARGS ")" ] blanks
//	ARGS            = ARG=VALUE ("," ARG=VALUE)*               (split at depth 0, blanks trimmed)
//	extractor spec  = KIND [ ":" ARGS ]                        (no blanks trimmed)
//	KIND            = 1..31 bytes of [A-Za-z0-9_-]
//
// Values may use \xNN for ',', ';', '(', ')'. Specs are bytes. What Pebble
// cannot express of a well-formed list is refused in options.go.

import "fmt"

// specError is why a list cannot be used: unsupported (a well-formed spec
// the adapter cannot express) or not (a malformed one).
type specError struct {
	unsupported bool
	msg         string
}

func (e *specError) Error() string { return e.msg }

func specInvalid(format string, args ...any) error {
	return &specError{msg: fmt.Sprintf(format, args...)}
}

func specUnsupported(format string, args ...any) error {
	return &specError{unsupported: true, msg: fmt.Sprintf(format, args...)}
}

// wrapSpec prefixes a specError's message, keeping its kind.
func wrapSpec(err error, format string, args ...any) error {
	if se, ok := err.(*specError); ok {
		return &specError{unsupported: se.unsupported, msg: fmt.Sprintf(format, args...) + se.msg}
	}
	return err
}

// ExtractorKind is one of filterlab's built-in prefix extractors.
type ExtractorKind int

const (
	Fixed ExtractorKind = iota
	Capped
	Delim
	LastDelim
	// PluginX is a plugin's extractor, run by the plugin host
	PluginX
)

// Extractor is a built-in extractor with its argument: N for fixed and
// capped, the delimiter byte C for delim and lastdelim; or a plugin's, by
// its spec as given.
type Extractor struct {
	Kind   ExtractorKind
	N      int
	C      byte
	Plugin string
}

// Target is what an extractor is asked about: a whole key, or a scan prefix.
type Target int

const (
	Point Target = iota
	Prefix
)

// Name is the extractor's name (extractors.c, NAME RULE): fixedN, cappedN,
// delimC, lastdelimC, C itself when it is 0x21-0x7E other than '\', else
// \xNN with two lowercase hex digits.
func (e Extractor) Name() string {
	byteName := func(kind string, c byte) string {
		if c >= 0x21 && c <= 0x7e && c != '\\' {
			return kind + string(rune(c))
		}
		return fmt.Sprintf("%s\\x%02x", kind, c)
	}
	switch e.Kind {
	case Fixed:
		return fmt.Sprintf("fixed%d", e.N)
	case Capped:
		return fmt.Sprintf("capped%d", e.N)
	case Delim:
		return byteName("delim", e.C)
	case PluginX:
		return pluginExtractorName(e.Plugin)
	default:
		return byteName("lastdelim", e.C)
	}
}

// Spec is the extractor as the workload writes it (fixed:N, delim:C, ...).
func (e Extractor) Spec() string {
	switch e.Kind {
	case Fixed:
		return fmt.Sprintf("fixed:%d", e.N)
	case Capped:
		return fmt.Sprintf("capped:%d", e.N)
	case Delim:
		return "delim:" + escapeSpecByte(e.C)
	case PluginX:
		return e.Plugin
	default:
		return "lastdelim:" + escapeSpecByte(e.C)
	}
}

func escapeSpecByte(c byte) string {
	if c >= 0x21 && c <= 0x7e && c != '\\' && c != ',' && c != ';' && c != '(' && c != ')' {
		return string(rune(c))
	}
	return fmt.Sprintf("\\x%02x", c)
}

// PrefixLen is the prefix length of b asked as target (SPEC 4's table);
// ok false when b has no prefix.
func (e Extractor) PrefixLen(target Target, b []byte) (n int, ok bool) {
	switch e.Kind {
	case Fixed:
		return e.N, len(b) >= e.N
	case Capped:
		if target == Point {
			return min(len(b), e.N), true
		}
		return e.N, len(b) >= e.N
	case Delim:
		for i, c := range b {
			if c == e.C {
				return i + 1, true
			}
		}
		return 0, false
	case PluginX:
		return pluginPrefixLen(e.Plugin, target, b)
	default: // LastDelim
		if target == Prefix {
			return 0, false
		}
		for i := len(b) - 1; i >= 0; i-- {
			if b[i] == e.C {
				return i + 1, true
			}
		}
		return 0, false
	}
}

// Bloom is a bloom(bits=N[,whole_key=0|1][,prefix=EXTRACTOR]) policy, or
// a plugin's policy (Plugin: its spec, blanks trimmed; the rest unused).
type Bloom struct {
	Bits      uint32
	WholeKey  bool
	Extractor *Extractor
	Plugin    string
}

// Name is the name filterlab gives this policy: _bf, then :p=<extractor
// name> with an extractor, then :wh=0 when whole-key filtering is off.
func (b Bloom) Name() string {
	name := "_bf"
	if b.Extractor != nil {
		name += ":p=" + b.Extractor.Name()
	}
	if !b.WholeKey {
		name += ":wh=0"
	}
	return name
}

// Equal reports whether two blooms are the same policy.
func (b Bloom) Equal(o Bloom) bool {
	if b.Plugin != o.Plugin {
		return false
	}
	if b.Bits != o.Bits || b.WholeKey != o.WholeKey || (b.Extractor == nil) != (o.Extractor == nil) {
		return false
	}
	return b.Extractor == nil || *b.Extractor == *o.Extractor
}

func isBlank(b byte) bool { return b == ' ' || b == '\t' }

func trim(s []byte) []byte {
	for len(s) > 0 && isBlank(s[0]) {
		s = s[1:]
	}
	for len(s) > 0 && isBlank(s[len(s)-1]) {
		s = s[:len(s)-1]
	}
	return s
}

// splitDepth0 splits s at sep outside parentheses (depth 0).
func splitDepth0(s []byte, sep byte) [][]byte {
	var pieces [][]byte
	depth, start := 0, 0
	for i, b := range s {
		switch {
		case b == '(':
			depth++
		case b == ')':
			depth--
		case b == sep && depth <= 0:
			pieces = append(pieces, s[start:i])
			start = i + 1
		}
	}
	return append(pieces, s[start:])
}

func kindSpan(s []byte) int {
	n := 0
	for _, b := range s {
		if !(b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || b == '_' || b == '-') {
			break
		}
		n++
	}
	return n
}

// unescape decodes \xNN escapes (either case of hex digit); any other
// backslash is a bad escape (ok false).
func unescape(s []byte) ([]byte, bool) {
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); {
		if s[i] != '\\' {
			out = append(out, s[i])
			i++
			continue
		}
		if i+4 > len(s) {
			return nil, false
		}
		hi, ok1 := hexDigit(s[i+2])
		lo, ok2 := hexDigit(s[i+3])
		if s[i+1] != 'x' || !ok1 || !ok2 {
			return nil, false
		}
		out = append(out, hi<<4|lo)
		i += 4
	}
	return out, true
}

func isExtractorKind(kind string) bool {
	return kind == "fixed" || kind == "capped" || kind == "delim" || kind == "lastdelim"
}

// ParsePolicyList parses a policy list: none is the empty list.
func ParsePolicyList(list []byte) ([]Bloom, error) {
	s := trim(list)
	if len(s) == 0 {
		return nil, specInvalid("empty policy list '%s': expected 'none' or specs separated by ';'", list)
	}
	if string(s) == "none" {
		return nil, nil
	}
	var out []Bloom
	for i, piece := range splitDepth0(s, ';') {
		p := trim(piece)
		if len(p) == 0 || string(p) == "none" {
			what := "empty"
			if len(p) > 0 {
				what = "'none', which must be the whole list"
			}
			return nil, specInvalid("policy list '%s': spec %d is %s", list, i+1, what)
		}
		b, err := ParsePolicy(p)
		if err != nil {
			return nil, err
		}
		out = append(out, b)
	}
	return out, nil
}

// ParsePolicy parses one policy spec.
func ParsePolicy(spec []byte) (Bloom, error) {
	s := trim(spec)
	kl := kindSpan(s)
	if kl == 0 || kl > 31 {
		return Bloom{}, specInvalid("policy spec '%s': expected KIND or KIND(ARG=VALUE,...), with KIND 1-31 bytes of [A-Za-z0-9_-]", spec)
	}
	kind, rest := string(s[:kl]), s[kl:]
	var args []byte
	if len(rest) > 0 {
		if rest[0] != '(' {
			return Bloom{}, specInvalid("policy spec '%s': unexpected '%c' after kind '%s'; expected '(' or the end of the spec", spec, rest[0], kind)
		}
		depth, closeAt := 0, -1
		for i, b := range rest {
			if b == '(' {
				depth++
			} else if b == ')' {
				depth--
				if depth == 0 {
					closeAt = i
					break
				}
			}
		}
		switch {
		case closeAt < 0:
			return Bloom{}, specInvalid("policy spec '%s': unbalanced parentheses", spec)
		case closeAt+1 != len(rest):
			return Bloom{}, specInvalid("policy spec '%s': unexpected text '%s' after the closing ')'", spec, rest[closeAt+1:])
		}
		args = rest[1:closeAt]
	}
	if kind != "bloom" {
		if isExtractorKind(kind) || isPluginKind(s[:kl], false) {
			return Bloom{}, specInvalid("policy spec '%s': '%s' is an extractor kind, not a policy kind", spec, kind)
		}
		if isPluginKind(s, true) {
			return Bloom{Plugin: string(s)}, nil
		}
		return Bloom{}, specUnsupported("policy spec '%s': the Pebble adapter maps filterlab's built-in bloom (Pebble's bloom.FilterPolicy) and plugins' policies; policy kind '%s' (a plugin's not loaded?) is not mapped", spec, kind)
	}
	b, err := parseBloomArgs(args)
	if err != nil {
		return Bloom{}, wrapSpec(err, "policy spec '%s': ", spec)
	}
	return b, nil
}

func parseBloomArgs(args []byte) (Bloom, error) {
	b := Bloom{Bits: 10, WholeKey: true}
	all := trim(args)
	if len(all) == 0 {
		return b, nil
	}
	var seen [3]bool
	for _, item := range splitDepth0(all, ',') {
		item = trim(item)
		if len(item) == 0 {
			return b, specInvalid("empty argument (a ',' with nothing before or after it)")
		}
		eq := -1
		for i, c := range item {
			if c == '=' {
				eq = i
				break
			}
		}
		if eq < 0 {
			return b, specInvalid("argument '%s': expected ARG=VALUE", item)
		}
		name, value := string(trim(item[:eq])), trim(item[eq+1:])
		if len(name) >= 32 || len(value) >= 512 {
			return b, specInvalid("argument '%s' is too long", item)
		}
		var which int
		switch name {
		case "bits":
			which = 0
		case "whole_key":
			which = 1
		case "prefix":
			which = 2
		default:
			return b, specInvalid("unknown argument '%s'; known arguments: bits, whole_key, prefix", name)
		}
		if seen[which] {
			return b, specInvalid("argument '%s' given twice", name)
		}
		seen[which] = true
		switch which {
		case 0:
			bits, err := parseBits(value)
			if err != nil {
				return b, err
			}
			b.Bits = bits
		case 1:
			v, ok := unescape(value)
			switch {
			case ok && string(v) == "0":
				b.WholeKey = false
			case ok && string(v) == "1":
				b.WholeKey = true
			default:
				return b, specInvalid("whole_key: expected 0 or 1; got '%s'", value)
			}
		case 2:
			e, err := ParseExtractor(value)
			if err != nil {
				return b, wrapSpec(err, "prefix: ")
			}
			b.Extractor = &e
		}
	}
	return b, nil
}

// parseBits: D+[.D*] or .D+, at most 1000 by its digits (bloom.c). Pebble's
// bloom.FilterPolicy is an int (bits per key): a value that is not a whole
// number is unsupported.
func parseBits(value []byte) (uint32, error) {
	bad := specInvalid("bits: expected a decimal number of bits per key from 0 to 1000 (like 10 or 7.5); got '%s'", value)
	text, ok := unescape(value)
	if !ok {
		return 0, bad
	}
	whole, frac := text, []byte(nil)
	for i, c := range text {
		if c == '.' {
			whole, frac = text[:i], text[i+1:]
			break
		}
	}
	digits := func(s []byte) bool {
		for _, c := range s {
			if c < '0' || c > '9' {
				return false
			}
		}
		return true
	}
	if len(whole)+len(frac) == 0 || !digits(whole) || !digits(frac) {
		return 0, bad
	}
	var bits uint64
	for _, d := range whole {
		bits = bits*10 + uint64(d-'0')
		if bits > 1000 {
			return 0, bad
		}
	}
	fracNonzero := false
	for _, d := range frac {
		fracNonzero = fracNonzero || d != '0'
	}
	if bits == 1000 && fracNonzero {
		return 0, bad
	}
	if fracNonzero {
		return 0, specUnsupported("bits=%s: Pebble's bloom.FilterPolicy takes a whole number of bits per key (an int)", value)
	}
	return uint32(bits), nil
}

// ParseExtractor parses an extractor spec: fixed:N, capped:N (N decimal
// 1-65535, each digit itself or \xNN), delim:C, lastdelim:C (C one byte:
// itself, or \xNN), or a kind of a plugin loaded (its spec as given, which
// the plugin host must make an extractor of).
func ParseExtractor(spec []byte) (Extractor, error) {
	kl := kindSpan(spec)
	if kl == 0 || kl > 31 || (kl < len(spec) && spec[kl] != ':') {
		return Extractor{}, specInvalid("extractor spec '%s': expected KIND or KIND:ARGS (e.g. fixed:3, delim:\\x3a), with KIND 1-31 bytes of [A-Za-z0-9_-]", spec)
	}
	kind := string(spec[:kl])
	var args []byte
	if kl < len(spec) {
		args = spec[kl+1:]
	}
	switch kind {
	case "fixed", "capped":
		t, ok := unescape(args)
		n := 0
		ok = ok && len(t) > 0
		for _, d := range t {
			if !ok || d < '0' || d > '9' {
				ok = false
				break
			}
			n = n*10 + int(d-'0')
			ok = n <= 65535
		}
		if !ok || n < 1 {
			return Extractor{}, specInvalid("extractor spec '%s': %s needs a length: %s:N with N a decimal from 1 to 65535", spec, kind, kind)
		}
		if kind == "fixed" {
			return Extractor{Kind: Fixed, N: n}, nil
		}
		return Extractor{Kind: Capped, N: n}, nil
	case "delim", "lastdelim":
		var c byte
		ok := false
		if len(args) == 1 {
			c, ok = args[0], true
		} else if t, good := unescape(args); good && len(t) == 1 {
			c, ok = t[0], true
		}
		if !ok {
			return Extractor{}, specInvalid("extractor spec '%s': %s needs exactly one delimiter byte: %s:C with C a byte or \\xNN", spec, kind, kind)
		}
		if kind == "delim" {
			return Extractor{Kind: Delim, C: c}, nil
		}
		return Extractor{Kind: LastDelim, C: c}, nil
	}
	if kind == "bloom" || isPluginKind(spec[:kl], true) {
		return Extractor{}, specInvalid("extractor spec '%s': '%s' is a policy kind, not an extractor kind", spec, kind)
	}
	if isPluginKind(spec, false) {
		if _, err := pluginExtractor(string(spec)); err != nil {
			return Extractor{}, specInvalid("extractor spec '%s': %v", spec, err)
		}
		return Extractor{Kind: PluginX, Plugin: string(spec)}, nil
	}
	return Extractor{}, specUnsupported("extractor spec '%s': extractor kind '%s' (a plugin's not loaded?) is not one of filterlab's built-in extractors", spec, kind)
}
