// Command filterlab-pebble is filterlab's engine protocol (docs/protocol.md, "Engines
// in any language") spoken for Pebble (github.com/cockroachdb/pebble/v2
// v2.1.7): a translator that maps each request onto Pebble's public API and
// reports what Pebble did, every judgement staying in filterlab's checker.
// docs/pebble.md has the mapping, the refusals and Pebble's
// counting rules.
//
// One request loop: read a line, dispatch on its first word to the one
// function of that verb, write its one reply (data lines, then `ok ...`; or
// one `err KIND MESSAGE`), flushed when no request is waiting, and before
// any request but `metrics` and `ssts`.
package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/cockroachdb/pebble/v2/vfs"
)

// release is the Pebble release the adapter is built against (go.mod).
const release = "v2.1.7"

const caps = "put,del,delrange,get,scan,scan_prefix,seek,seek_for_prev,flush,compact,ssts,sst_file,probes,plugin"

const counterNames = "point.considered,point.positive,point.negative,prefix.considered,prefix.positive,prefix.negative,flushes,compactions,ssts_written,checks.positive,checks.negative"

// option is one KEY=VALUE word of a request.
type option struct {
	key   string
	value []byte
}

// args are a request's words after the verb: byte strings, and options.
type args struct {
	verb string
	pos  [][]byte
	opts []option
}

func parseArgs(verb string, words [][]byte) (*args, *failure) {
	a := &args{verb: verb}
	for _, w := range words {
		key, value, err := splitOption(w)
		switch {
		case err == errNotOption:
			b, err := decodeBytes(w)
			if err != nil {
				return nil, errInvalid("%s: %v", verb, err)
			}
			a.pos = append(a.pos, b)
		case err != nil:
			return nil, errInvalid("%s: %v", verb, err)
		default:
			a.opts = append(a.opts, option{key, value})
		}
	}
	return a, nil
}

// expect checks for lo..hi byte strings and options among allowed, each at
// most once.
func (a *args) expect(lo, hi int, allowed ...string) *failure {
	if len(a.pos) < lo || len(a.pos) > hi {
		want := strconv.Itoa(lo)
		if hi > lo {
			want += " to " + strconv.Itoa(hi)
		}
		return errInvalid("%s: expected %s byte strings, got %d", a.verb, want, len(a.pos))
	}
	for i, o := range a.opts {
		ok := false
		for _, k := range allowed {
			ok = ok || k == o.key
		}
		if !ok {
			list := "none"
			if len(allowed) > 0 {
				list = strings.Join(allowed, ", ")
			}
			return errInvalid("%s: unexpected option %s= (allowed: %s)", a.verb, o.key, list)
		}
		for _, p := range a.opts[:i] {
			if p.key == o.key {
				return errInvalid("%s: option %s= given twice", a.verb, o.key)
			}
		}
	}
	return nil
}

func (a *args) opt(key string) ([]byte, bool) {
	for _, o := range a.opts {
		if o.key == key {
			return o.value, true
		}
	}
	return nil, false
}

// noContext refuses a filter context: Pebble's filters take none.
func (a *args) noContext() *failure {
	v, ok := a.opt("ctx")
	if !ok {
		return nil
	}
	if _, err := decodeHex(v); err != nil {
		return errInvalid("%s: %v", a.verb, err)
	}
	return unsupported("%s ctx=%s: Pebble's FilterPolicy.MayContain takes no filter context", a.verb, v)
}

// reply is a reply that went through: its data lines, then `ok` and its
// tail.
type reply struct {
	data []string
	tail string
}

func entriesReply(entries []entry) *reply {
	r := &reply{}
	for _, e := range entries {
		b := append([]byte("entry "), appendEncoded(nil, e.key)...)
		b = append(b, ' ')
		r.data = append(r.data, string(appendEncoded(b, e.value)))
	}
	return r
}

func probeLines(probes []probe) []string {
	var out []string
	for _, p := range probes {
		out = append(out, p.line())
	}
	return out
}

// adapter is the state across requests.
type adapter struct {
	s    *session
	ids  tableIDs
	quit bool
}

func newAdapter() *adapter {
	return &adapter{
		ids: tableIDs{ids: make(map[tableKey]uint64), back: make(map[uint64]tableKey)},
	}
}

func (ad *adapter) db() (*session, *failure) {
	if ad.s == nil {
		return nil, errInvalid("no database is open (send open DIR first)")
	}
	return ad.s, nil
}

