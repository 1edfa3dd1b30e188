package main

// Plugins inside Pebble: a user's filter policy and prefix extractor (C
// shared objects against engine/filter.h) as Pebble's FilterPolicy and
// Comparer.Split (docs/pebble.md, "User policies inside Pebble").
//
// Every call goes to filterlab's plugin host (adapters/proc/proc_host.h,
// linked from build/libfilterlab_host.a with cgo), which runs the plugin through
// filterlab's own call wrappers: the same counting, contract checks and
// fail-safe answers as in filterlab's engine. The host is one per process,
// made by the first `plugin` request, never freed, and not thread-safe:
// every call is made with hostMu held. Pebble calls Split, NewWriter's
// writers and MayContain from its own goroutines (flushes, compactions);
// no lock is held while Pebble runs, and nothing called with hostMu held
// calls back into Go, so the lock is only ever waited on, never re-taken.
//
// The violations the host queues are taken after each request and written
// before its reply (main.go).

// The host's archive is linked whole (plugins are dlopen()ed and resolve
// fl_registry_add_policy, fl_buf_append, ... against the executable, which
// nothing in Go calls), here, once: flags in CGO_LDFLAGS are repeated for
// every cgo package of the program. cgo allows --whole-archive only with
// CGO_LDFLAGS_ALLOW; the Makefile gives it, and CGO_LDFLAGS with -L of the
// build directory (tests/cli/pebble.sh gives both to go vet and go test).
// The libraries are the host's, as the SlateDB adapter's build.rs names
// them.

/*
#cgo CFLAGS: -I${SRCDIR}/../../../proc
#cgo LDFLAGS: -Wl,--whole-archive -lfilterlab_host -Wl,--no-whole-archive -lxxhash -ldl -lm -lpthread -Wl,--export-dynamic
#include <stdlib.h>
#include "proc_host.h"

const char *fl_strerror(int status);
*/
import "C"

import (
	"bytes"
	"fmt"
	"sync"
	"unsafe"

	"github.com/cockroachdb/pebble/v2"
)

// The host's target kinds (fl_target_kind).
const (
	kindPoint  = 1
	kindPrefix = 2
)

var (
	hostMu sync.Mutex
	// nil until the first `plugin` request
	host *C.flh_host
	// the plugin extractors made, by spec, never freed (a Comparer holding
	// one may be Pebble's until the process ends)
	extractors = map[string]*C.flh_extractor{}
)

// hostArchive is the checksum of the libfilterlab_host.a linked in, set
// by the Makefile (-X): go decides whether to link again by its flags, not
// by a C library's bytes.
var hostArchive string

// errBufLen is the size of the host's error messages.
const errBufLen = 1024

// hostError is the host's message in err, or rc's description without one.
func hostError(rc C.int, err []C.char) string {
	if msg := C.GoString(&err[0]); msg != "" {
		return msg
	}
	if s := C.fl_strerror(rc); s != nil {
		return C.GoString(s)
	}
	return fmt.Sprintf("status %d", int(rc))
}

// bytesPtr is b's first byte for C (nil for an empty b): borrowed for the
// call, and holding no Go pointer (cgo's rules).
func bytesPtr(b []byte) *C.uint8_t {
	if len(b) == 0 {
		return nil
	}
	return (*C.uint8_t)(unsafe.Pointer(unsafe.SliceData(b)))
}

// loadPlugin is `plugin PATH`: loads a plugin into the host, made on first
// use.
func loadPlugin(path []byte) error {
	if bytes.IndexByte(path, 0) >= 0 {
		return fmt.Errorf("plugin: the path holds a NUL byte")
	}
	hostMu.Lock()
	defer hostMu.Unlock()
	if host == nil {
		var h *C.flh_host
		if rc := C.flh_host_new(&h); rc != 0 || h == nil {
			return fmt.Errorf("plugin: cannot make the plugin host: %s", C.GoString(C.fl_strerror(rc)))
		}
		host = h
	}
	cpath := C.CString(string(path))
	defer C.free(unsafe.Pointer(cpath))
	err := make([]C.char, errBufLen)
	if rc := C.flh_load_plugin(host, cpath, &err[0], errBufLen); rc != 0 {
		return fmt.Errorf("%s", hostError(rc, err))
	}
	return nil
}

// isPluginKind is whether spec's kind is a policy kind (policy true) or an
// extractor kind a plugin registered; false with no plugin loaded.
func isPluginKind(spec []byte, policy bool) bool {
	if bytes.IndexByte(spec, 0) >= 0 {
		return false
	}
	hostMu.Lock()
	defer hostMu.Unlock()
	if host == nil {
		return false
	}
	cspec := C.CString(string(spec))
	defer C.free(unsafe.Pointer(cspec))
	if policy {
		return C.flh_is_plugin_policy(host, cspec) == 1
	}
	return C.flh_is_plugin_extractor(host, cspec) == 1
}

