package main

// The option set of `open` (docs/protocol.md; ranges and
// defaults from engine/options.c): every option of the workload's open line
// in force, checked, and mapped to pebble.Options.

import (
	"fmt"
	"io"
	"os"
	"strconv"

	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/bloom"
	"github.com/cockroachdb/pebble/v2/vfs"
)

// Options is one option set, in force after `open`.
type Options struct {
	// Policy is the one bloom, or plugin policy, every table is written
	// with (nil: none).
	Policy *Bloom
	// MemtableBytes: the adapter flushes once this many bytes were written
	// since the last flush, counted as filterlab's memtable counts
	// (engine/memtable.c): key + value + 24 per put or del, start + end + 24
	// per delrange.
	MemtableBytes uint64
	// SSTBytes is Pebble's target file size of compaction output, every
	// level.
	SSTBytes uint64
	// BlockBytes is Pebble's BlockSize, every level.
	BlockBytes uint64
}

// entryOverhead is what filterlab's memtable adds to each write's bytes.
const entryOverhead = 24

// The defaults of filterlab's options (engine/options.c, fl_options_init).
const (
	defaultPolicies      = "bloom(bits=10)"
	defaultMemtableBytes = 64 * 1024
	defaultSSTBytes      = 64 * 1024
	defaultBlockBytes    = 4 * 1024
	// defaultMinFilterKeys is the only min_filter_keys Pebble can honour:
	// it writes a filter for every table with at least one key.
	defaultMinFilterKeys = 0
)

func unsupported(format string, args ...any) *failure {
	return &failure{kind: "unsupported", msg: fmt.Sprintf(format, args...)}
}

func number(key string, value []byte, lo, hi uint64) (uint64, *failure) {
	ok := len(value) > 0
	for _, c := range value {
		ok = ok && c >= '0' && c <= '9'
	}
	v, err := strconv.ParseUint(string(value), 10, 64)
	if !ok || err != nil || v < lo || v > hi {
		return 0, errInvalid("option %s: expected an integer from %d to %d, got %s", key, lo, hi, show(value))
	}
	return v, nil
}

func specFailure(key string, err error) *failure {
	if se, ok := err.(*specError); ok && se.unsupported {
		return unsupported("option %s: %s", key, se.msg)
	}
	return errInvalid("option %s: %v", key, err)
}

// pebblePolicy is the one bloom or plugin policy Pebble writes with, or
// why a list cannot be one. A plugin's policy gets the whole key as Split:
// its filter holds what the plugin makes of the table's keys, and gets ask
// it about whole keys, as in filterlab's engine.
func pebblePolicy(key string, value []byte, list []Bloom) (*Bloom, *failure) {
	if len(list) == 0 {
		return nil, nil
	}
	if len(list) > 1 {
		return nil, unsupported("option %s=%s: Pebble writes every table with one filter policy (Levels[i].FilterPolicy), not a list of %d", key, value, len(list))
	}
	b := list[0]
	switch {
	case b.Plugin != "":
	case b.Extractor == nil && !b.WholeKey:
		return nil, unsupported("option %s=%s: whole_key=0 without a prefix extractor is a filter of nothing; Pebble's filter always holds key[:Split(key)]", key, value)
	case b.Extractor != nil && b.WholeKey:
		return nil, unsupported("option %s=%s: Pebble's filter holds key[:Split(key)] only (the prefix), not whole keys and prefixes in one filter; use whole_key=0 with a prefix", key, value)
	case b.Extractor != nil && b.Extractor.Kind == LastDelim:
		return nil, unsupported("option %s=%s: %s cannot be Pebble's Comparer.Split: its prefixes do not order as their keys (\"a:b:\" < \"a:z\" but prefix \"a:b:\" > prefix \"a:\"), which Split's contract requires", key, value, b.Extractor.Spec())
	}
	return &b, nil
}