func (ad *adapter) handle(line []byte) (*reply, *failure) {
	words, err := splitWords(line)
	if err != nil {
		return nil, errInvalid("%v", err)
	}
	if len(words) == 0 {
		return nil, errInvalid("empty request line")
	}
	verb := string(words[0])
	a, f := parseArgs(verb, words[1:])
	if f != nil {
		return nil, f
	}
	switch verb {
	case "hello":
		if f := a.expect(1, 1); f != nil {
			return nil, f
		}
		if string(a.pos[0]) != "1" {
			return nil, errInvalid("hello: this adapter speaks protocol version 1, not %s", show(a.pos[0]))
		}
		return &reply{tail: fmt.Sprintf("1 pebble %s caps=%s counters=%s", release, caps, counterNames)}, nil
	case "open":
		return ad.open(a)
	case "close":
		if f := a.expect(0, 0); f != nil {
			return nil, f
		}
		return ad.close()
	case "quit":
		if f := a.expect(0, 0); f != nil {
			return nil, f
		}
		ad.quit = true
		return ad.close()
	case "metrics":
		if f := a.expect(0, 0); f != nil {
			return nil, f
		}
		if ad.s == nil {
			return &reply{}, nil
		}
		return &reply{tail: strings.Join(ad.s.metrics(), " ")}, nil
	case "plugin":
		if f := a.expect(1, 1); f != nil {
			return nil, f
		}
		if err := loadPlugin(a.pos[0]); err != nil {
			return nil, errInvalid("%v", err)
		}
		return &reply{}, nil
	case "set_options", "multiget", "crash", "sst_entries", "sst_rtombs", "sst_filter_block":
		return nil, unsupported("%s: not offered by the Pebble adapter (not in its caps)", verb)
	}
	s, f := ad.db()
	if f != nil {
		return nil, f
	}
	switch verb {
	case "put":
		if f := a.expect(2, 2); f != nil {
			return nil, f
		}
		return okOr(s.put(a.pos[0], a.pos[1]))
	case "del":
		if f := a.expect(1, 1); f != nil {
			return nil, f
		}
		return okOr(s.del(a.pos[0]))
	case "delrange":
		if f := a.expect(2, 2); f != nil {
			return nil, f
		}
		return okOr(s.delrange(a.pos[0], a.pos[1]))
	case "get":
		if f := a.expect(1, 1, "ctx"); f != nil {
			return nil, f
		}
		if f := a.noContext(); f != nil {
			return nil, f
		}
		v, found, probes, f := s.get(a.pos[0])
		if f != nil {
			return nil, f
		}
		r := &reply{data: probeLines(probes), tail: "none"}
		if found {
			r.tail = "value " + encode(v)
		}
		return r, nil
	case "scan":
		if f := a.expect(2, 2); f != nil {
			return nil, f
		}
		entries, f := s.scan(a.pos[0], a.pos[1])
		if f != nil {
			return nil, f
		}
		return entriesReply(entries), nil
	case "scan_prefix":
		if f := a.expect(1, 1, "ctx"); f != nil {
			return nil, f
		}
		if f := a.noContext(); f != nil {
			return nil, f
		}
		entries, probes, f := s.scanPrefix(a.pos[0])
		if f != nil {
			return nil, f
		}
		r := entriesReply(entries)
		r.data = append(probeLines(probes), r.data...)
		return r, nil
	case "seek", "seek_for_prev":
		return ad.seek(s, a, verb == "seek_for_prev")
	case "flush":
		if f := a.expect(0, 0); f != nil {
			return nil, f
		}
		return okOr(s.flush())
	case "compact":
		if f := a.expect(0, 1); f != nil {
			return nil, f
		}
		if len(a.pos) == 1 && string(a.pos[0]) != "full" {
			return nil, errInvalid("compact: expected nothing or 'full', got %s", show(a.pos[0]))
		}
		return okOr(s.compact())
	case "ssts":
		if f := a.expect(0, 0); f != nil {
			return nil, f
		}
		lines, f := s.ssts()
		if f != nil {
			return nil, f
		}
		return &reply{data: lines}, nil
	case "sst_file":
		if f := a.expect(1, 1); f != nil {
			return nil, f
		}
		id, err := strconv.ParseUint(string(a.pos[0]), 10, 64)
		if err != nil {
			return nil, errInvalid("sst_file: expected an SST id, got %s", show(a.pos[0]))
		}
		path, f := s.sstFile(id)
		if f != nil {
			return nil, f
		}
		return &reply{tail: encode([]byte(path))}, nil
	}
	return nil, errInvalid("unknown request %q", verb)
}

func okOr(f *failure) (*reply, *failure) {
	if f != nil {
		return nil, f
	}
	return &reply{}, nil
}

func (ad *adapter) open(a *args) (*reply, *failure) {
	if len(a.pos) != 1 {
		return nil, errInvalid("open: expected 1 byte string (DIR), got %d", len(a.pos))
	}
	if ad.s != nil {
		return nil, errInvalid("open: a database is open already (close it first)")
	}
	opts, f := ParseOptions(a.opts)
	if f != nil {
		return nil, f
	}
	dir := string(a.pos[0])
	fs, path, f := ad.fsFor(dir)
	if f != nil {
		return nil, f
	}
	s, f := openSession(dir, fs, path, opts, &ad.ids)
	if f != nil {
		return nil, f
	}
	ad.s = s
	return &reply{}, nil
}

