package main

import (
	"sort"
	"strings"
	"testing"

	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/vfs"
)

func opts(t *testing.T, kv ...string) (Options, *failure) {
	t.Helper()
	var pairs []option
	for i := 0; i < len(kv); i += 2 {
		pairs = append(pairs, option{kv[i], []byte(kv[i+1])})
	}
	return ParseOptions(pairs)
}

func TestDefaultsAndOverrides(t *testing.T) {
	o, f := opts(t)
	if f != nil || o.Policy == nil || o.Policy.Bits != 10 || o.MemtableBytes != 64<<10 || o.SSTBytes != 64<<10 || o.BlockBytes != 4<<10 {
		t.Fatalf("defaults: %+v %v", o, f)
	}
	o, f = opts(t, "policies", "bloom(bits=8,prefix=fixed:3,whole_key=0)", "memtable_bytes", "400", "block_bytes", "8192",
		"sst_bytes", "1000", "l0_trigger", "2", "max_runs", "3", "min_filter_keys", "0", "legacy_filters", "0",
		"rocksdb.block_cache", "x", "compactor", "bloom(bits=8, whole_key=0, prefix=fixed:3)")
	if f != nil || o.MemtableBytes != 400 || o.BlockBytes != 8192 || o.SSTBytes != 1000 || *o.Extractor() != (Extractor{Kind: Fixed, N: 3}) {
		t.Fatalf("overrides: %+v %v", o, f)
	}
	if o, f = opts(t, "policies", "none"); f != nil || o.Policy != nil || o.Extractor() != nil {
		t.Errorf("none: %+v %v", o, f)
	}
}

func TestRefusals(t *testing.T) {
	for _, c := range []struct{ kind, key, value string }{
		{"invalid", "nosuch", "1"},
		{"invalid", "memtable_bytes", "0"},
		{"invalid", "memtable_bytes", "-1"},
		{"invalid", "sst_bytes", "x"},
		{"invalid", "legacy_filters", "2"},
		{"invalid", "policies", "bloom(bits="},
		{"unsupported", "legacy_filters", "1"},
		{"unsupported", "min_filter_keys", "1"},
		{"unsupported", "policies", "bloom(bits=7.5)"},
		{"unsupported", "policies", "bloom(bits=10);bloom(bits=8)"},
		{"unsupported", "policies", "bloom(bits=10,prefix=fixed:3)"},
		{"unsupported", "policies", "bloom(bits=10,whole_key=0)"},
		{"unsupported", "policies", "bloom(bits=10,prefix=lastdelim:/,whole_key=0)"},
		{"unsupported", "policies", "mine(bits=10)"},
		{"unsupported", "compactor", "none"},
		{"unsupported", "compactor", "bloom(bits=9)"},
	} {
		_, f := opts(t, c.key, c.value)
		if f == nil || f.kind != c.kind {
			t.Errorf("%s=%s: %v, want %s", c.key, c.value, f, c.kind)
		}
	}
}

