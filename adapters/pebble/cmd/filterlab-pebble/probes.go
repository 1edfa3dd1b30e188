package main

// The filter probes of a read, one by one. The configured bloom (or plugin
// policy, plugin.go) is wrapped in probedPolicy, which keeps its Name (so tables it writes are read back
// through it, Options.Filters being keyed by name) and whose MayContain asks
// the inner policy and notes the filter's length, its FNV-1a 64 and the
// answer. The get and scan_prefix handlers take the notes made during their
// read and report them (`probe LEN HASH maybe|no`), so that the checker can
// tell which SST's filter said what.
//
// Only readers call MayContain (Pebble's flushes and compactions build
// filters, they never probe them), and the adapter reads from one goroutine;
// the mutex is for safety only.

import (
	"bytes"
	"fmt"
	"sync"
	"unsafe"

	"github.com/cockroachdb/pebble/v2"
)

// probe is one MayContain: the filter's length and hash, and its answer;
// at is where the filter's bytes were (one table's filter, for one read).
type probe struct {
	len   int
	hash  uint64
	maybe bool
	at    hashKey
}

// perTable is probes with each table's filter once, at its first probe:
// filterlab counts the SSTs a read probed, and Pebble's merging iterator
// may check one table's filter twice in one read (a re-seek of the lower
// levels past a range deletion, SeekPrefixGE with the same prefix), which
// Pebble's own FilterMetrics count twice. A table is known by where its
// filter's bytes are: its cached block, the same for every check of one
// read (two tables with equal filters are two blocks).
func perTable(probes []probe) []probe {
	var out []probe
	seen := make(map[hashKey]bool, len(probes))
	for _, p := range probes {
		if !seen[p.at] {
			seen[p.at] = true
			out = append(out, p)
		}
	}
	return out
}

// line is the reply's data line: `probe LEN HASH maybe|no`.
func (p probe) line() string {
	answer := "no"
	if p.maybe {
		answer = "maybe"
	}
	return fmt.Sprintf("probe %d %016x %s", p.len, p.hash, answer)
}

// fnv1a64 is FNV-1a 64 of data.
func fnv1a64(data []byte) uint64 {
	h := uint64(0xcbf29ce484222325)
	for _, b := range data {
		h ^= uint64(b)
		h *= 0x100000001b3
	}
	return h
}

// hashCacheLimit bounds the bytes of filters whose hashes are kept.
const hashCacheLimit = 64 << 20

type hashKey struct {
	ptr uintptr
	n   int
}

type hashEntry struct {
	data []byte // a copy: a cached block's memory may be reused for others
	hash uint64
}

// probedPolicy is a filter policy whose MayContain calls are noted; all the
// rest is the inner policy's, as it is.
type probedPolicy struct {
	inner pebble.FilterPolicy

	mu     sync.Mutex
	probes []probe
	// The hash of a filter, by the address and length of the bytes Pebble
	// hands to MayContain (its block cache gives the same bytes to every read
	// of a table's filter), checked against a copy of them.
	hashes    map[hashKey]hashEntry
	hashBytes int
}

var _ pebble.FilterPolicy = (*probedPolicy)(nil)

func newProbedPolicy(inner pebble.FilterPolicy) *probedPolicy {
	return &probedPolicy{inner: inner, hashes: make(map[hashKey]hashEntry)}
}

// Name implements pebble.FilterPolicy: the inner policy's.
func (p *probedPolicy) Name() string { return p.inner.Name() }

// NewWriter implements pebble.FilterPolicy: the inner policy's writer.
func (p *probedPolicy) NewWriter(ftype pebble.FilterType) pebble.FilterWriter {
	return p.inner.NewWriter(ftype)
}

// MayContain implements pebble.FilterPolicy: the inner policy's answer,
// noted.
func (p *probedPolicy) MayContain(ftype pebble.FilterType, filter, key []byte) bool {
	maybe := p.inner.MayContain(ftype, filter, key)
	p.mu.Lock()
	at := hashKey{uintptr(unsafe.Pointer(unsafe.SliceData(filter))), len(filter)}
	p.probes = append(p.probes, probe{len: len(filter), hash: p.hashOf(filter), maybe: maybe, at: at})
	p.mu.Unlock()
	return maybe
}

// hashOf is fnv1a64(filter), cached. Requires p.mu.
func (p *probedPolicy) hashOf(filter []byte) uint64 {
	if len(filter) < 256 {
		return fnv1a64(filter)
	}
	k := hashKey{uintptr(unsafe.Pointer(unsafe.SliceData(filter))), len(filter)}
	if e, ok := p.hashes[k]; ok && bytes.Equal(e.data, filter) {
		return e.hash
	}
	h := fnv1a64(filter)
	if p.hashBytes+len(filter) > hashCacheLimit {
		clear(p.hashes)
		p.hashBytes = 0
	}
	if old, ok := p.hashes[k]; ok {
		p.hashBytes -= len(old.data)
	}
	p.hashes[k] = hashEntry{data: bytes.Clone(filter), hash: h}
	p.hashBytes += len(filter)
	return h
}

// targeted is a policy that asks its filters as the running read's
// target (a plugin's: POINT for a get, PREFIX for a prefix read).
type targeted interface{ setTarget(Target) }

// setTarget tells the inner policy which read runs, when it asks.
func (p *probedPolicy) setTarget(t Target) {
	if p == nil {
		return
	}
	if in, ok := p.inner.(targeted); ok {
		in.setTarget(t)
	}
}

// free frees what the inner policy holds outside Go (a plugin's), once its
// database is closed.
func (p *probedPolicy) free() {
	if p == nil {
		return
	}
	if in, ok := p.inner.(*pluginPolicy); ok {
		in.free()
	}
}

// take returns the probes noted since the last take, and forgets them.
func (p *probedPolicy) take() []probe {
	if p == nil {
		return nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	out := p.probes
	p.probes = nil
	return out
}