// takeViolations is the protocol lines of the contract violations queued
// since the last call (each ending in '\n'); nil when there are none.
func takeViolations() []byte {
	hostMu.Lock()
	defer hostMu.Unlock()
	if host == nil {
		return nil
	}
	lines := C.flh_take_violations(host)
	if lines == nil {
		return nil
	}
	defer C.flh_free(unsafe.Pointer(lines))
	return []byte(C.GoString(lines))
}

// ---- Extractors ------------------------------------------------------------

// pluginExtractor is the host's extractor of spec, made on first use;
// its error is the host's message.
func pluginExtractor(spec string) (*C.flh_extractor, error) {
	hostMu.Lock()
	defer hostMu.Unlock()
	if x, ok := extractors[spec]; ok {
		return x, nil
	}
	cspec := C.CString(spec)
	defer C.free(unsafe.Pointer(cspec))
	err := make([]C.char, errBufLen)
	var x *C.flh_extractor
	if rc := C.flh_extractor_new(host, cspec, &x, &err[0], errBufLen); rc != 0 || x == nil {
		return nil, fmt.Errorf("%s", hostError(rc, err))
	}
	extractors[spec] = x
	return x, nil
}

// pluginExtractorName is the name the host gives the extractor of spec
// (one ParseExtractor made).
func pluginExtractorName(spec string) string {
	x, err := pluginExtractor(spec)
	if err != nil {
		return spec
	}
	hostMu.Lock()
	defer hostMu.Unlock()
	return C.GoString(C.flh_extractor_name(host, x))
}

// pluginPrefixLen is the prefix length of b asked as target of the
// extractor of spec; ok false when b has none (or the extractor cannot be
// made, which ParseExtractor has ruled out).
func pluginPrefixLen(spec string, target Target, b []byte) (int, bool) {
	x, err := pluginExtractor(spec)
	if err != nil {
		return 0, false
	}
	kind := C.int(kindPoint)
	if target == Prefix {
		kind = kindPrefix
	}
	var n C.size_t
	hostMu.Lock()
	has := C.flh_extractor_prefix_len(host, x, kind, bytesPtr(b), C.size_t(len(b)), &n)
	hostMu.Unlock()
	if has != 1 || uint64(n) > uint64(len(b)) {
		return 0, false
	}
	return int(n), true
}

// ---- Policies, writers, filters ---------------------------------------------

// noFilter is what a writer's Finish writes when the plugin gave no filter
// (its builder or build failed, or its filter encoded to nothing): Pebble
// writes the filter block of every table with a point key, and a table with
// keys and an empty filter block is malformed (adapters/pebble/
// pebble_sst.c). MayContain answers maybe to it without asking the plugin,
// as filterlab's engine answers maybe for a table without a filter.
var noFilter = []byte("filterlab-pebble: no filter (the plugin built none)")

// decodedLimit bounds the bytes of filters kept decoded.
const decodedLimit = 64 << 20

type decoded struct {
	data []byte // a copy: a cached block's memory may be reused for others
	f    *C.flh_filter
}

// pluginPolicy is a plugin's filter policy as Pebble's FilterPolicy: its
// Name is the plugin's (Options.Filters is keyed by it), its writers feed
// the plugin's builder, and MayContain asks the plugin's filter. It is
// wrapped in a probedPolicy like the built-in bloom (probes.go).
type pluginPolicy struct {
	spec string
	name string
	p    *C.flh_policy

	// the read running (setTarget): a get asks the filter POINT, any other
	// read PREFIX (Pebble asks with key[:Split(key)])
	target Target
	// The decoded filters, by the address and length of the bytes Pebble
	// hands to MayContain (its block cache gives the same bytes to every
	// read of a table's filter), checked against a copy of them. Requires
	// hostMu.
	decoded      map[hashKey]decoded
	decodedBytes int
}

var _ pebble.FilterPolicy = (*pluginPolicy)(nil)

// newPluginPolicy is the host's policy of spec; its error is the host's
// message.
func newPluginPolicy(spec string) (*pluginPolicy, error) {
	hostMu.Lock()
	defer hostMu.Unlock()
	if host == nil {
		return nil, fmt.Errorf("no plugin is loaded")
	}
	cspec := C.CString(spec)
	defer C.free(unsafe.Pointer(cspec))
	err := make([]C.char, errBufLen)
	var p *C.flh_policy
	if rc := C.flh_policy_new(host, cspec, &p, &err[0], errBufLen); rc != 0 || p == nil {
		return nil, fmt.Errorf("%s", hostError(rc, err))
	}
	return &pluginPolicy{
		spec:    spec,
		name:    C.GoString(C.flh_policy_name(host, p)),
		p:       p,
		decoded: make(map[hashKey]decoded),
	}, nil
}