// fsFor is where the database at dir lives: Pebble's files in dir/pebble
// on the real filesystem, never synced (the WAL is off and writes are
// NoSync), so that it outlasts the adapter process as any database does
// (filterlab reopens one in another process to measure it, and replay --db
// keeps it). A check trial's dir is on tmpfs (/dev/shm): memory, without
// Pebble's MemFS -- which cost as much here and lived only as long as the
// process.
func (ad *adapter) fsFor(dir string) (vfs.FS, string, *failure) {
	return vfs.Default, filepath.Join(dir, "pebble"), nil
}

func (ad *adapter) close() (*reply, *failure) {
	if ad.s == nil {
		return &reply{}, nil
	}
	s := ad.s
	ad.s = nil
	return okOr(s.close())
}

func (ad *adapter) seek(s *session, a *args, backward bool) (*reply, *failure) {
	if f := a.expect(1, 1, "n", "prefix", "ctx"); f != nil {
		return nil, f
	}
	if f := a.noContext(); f != nil {
		return nil, f
	}
	n := 1
	if v, ok := a.opt("n"); ok {
		x, err := strconv.Atoi(string(v))
		if err != nil || x < 1 || x > 1_000_000 || v[0] < '0' || v[0] > '9' {
			return nil, errInvalid("%s: n= expects 1 to 1000000, got %s", a.verb, show(v))
		}
		n = x
	}
	var prefix *bool
	if v, ok := a.opt("prefix"); ok {
		b := string(v) == "1"
		if !b && string(v) != "0" {
			return nil, errInvalid("%s: prefix= expects 0 or 1, got %s", a.verb, show(v))
		}
		prefix = &b
	}
	entries, probes, f := s.seek(a.pos[0], n, prefix, backward)
	if f != nil {
		return nil, f
	}
	r := entriesReply(entries)
	r.data = append(probeLines(probes), r.data...)
	return r, nil
}

// writeReply writes the plugins' contract violations the request met
// (`violation ...` lines, docs/protocol.md, "Violations"), then the reply: its data
// lines and `ok ...`, or `err KIND MESSAGE` (newlines in MESSAGE made
// spaces).
func writeReply(w *bufio.Writer, r *reply, f *failure) {
	w.Write(takeViolations())
	if f != nil {
		msg := strings.NewReplacer("\n", " ", "\r", " ").Replace(f.msg)
		fmt.Fprintf(w, "err %s %s\n", f.kind, msg)
		return
	}
	for _, line := range r.data {
		w.WriteString(line)
		w.WriteByte('\n')
	}
	if r.tail == "" {
		w.WriteString("ok\n")
	} else {
		w.WriteString("ok ")
		w.WriteString(r.tail)
		w.WriteByte('\n')
	}
}

func main() {
	ad := newAdapter()
	// Our own buffer over stdin, so that the loop sees whether another
	// request is already in: replies are flushed when none is, and before a
	// request that runs Pebble (if the adapter dies there, filterlab names
	// that request).
	in := bufio.NewReaderSize(os.Stdin, 1<<16)
	out := bufio.NewWriterSize(os.Stdout, 1<<16)
	for {
		line, err := in.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			// a long line (values reach 4 MiB quoted): read it whole
			long := append([]byte(nil), line...)
			for err == bufio.ErrBufferFull {
				line, err = in.ReadSlice('\n')
				long = append(long, line...)
			}
			line = long
		}
		if len(line) == 0 && err != nil {
			if err != io.EOF {
				fmt.Fprintf(os.Stderr, "filterlab-pebble: reading stdin: %v\n", err)
			}
			break
		}
		line = bytes.TrimSuffix(line, []byte("\n"))
		query := bytes.HasPrefix(line, []byte("metrics")) || bytes.HasPrefix(line, []byte("ssts"))
		if !query {
			if err := out.Flush(); err != nil {
				fmt.Fprintf(os.Stderr, "filterlab-pebble: writing stdout: %v\n", err)
				os.Exit(1)
			}
		}
		r, f := ad.handle(line)
		writeReply(out, r, f)
		if ad.quit || in.Buffered() == 0 {
			if err := out.Flush(); err != nil {
				fmt.Fprintf(os.Stderr, "filterlab-pebble: writing stdout: %v\n", err)
				os.Exit(1)
			}
		}
		if ad.quit {
			os.Exit(0)
		}
	}
	// EOF: as quit.
	if _, f := ad.close(); f != nil {
		fmt.Fprintf(os.Stderr, "filterlab-pebble: closing at EOF: err %s %s\n", f.kind, f.msg)
	}
	out.Flush()
}