// ParseOptions reads the options of an `open` request: filterlab's
// defaults, then each KEY=VALUE in turn.
func ParseOptions(pairs []option) (Options, *failure) {
	o := Options{MemtableBytes: defaultMemtableBytes, SSTBytes: defaultSSTBytes, BlockBytes: defaultBlockBytes}
	policies, _ := ParsePolicyList([]byte(defaultPolicies))
	policiesText := []byte(defaultPolicies)
	var compactor []Bloom
	var compactorText []byte
	for _, p := range pairs {
		key, value := p.key, p.value
		var f *failure
		switch {
		case key == "policies":
			list, err := ParsePolicyList(value)
			if err != nil {
				return o, specFailure(key, err)
			}
			policies, policiesText = list, value
		case key == "compactor":
			list, err := ParsePolicyList(value)
			if err != nil {
				return o, specFailure(key, err)
			}
			compactor, compactorText = list, value
			if compactor == nil {
				compactor = []Bloom{}
			}
		case key == "min_filter_keys":
			var v uint64
			if v, f = number(key, value, 0, 1<<32-1); f == nil && v != defaultMinFilterKeys {
				f = unsupported("option min_filter_keys=%d: Pebble writes a filter for every table that has a key; it has no minimum (only filterlab's default %d can be expressed)", v, defaultMinFilterKeys)
			}
		case key == "memtable_bytes":
			o.MemtableBytes, f = number(key, value, 1, 1<<40)
		case key == "sst_bytes":
			o.SSTBytes, f = number(key, value, 1, 1<<40)
		case key == "block_bytes":
			o.BlockBytes, f = number(key, value, 1, 1<<30)
		case key == "l0_trigger" || key == "max_runs":
			// accepted, no effect: Pebble's automatic compactions are
			// off, so compaction happens only on `compact`
			_, f = number(key, value, 1, 1<<32-1)
		case key == "legacy_filters":
			switch string(value) {
			case "0":
			case "1":
				f = unsupported("option legacy_filters=1: Pebble writes only its full-table filter (fullfilter.NAME); it has no legacy filter format to write")
			default:
				f = errInvalid("option legacy_filters: expected 0 or 1, got %s", show(value))
			}
		case len(key) > len("rocksdb.") && key[:len("rocksdb.")] == "rocksdb.":
			// ignored, as filterlab's engine ignores them
		default:
			f = errInvalid("unknown option %q (known: policies, compactor, min_filter_keys, memtable_bytes, sst_bytes, block_bytes, l0_trigger, max_runs, legacy_filters, rocksdb.*)", key)
		}
		if f != nil {
			return o, f
		}
	}
	if compactor != nil && !sameList(compactor, policies) {
		return o, unsupported("option compactor=%s differs from policies=%s: Pebble writes flushes and compactions with the same filter policy", compactorText, policiesText)
	}
	var f *failure
	o.Policy, f = pebblePolicy("policies", policiesText, policies)
	return o, f
}

func sameList(a, b []Bloom) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !a[i].Equal(b[i]) {
			return false
		}
	}
	return true
}

// Extractor is the extractor in force, if any.
func (o Options) Extractor() *Extractor {
	if o.Policy == nil {
		return nil
	}
	return o.Policy.Extractor
}

// unbounded is a size Pebble never reaches here: L0's target file size and
// flush split bytes (one flush writes one L0 table), the L0 thresholds (no
// write ever stalls on L0).
const unbounded = 1 << 40

// memTableSize is Pebble's MemTableSize for a memtable_bytes: room for what
// filterlab's accounting lets in before the adapter flushes (Pebble's
// arena takes more per entry than the 24 bytes filterlab counts: a skiplist
// node and an 8-byte trailer), and for a 1 MiB value (a batch of more than
// half of MemTableSize would be a flushable batch, flushed by Pebble on its
// own). Pebble's first memtable is still only 256 KiB (open.go:274-277)
// and doubles at each rotation; the adapter handles Pebble's own rotations
// (session.afterWrite).
func memTableSize(memtableBytes uint64) uint64 {
	return min(max(8*memtableBytes+(4<<20), 8<<20), 1<<30)
}

// pebbleOptions maps o onto pebble.Options, on fs, the policy being wrapped
// in probed (nil for none).
func (o Options) pebbleOptions(fs vfs.FS, probed *probedPolicy, logger pebble.Logger) *pebble.Options {
	po := &pebble.Options{
		FS: fs,
		// Its largest table format is TableFormatPebblev4: row blocks, the
		// format filterlab's own reader of Pebble tables will read.
		FormatMajorVersion: pebble.FormatFlushableIngestExcises,
		Logger:             logger,
		// Deterministic: nothing happens in the background that the adapter
		// did not ask for.
		DisableWAL:                  true,
		DisableAutomaticCompactions: true,
		DisableTableStats:           true,
		MemTableSize:                memTableSize(o.MemtableBytes),
		MemTableStopWritesThreshold: 4,
		FlushSplitBytes:             unbounded,
		L0CompactionThreshold:       1 << 30,
		L0CompactionFileThreshold:   1 << 30,
		L0StopWritesThreshold:       1 << 30,
	}
	po.Experimental.ReadSamplingMultiplier = -1 // no read-triggered compactions
	po.ApplyCompressionSettings(func() pebble.DBCompressionSettings { return pebble.DBCompressionNone })
	// L0 (a flush's output) unbounded so that one flush is one table;
	// TargetFileSizes[i] for i >= 1 is Lbase+i-1's: every level below L0.
	po.TargetFileSizes[0] = unbounded
	for i := 1; i < len(po.TargetFileSizes); i++ {
		po.TargetFileSizes[i] = int64(o.SSTBytes)
	}
	for i := range po.Levels {
		po.Levels[i].BlockSize = int(o.BlockBytes)
		po.Levels[i].IndexBlockSize = int(o.BlockBytes)
	}
	if probed != nil {
		po.Filters = map[string]pebble.FilterPolicy{probed.Name(): probed}
		for i := range po.Levels {
			po.Levels[i].FilterPolicy = probed
			po.Levels[i].FilterType = pebble.TableFilter
		}
	}
	if e := o.Extractor(); e != nil {
		po.Comparer = splitComparer(*e)
	}
	return po
}

