package main

import "testing"

func bloomOf(t *testing.T, spec string) Bloom {
	t.Helper()
	b, err := ParsePolicy([]byte(spec))
	if err != nil {
		t.Fatalf("%s: %v", spec, err)
	}
	return b
}

func TestPolicyLists(t *testing.T) {
	if l, err := ParsePolicyList([]byte(" none\t")); err != nil || l != nil {
		t.Errorf("none: %v %v", l, err)
	}
	l, err := ParsePolicyList([]byte("bloom(bits=10); bloom( bits = 8 , prefix=fixed:3,whole_key=0 )"))
	if err != nil || len(l) != 2 || l[0].Bits != 10 || !l[0].WholeKey || l[1].Bits != 8 || l[1].WholeKey ||
		*l[1].Extractor != (Extractor{Kind: Fixed, N: 3}) {
		t.Errorf("list: %+v %v", l, err)
	}
	for _, bad := range []string{"", "  ", "bloom;", ";bloom", "bloom;none", "bloom(bits=10", "bloom(bits=10))",
		"bloom (bits=10)", "bloom(bits=10)x", "fixed:3", "bloom(bits=10,bits=8)", "bloom(size=3)", "bloom(bits)",
		"bloom(bits=10,)", "bloom(bits=x)", "bloom(bits=1001)", "bloom(bits=1000.5)", "bloom(bits=.)",
		"bloom(whole_key=2)", "bloom(prefix=fixed:0)", "bloom(prefix=fixed:65536)", "bloom(prefix=fixed)",
		"bloom(prefix=delim:ab)", "bloom(prefix=delim:)", "bloom(prefix=bloom)", "bloom(prefix=fixed 3)",
		`bloom(prefix=delim:\x4)`} {
		_, err := ParsePolicyList([]byte(bad))
		if se, ok := err.(*specError); !ok || se.unsupported {
			t.Errorf("%q should be invalid: %v", bad, err)
		}
	}
	for _, unsup := range []string{"ribbon(bits=10)", "bloom(bits=7.5)", "bloom(bits=10);myplugin", "bloom(prefix=myextractor:3)"} {
		_, err := ParsePolicyList([]byte(unsup))
		if se, ok := err.(*specError); !ok || !se.unsupported {
			t.Errorf("%q should be unsupported: %v", unsup, err)
		}
	}
}

func TestBits(t *testing.T) {
	for spec, want := range map[string]uint32{"bloom(bits=0)": 0, "bloom(bits=1000)": 1000, "bloom(bits=7.000)": 7,
		"bloom(bits=7.)": 7, "bloom(bits=1000.0)": 1000, `bloom(bits=\x31\x30)`: 10, "bloom": 10, "bloom()": 10} {
		if b := bloomOf(t, spec); b.Bits != want {
			t.Errorf("%s: bits %d, want %d", spec, b.Bits, want)
		}
	}
}

func TestExtractorsAndNames(t *testing.T) {
	for spec, want := range map[string]Extractor{
		"fixed:3": {Kind: Fixed, N: 3}, `fixed:\x33`: {Kind: Fixed, N: 3}, "capped:007": {Kind: Capped, N: 7},
		"delim::": {Kind: Delim, C: ':'}, `delim:\`: {Kind: Delim, C: '\\'}, `delim:\x2c`: {Kind: Delim, C: ','},
		`lastdelim:\xFF`: {Kind: LastDelim, C: 0xff}, "delim:\xfe": {Kind: Delim, C: 0xfe},
	} {
		if e, err := ParseExtractor([]byte(spec)); err != nil || e != want {
			t.Errorf("%s: %+v %v", spec, e, err)
		}
	}
	for spec, want := range map[string]string{"fixed:3": "fixed3", "capped:12": "capped12", "delim::": "delim:",
		`delim:\x00`: `delim\x00`, `delim:\x5c`: `delim\x5c`, `delim:\x20`: `delim\x20`, `lastdelim:\xff`: `lastdelim\xff`} {
		if e, _ := ParseExtractor([]byte(spec)); e.Name() != want {
			t.Errorf("%s: name %s, want %s", spec, e.Name(), want)
		}
	}
	for spec, want := range map[string]string{"bloom(bits=10)": "_bf", "bloom(whole_key=0)": "_bf:wh=0",
		"bloom(bits=10,prefix=fixed:3,whole_key=0)": "_bf:p=fixed3:wh=0", `bloom(prefix=delim:\x3a)`: "_bf:p=delim:"} {
		if n := bloomOf(t, spec).Name(); n != want {
			t.Errorf("%s: name %s, want %s", spec, n, want)
		}
	}
	if b := bloomOf(t, `bloom(prefix=delim:\x2c,bits=4)`); b.Bits != 4 || *b.Extractor != (Extractor{Kind: Delim, C: ','}) {
		t.Errorf("escaped ',': %+v", b)
	}
}

// TestPrefixLengths is SPEC 4's table, POINT and PREFIX, with its edges.
func TestPrefixLengths(t *testing.T) {
	none := -1
	cases := []struct {
		e      Extractor
		target Target
		key    string
		want   int
	}{
		{Extractor{Kind: Fixed, N: 3}, Point, "ab", none},
		{Extractor{Kind: Fixed, N: 3}, Point, "abc", 3},
		{Extractor{Kind: Fixed, N: 3}, Point, "", none},
		{Extractor{Kind: Fixed, N: 3}, Prefix, "abcd", 3},
		{Extractor{Kind: Fixed, N: 3}, Prefix, "ab", none},
		{Extractor{Kind: Capped, N: 3}, Point, "", 0},
		{Extractor{Kind: Capped, N: 3}, Point, "ab", 2},
		{Extractor{Kind: Capped, N: 3}, Point, "abcd", 3},
		{Extractor{Kind: Capped, N: 3}, Prefix, "ab", none},
		{Extractor{Kind: Capped, N: 3}, Prefix, "abc", 3},
		{Extractor{Kind: Capped, N: 3}, Prefix, "", none},
		{Extractor{Kind: Delim, C: ':'}, Point, "a:b:c", 2},
		{Extractor{Kind: Delim, C: ':'}, Point, ":", 1},
		{Extractor{Kind: Delim, C: ':'}, Prefix, "a:b", 2},
		{Extractor{Kind: Delim, C: ':'}, Point, "abc", none},
		{Extractor{Kind: Delim, C: ':'}, Prefix, "", none},
		{Extractor{Kind: Delim, C: 0}, Point, "a\x00b", 2},
		{Extractor{Kind: LastDelim, C: ':'}, Point, "a:b:c", 4},
		{Extractor{Kind: LastDelim, C: ':'}, Point, "abc", none},
		{Extractor{Kind: LastDelim, C: ':'}, Prefix, "a:b:", none},
	}
	for _, c := range cases {
		n, ok := c.e.PrefixLen(c.target, []byte(c.key))
		if !ok {
			n = none
		}
		if n != c.want {
			t.Errorf("%s target %d of %q: %d, want %d", c.e.Spec(), c.target, c.key, n, c.want)
		}
	}
}
