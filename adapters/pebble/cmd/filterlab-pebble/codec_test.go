package main

import (
	"bytes"
	"testing"
)

func TestDecodeBareAndQuoted(t *testing.T) {
	for in, want := range map[string]string{
		`abc`:                   "abc",
		`""`:                    "",
		`"a b\\\"\n\t\x00\xFF"`: "a b\\\"\n\t\x00\xff",
		`"x=y"`:                 "x=y",
	} {
		got, err := decodeBytes([]byte(in))
		if err != nil || string(got) != want {
			t.Errorf("decodeBytes(%s) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, bad := range []string{`a=b`, `a\b`, `"abc`, `"\x4"`, `"\q"`, `"a"b"`, ``, `"\"`} {
		if _, err := decodeBytes([]byte(bad)); err == nil {
			t.Errorf("decodeBytes(%s) should fail", bad)
		}
	}
}

func TestEncodeRoundTrips(t *testing.T) {
	for _, s := range []string{"", "none", "abc", "a b", "\x00\x01\xff", "\\\"=", "\n\t"} {
		e := encode([]byte(s))
		got, err := decodeBytes([]byte(e))
		if err != nil || string(got) != s {
			t.Errorf("%q encodes as %s, which decodes as %q, %v", s, e, got, err)
		}
	}
	for in, want := range map[string]string{"abc": "abc", "": `""`, "none": `"none"`, "a=b": `"a=b"`, "\x00": `"\x00"`} {
		if got := encode([]byte(in)); got != want {
			t.Errorf("encode(%q) = %s, want %s", in, got, want)
		}
	}
}

func TestWordsKeepQuotedSpaces(t *testing.T) {
	w, err := splitWords([]byte(`put "a b" v  x="c d" `))
	want := [][]byte{[]byte("put"), []byte(`"a b"`), []byte("v"), []byte(`x="c d"`)}
	if err != nil || len(w) != len(want) {
		t.Fatalf("splitWords: %q, %v", w, err)
	}
	for i := range w {
		if !bytes.Equal(w[i], want[i]) {
			t.Errorf("word %d: %q, want %q", i, w[i], want[i])
		}
	}
	if w, _ := splitWords([]byte(`get "a\" b"`)); len(w) != 2 || string(w[1]) != `"a\" b"` {
		t.Errorf("escaped quote: %q", w)
	}
	if _, err := splitWords([]byte(`get "abc`)); err == nil {
		t.Error("an unterminated quote should fail")
	}
}

func TestOptionsSplitAtFirstEq(t *testing.T) {
	k, v, err := splitOption([]byte("policies=bloom(bits=10)"))
	if err != nil || k != "policies" || string(v) != "bloom(bits=10)" {
		t.Errorf("got %s %q %v", k, v, err)
	}
	k, v, err = splitOption([]byte(`policies="bloom(bits=10,prefix=delim:\\x3a)"`))
	if err != nil || k != "policies" || string(v) != `bloom(bits=10,prefix=delim:\x3a)` {
		t.Errorf("got %s %q %v", k, v, err)
	}
	if k, v, err = splitOption([]byte("ctx=")); err != nil || k != "ctx" || len(v) != 0 {
		t.Errorf("ctx=: %s %q %v", k, v, err)
	}
	for _, w := range []string{"abc", `"a=b"`, "=x"} {
		if _, _, err := splitOption([]byte(w)); err != errNotOption {
			t.Errorf("%s: %v, want errNotOption", w, err)
		}
	}
}

func TestHex(t *testing.T) {
	if b, err := decodeHex([]byte("00ffAb")); err != nil || !bytes.Equal(b, []byte{0, 0xff, 0xab}) {
		t.Errorf("decodeHex: %x %v", b, err)
	}
	for _, bad := range []string{"0", "zz", string(bytes.Repeat([]byte("0"), 130))} {
		if _, err := decodeHex([]byte(bad)); err == nil {
			t.Errorf("decodeHex(%s) should fail", bad)
		}
	}
}

func TestFNV(t *testing.T) {
	if h := fnv1a64(nil); h != 0xcbf29ce484222325 {
		t.Errorf("fnv1a64('') = %x", h)
	}
	if h := fnv1a64([]byte("a")); h != 0xaf63dc4c8601ec8c {
		t.Errorf("fnv1a64(a) = %x", h)
	}
	p := newProbedPolicy(nil)
	big := bytes.Repeat([]byte{7}, 1000)
	want := fnv1a64(big)
	if p.hashOf(big) != want || p.hashOf(big) != want {
		t.Error("cached hash differs")
	}
	big[10] = 8 // the same memory, other bytes: not the cached hash
	if p.hashOf(big) != fnv1a64(big) {
		t.Error("the cache answered for changed bytes")
	}
}