// Name implements pebble.FilterPolicy: flh_policy_name.
func (p *pluginPolicy) Name() string { return p.name }

// setTarget says which read runs: MayContain asks the filter as target.
func (p *pluginPolicy) setTarget(t Target) {
	hostMu.Lock()
	p.target = t
	hostMu.Unlock()
}

// NewWriter implements pebble.FilterPolicy: a writer of one table's filter
// (its builder made at the first key).
func (p *pluginPolicy) NewWriter(pebble.FilterType) pebble.FilterWriter {
	return &pluginWriter{p: p}
}

// MayContain implements pebble.FilterPolicy: the plugin's filter decoded
// from filter (cached), asked about key as the running read's target.
func (p *pluginPolicy) MayContain(_ pebble.FilterType, filter, key []byte) bool {
	if len(filter) == 0 || bytes.Equal(filter, noFilter) {
		// a table without a point key (Pebble writes an empty block), or
		// one the plugin built no filter for
		return true
	}
	hostMu.Lock()
	defer hostMu.Unlock()
	kind := C.int(kindPoint)
	if p.target == Prefix {
		kind = kindPrefix
	}
	f := p.decode(filter)
	return C.flh_filter_might_match(host, p.p, f, kind, bytesPtr(key), C.size_t(len(key)), 0, nil, 0) != 0
}

// decode is the plugin's filter of data (nil when it decoded none: it
// answers maybe), cached. Requires hostMu.
func (p *pluginPolicy) decode(data []byte) *C.flh_filter {
	k := hashKey{uintptr(unsafe.Pointer(unsafe.SliceData(data))), len(data)}
	if e, ok := p.decoded[k]; ok && bytes.Equal(e.data, data) {
		return e.f
	}
	var f *C.flh_filter
	C.flh_filter_decode(host, p.p, bytesPtr(data), C.size_t(len(data)), &f)
	if p.decodedBytes+len(data) > decodedLimit {
		p.freeDecoded()
	}
	if old, ok := p.decoded[k]; ok {
		C.flh_filter_free(host, p.p, old.f)
		p.decodedBytes -= len(old.data)
	}
	p.decoded[k] = decoded{data: bytes.Clone(data), f: f}
	p.decodedBytes += len(data)
	return f
}

// freeDecoded frees every decoded filter. Requires hostMu.
func (p *pluginPolicy) freeDecoded() {
	for _, e := range p.decoded {
		C.flh_filter_free(host, p.p, e.f)
	}
	clear(p.decoded)
	p.decodedBytes = 0
}

// free frees the policy and its filters, once Pebble is done with it (its
// database closed).
func (p *pluginPolicy) free() {
	hostMu.Lock()
	defer hostMu.Unlock()
	if p.p == nil {
		return
	}
	p.freeDecoded()
	C.flh_policy_free(host, p.p)
	p.p = nil
}

// pluginWriter is one table's filter being written: the plugin's builder
// (nil before the first key, and when the plugin could not make one).
type pluginWriter struct {
	p       *pluginPolicy
	b       *C.flh_builder
	started bool
}

// AddKey implements pebble.FilterWriter. Pebble hands the writer
// key[:Split(key)] of each point key of the table -- sets, merges and
// deletions alike, and never the entry's kind or value -- so each goes to
// the plugin's builder as a put with an empty value. (The adapter gives a
// plugin policy the whole key as Split: the plugin sees the table's user
// keys, in order.)
func (w *pluginWriter) AddKey(key []byte) {
	hostMu.Lock()
	defer hostMu.Unlock()
	if !w.started {
		w.started = true
		C.flh_builder_new(host, w.p.p, &w.b)
	}
	if w.b != nil {
		C.flh_builder_add(host, w.p.p, w.b, bytesPtr(key), C.size_t(len(key)), 0, nil, 0)
	}
}

// Finish implements pebble.FilterWriter: appends the plugin's encoding of
// the filter it builds (noFilter when it gives none), and starts over.
func (w *pluginWriter) Finish(dst []byte) []byte {
	hostMu.Lock()
	defer hostMu.Unlock()
	var enc []byte
	if w.b != nil {
		var f *C.flh_filter
		C.flh_builder_build(host, w.p.p, w.b, &f)
		C.flh_builder_free(host, w.p.p, w.b)
		if f != nil {
			var out *C.uint8_t
			var n C.size_t
			if rc := C.flh_filter_encode(host, w.p.p, f, &out, &n); out != nil {
				if rc == 0 {
					enc = C.GoBytes(unsafe.Pointer(out), C.int(n))
				}
				C.flh_free(unsafe.Pointer(out))
			}
			C.flh_filter_free(host, w.p.p, f)
		}
	}
	w.b, w.started = nil, false
	if len(enc) == 0 {
		enc = noFilter
	}
	return append(dst, enc...)
}