// newPolicy is Pebble's bloom for b, or the plugin's policy (plugin.go),
// wrapped to note its probes.
func newPolicy(b *Bloom) (*probedPolicy, *failure) {
	if b == nil {
		return nil, nil
	}
	if b.Plugin != "" {
		p, err := newPluginPolicy(b.Plugin)
		if err != nil {
			return nil, errInvalid("option policies: policy spec '%s': %v", b.Plugin, err)
		}
		return newProbedPolicy(p), nil
	}
	return newProbedPolicy(bloom.FilterPolicy(int(b.Bits))), nil
}

// splitComparer is pebble.DefaultComparer with Split answering e's POINT
// prefix length (a plugin's extractor's through the plugin host), under DefaultComparer's own Name on purpose: Pebble then
// opens a database whose tables were written with another Split (or none),
// the hazard filterlab reports. A key without a POINT prefix (shorter than
// fixed:N, without delim:C's byte) is split as a whole key: the adapter
// refuses to write or read such keys (session.needPrefix), and the whole key
// keeps Split's ordering contract for fixed and delim (a key shorter than N,
// or without C, orders against another's prefix exactly as against the
// key).
//
// ImmediateSuccessor must follow Split too: Pebble's contract
// (internal/base/comparer.go) asks for the smallest *prefix key* (Split(k)
// == len(k)) above a prefix, and Pebble's prefix iteration truncates range
// deletions to [prefix, ImmediateSuccessor(prefix)). DefaultComparer's
// (append 0x00) is not a prefix key under a Split that groups keys: with
// it, SeekPrefixGE returns keys a DeleteRange inside the prefix deleted.
func splitComparer(e Extractor) *pebble.Comparer {
	c := *pebble.DefaultComparer
	c.Split = splitOf(e)
	c.ImmediateSuccessor = func(dst, a []byte) []byte {
		return prefixSuccessor(c.Split, dst, a)
	}
	return &c
}

// splitOf is Split for e: its POINT prefix length, the whole key for a key
// without one.
func splitOf(e Extractor) func([]byte) int {
	return func(k []byte) int {
		if n, ok := e.PrefixLen(Point, k); ok {
			return n
		}
		return len(k)
	}
}

// prefixSuccessor appends to dst the smallest prefix key above the prefix
// key a under split: a+0x00 when that is one (the smallest key above a at
// all); else no extension of a is one, and it is the smallest key above
// every extension: a with its last byte below 0xff incremented and the rest
// dropped. A prefix of 0xff bytes alone has none: a+0x00 then.
func prefixSuccessor(split func([]byte) int, dst, a []byte) []byte {
	start := len(dst)
	dst = append(append(dst, a...), 0)
	if split(dst[start:]) == len(a)+1 {
		return dst
	}
	for i := start + len(a) - 1; i >= start; i-- {
		if dst[i] != 0xff {
			dst[i]++
			return dst[:i+1]
		}
	}
	return dst
}

// logger is Pebble's Logger: never stdout (the protocol's channel); stderr
// when FILTERLAB_PEBBLE_LOG=1, else nothing, but a fatal error always.
type logger struct{ w io.Writer }

func newLogger() logger {
	if os.Getenv("FILTERLAB_PEBBLE_LOG") == "1" {
		return logger{os.Stderr}
	}
	return logger{io.Discard}
}

func (l logger) Infof(format string, args ...any) {
	fmt.Fprintf(l.w, "pebble: "+format+"\n", args...)
}

func (l logger) Errorf(format string, args ...any) {
	fmt.Fprintf(l.w, "pebble: error: "+format+"\n", args...)
}

func (l logger) Fatalf(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	fmt.Fprintf(os.Stderr, "pebble: fatal: %s\n", msg)
	panic("pebble: fatal: " + msg)
}