func TestPebbleOptions(t *testing.T) {
	o, _ := opts(t, "policies", "bloom(bits=7,prefix=delim:/,whole_key=0)", "sst_bytes", "5000", "block_bytes", "512")
	p, _ := newPolicy(o.Policy)
	po := o.pebbleOptions(vfs.NewMem(), p, newLogger())
	if po.FormatMajorVersion != pebble.FormatFlushableIngestExcises || !po.DisableWAL || !po.DisableAutomaticCompactions ||
		po.Experimental.ReadSamplingMultiplier != -1 {
		t.Errorf("determinism settings: %+v", po)
	}
	if po.TargetFileSizes[0] != unbounded || po.FlushSplitBytes != unbounded {
		t.Errorf("L0: %d %d", po.TargetFileSizes[0], po.FlushSplitBytes)
	}
	for i := range po.Levels {
		l := po.Levels[i]
		if l.FilterPolicy != p || l.FilterType != pebble.TableFilter || l.BlockSize != 512 || l.Compression().Name != "NoCompression" {
			t.Errorf("level %d: %+v", i, l)
		}
		if i > 0 && po.TargetFileSizes[i] != 5000 {
			t.Errorf("TargetFileSizes[%d] = %d", i, po.TargetFileSizes[i])
		}
	}
	if po.Filters[p.Name()] != p || p.Name() != "rocksdb.BuiltinBloomFilter" {
		t.Errorf("Filters: %v", po.Filters)
	}
	c := po.Comparer
	if c.Name != pebble.DefaultComparer.Name {
		t.Errorf("comparer name %s", c.Name)
	}
	for k, want := range map[string]int{"a/b/c": 2, "/": 1, "abc": 3, "": 0} {
		if n := c.Split([]byte(k)); n != want {
			t.Errorf("Split(%q) = %d, want %d", k, n, want)
		}
	}
	o, _ = opts(t, "policies", "none")
	p, _ = newPolicy(o.Policy)
	po = o.pebbleOptions(vfs.NewMem(), p, newLogger())
	if po.Levels[0].FilterPolicy != nil || len(po.Filters) != 0 || po.Comparer != nil {
		t.Errorf("none: %+v", po.Levels[0])
	}
	if memTableSize(1<<40) != 1<<30 || memTableSize(100) != 8<<20 {
		t.Errorf("memTableSize: %d %d", memTableSize(1<<40), memTableSize(100))
	}
}

// TestSplitContract checks Split's ordering rule (Compare(a, b) <= 0 gives
// Compare(prefix(a), prefix(b)) <= 0) for the extractors the adapter maps,
// keys without a prefix split whole, over every short key of a small
// alphabet; lastdelim, refused, breaks it.
func TestSplitContract(t *testing.T) {
	var keys [][]byte
	var gen func(prefix []byte, depth int)
	gen = func(prefix []byte, depth int) {
		keys = append(keys, append([]byte(nil), prefix...))
		if depth == 0 {
			return
		}
		for _, c := range []byte{'a', ':', 'z'} {
			gen(append(prefix, c), depth-1)
		}
	}
	gen(nil, 4)
	check := func(e Extractor) bool {
		split := splitComparer(e).Split
		for _, a := range keys {
			for _, b := range keys {
				if string(a) <= string(b) && string(a[:split(a)]) > string(b[:split(b)]) {
					return false
				}
			}
		}
		return true
	}
	for _, e := range []Extractor{{Kind: Fixed, N: 2}, {Kind: Capped, N: 2}, {Kind: Delim, C: ':'}} {
		if !check(e) {
			t.Errorf("%s breaks Split's ordering rule", e.Spec())
		}
	}
	if check(Extractor{Kind: LastDelim, C: ':'}) {
		t.Error("lastdelim:: should break Split's ordering rule")
	}
}

// TestImmediateSuccessor checks Pebble's contract for it under each Split
// the adapter maps: for every prefix key a of a small alphabet, k =
// ImmediateSuccessor(a) is a prefix key above a, and no prefix key lies
// between them.
func TestImmediateSuccessor(t *testing.T) {
	var keys []string
	var gen func(prefix string, depth int)
	gen = func(prefix string, depth int) {
		keys = append(keys, prefix)
		if depth == 0 {
			return
		}
		for _, c := range []string{"\x00", "a", ":", ";", "\xff"} {
			gen(prefix+c, depth-1)
		}
	}
	gen("", 4)
	sort.Strings(keys)
	for _, e := range []Extractor{{Kind: Fixed, N: 2}, {Kind: Capped, N: 3}, {Kind: Delim, C: ':'}} {
		c := splitComparer(e)
		isPrefix := func(k string) bool { return c.Split([]byte(k)) == len(k) }
		for _, a := range keys {
			if !isPrefix(a) || strings.Trim(a, "\xff") == "" {
				continue
			}
			k := string(c.ImmediateSuccessor(nil, []byte(a)))
			if !isPrefix(k) || k <= a {
				t.Fatalf("%s: ImmediateSuccessor(%q) = %q: not a prefix key above it", e.Spec(), a, k)
			}
			for _, b := range keys {
				if b > a && b < k && isPrefix(b) {
					t.Fatalf("%s: ImmediateSuccessor(%q) = %q, but %q is a prefix key between", e.Spec(), a, k, b)
				}
			}
		}
	}
}
