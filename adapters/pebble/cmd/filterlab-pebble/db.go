package main

// The session: one open Pebble database, the requests that run it, and what
// the adapter counts about it.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"sort"

	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/vfs"
)

// rotationWatch: once the adapter's estimate of Pebble's memtable arena use
// since the last flush passes it, every write is followed by a look at
// Pebble's metrics for a memtable rotation Pebble made on its own (its
// first memtable is 256 KiB: open.go:274-277).
const rotationWatch = 160 << 10

// arenaOverhead over-estimates what Pebble's memtable arena takes per entry
// beyond key and value (a skiplist node of 24 bytes, its tower of 8 bytes
// per level, the 8-byte trailer).
const arenaOverhead = 64

// tableKey names a table in the process: its DIR and table number.
type tableKey struct {
	dir string
	num uint64
}

// tableIDs gives every table the adapter shows an id unique in the process.
type tableIDs struct {
	ids  map[tableKey]uint64
	back map[uint64]tableKey
	next uint64
}

func (t *tableIDs) id(k tableKey) uint64 {
	if id, ok := t.ids[k]; ok {
		return id
	}
	t.next++
	t.ids[k] = t.next
	t.back[t.next] = k
	return t.next
}

// counters are the session's, restarted at every open.
type counters struct {
	// filterlab's counters by the read's kind, [negative, positive]: the
	// SSTs each read probed (perTable), every probe (wrapped)
	perTable, wrapped    [2][2]uint64
	flushes, compactions uint64
	sstsWritten          uint64
}

type readKind int

// The kinds of read, as filterlab's counters split them: a get's probes
// are point probes, every other read's prefix probes (a total-order read
// should make none: any it makes are counted where the checker sees them).
const (
	pointRead readKind = iota
	prefixRead
	otherRead = prefixRead
)

// session is one open database.
type session struct {
	dir    string
	fs     vfs.FS
	path   string // the database's directory in fs
	db     *pebble.DB
	opts   Options
	ext    *Extractor
	probed *probedPolicy
	ids    *tableIDs

	// bytes written since the last flush, as filterlab counts them, and the
	// adapter's over-estimate of Pebble's arena use
	unflushed, arenaEstimate uint64
	// Pebble's Metrics().Flush.Count after the adapter's last flush
	pebbleFlushes int64

	// the table numbers live after the last open, flush or compaction, and
	// each one's level
	live map[uint64]int
	// the `ssts` listing, kept until the tables change
	listing []string

	c counters
	// Pebble's filter counters at open, for the raw totals
	hits0, misses0 int64
}

// failure is the one error reply: `err KIND MESSAGE`.
type failure struct {
	kind, msg string
}

func (f *failure) Error() string { return f.kind + " " + f.msg }

// engineFailure is a Pebble error: `err corrupt` for corruption, else
// `err io`.
func engineFailure(what string, err error) *failure {
	kind := "io"
	if errors.Is(err, pebble.ErrCorruption) {
		kind = "corrupt"
	}
	return &failure{kind: kind, msg: fmt.Sprintf("%s: pebble: %v", what, err)}
}

func openSession(dir string, fs vfs.FS, path string, opts Options, ids *tableIDs) (*session, *failure) {
	probed, f := newPolicy(opts.Policy)
	if f != nil {
		return nil, f
	}
	s := &session{dir: dir, fs: fs, path: path, opts: opts, ext: opts.Extractor(), probed: probed, ids: ids}
	db, err := pebble.Open(path, opts.pebbleOptions(fs, s.probed, newLogger()))
	if err != nil {
		probed.free()
		return nil, engineFailure("open", err)
	}
	s.db = db
	m := db.Metrics()
	s.hits0, s.misses0, s.pebbleFlushes = m.Filter.Hits, m.Filter.Misses, m.Flush.Count
	tables, err := db.SSTables()
	if err != nil {
		db.Close()
		probed.free()
		return nil, engineFailure("open", err)
	}
	s.live = tableSet(tables)
	return s, nil
}

func tableSet(levels [][]pebble.SSTableInfo) map[uint64]int {
	set := make(map[uint64]int)
	for level, ts := range levels {
		for _, t := range ts {
			set[uint64(t.FileNum)] = level
		}
	}
	return set
}

// tablesChanged notes the tables after a flush or compaction: it returns
// how many are new and how many of those are in L0.
func (s *session) tablesChanged() (added, addedL0 int, f *failure) {
	tables, err := s.db.SSTables()
	if err != nil {
		return 0, 0, engineFailure("listing the tables", err)
	}
	now := tableSet(tables)
	moved := false
	for level, ts := range tables {
		for _, t := range ts {
			was, ok := s.live[uint64(t.FileNum)]
			if !ok {
				added++
				if level == 0 {
					addedL0++
				}
			} else if was != level {
				moved = true // a move compaction: the same table, another level
			}
		}
	}
	if added > 0 || moved || len(now) != len(s.live) {
		s.listing = nil
	}
	s.live = now
	s.c.sstsWritten += uint64(added)
	return added, addedL0, nil
}

// flush writes the memtable to L0 and waits; a flush that made a table is
// counted.
func (s *session) flush() *failure {
	if err := s.db.Flush(); err != nil {
		return engineFailure("flush", err)
	}
	s.unflushed, s.arenaEstimate = 0, 0
	s.pebbleFlushes = s.db.Metrics().Flush.Count
	_, addedL0, f := s.tablesChanged()
	if addedL0 > 0 {
		s.c.flushes++
	}
	return f
}

// needPrefix refuses a key Pebble's Split cannot give filterlab's POINT
// prefix: a key without one (shorter than fixed:N, without delim:C's byte)
// would go into Pebble's filter whole, where filterlab's prefix-only filter
// holds nothing for it.
func (s *session) needPrefix(what string, key []byte) *failure {
	if s.ext == nil {
		return nil
	}
	if _, ok := s.ext.PrefixLen(Point, key); ok {
		return nil
	}
	return unsupported("%s %s: the key has no prefix under %s, and Pebble's Comparer.Split must give every key one (its filter would hold this key whole, where filterlab's prefix filter holds nothing for it)", what, show(key), s.ext.Spec())
}

// needSuccessor refuses to write a key whose Split prefix has no prefix key
// above it (capped:N's N 0xff bytes): Comparer.ImmediateSuccessor cannot be
// given for it, and Pebble's prefix iteration would lose the range
// deletions over its keys (prefixSuccessor, options.go).
func (s *session) needSuccessor(what string, key []byte) *failure {
	if s.ext == nil {
		return nil
	}
	split := splitOf(*s.ext)
	p := key[:split(key)]
	if k := prefixSuccessor(split, nil, p); split(k) == len(k) {
		return nil
	}
	return unsupported("%s %s: no key above its prefix %s is a prefix under %s, so Pebble's Comparer.ImmediateSuccessor has no answer for it", what, show(key), show(p), s.ext.Spec())
}

// afterWrite counts a write (its bytes as filterlab counts them, and as
// Pebble's arena may take them) and flushes at memtable_bytes, or when
// Pebble rotated its memtable on its own (then its flush runs in the
// background: the adapter waits for it and flushes the rest, so that the
// tables after the write do not depend on timing).
func (s *session) afterWrite(counted, arena uint64) *failure {
	s.unflushed += counted
	s.arenaEstimate += arena
	if s.unflushed >= s.opts.MemtableBytes {
		return s.flush()
	}
	if s.arenaEstimate >= rotationWatch {
		m := s.db.Metrics()
		if m.MemTable.Count > 1 || m.Flush.Count != s.pebbleFlushes {
			return s.flush()
		}
	}
	return nil
}

func (s *session) put(k, v []byte) *failure {
	if f := s.needPrefix("put", k); f != nil {
		return f
	}
	if f := s.needSuccessor("put", k); f != nil {
		return f
	}
	if err := s.db.Set(k, v, pebble.NoSync); err != nil {
		return engineFailure("put", err)
	}
	n := uint64(len(k) + len(v))
	return s.afterWrite(n+entryOverhead, n+arenaOverhead)
}

func (s *session) del(k []byte) *failure {
	if f := s.needPrefix("del", k); f != nil {
		return f
	}
	if f := s.needSuccessor("del", k); f != nil {
		return f
	}
	if err := s.db.Delete(k, pebble.NoSync); err != nil {
		return engineFailure("del", err)
	}
	n := uint64(len(k))
	return s.afterWrite(n+entryOverhead, n+arenaOverhead)
}

// delrange: an empty range (end <= start) deletes nothing and is not
// written, as in filterlab's engine (engine/db.c, fl_db_delete_range). Its
// bounds need no prefix: a range deletion goes into no filter.
func (s *session) delrange(start, end []byte) *failure {
	if bytes.Compare(end, start) <= 0 {
		return nil
	}
	if err := s.db.DeleteRange(start, end, pebble.NoSync); err != nil {
		return engineFailure("delrange", err)
	}
	n := uint64(len(start) + len(end))
	return s.afterWrite(n+entryOverhead, n+arenaOverhead)
}

// read runs fn and gives what Pebble's filter counters and the wrapper
// noted during it to kind; it returns the probes noted.
func (s *session) read(kind readKind, fn func() *failure) ([]probe, *failure) {
	if kind == pointRead {
		s.probed.setTarget(Point)
	} else {
		s.probed.setTarget(Prefix)
	}
	s.probed.take()
	f := fn()
	raw := s.probed.take()
	probes := perTable(raw)
	for _, p := range raw {
		s.c.wrapped[kind][answer(p)]++
	}
	for _, p := range probes {
		s.c.perTable[kind][answer(p)]++
	}
	return probes, f
}

// answer is 1 for a maybe, 0 for a no.
func answer(p probe) int {
	if p.maybe {
		return 1
	}
	return 0
}

// get is the value of k (nil, false for none) and the probes made.
func (s *session) get(k []byte) (value []byte, found bool, probes []probe, f *failure) {
	if f := s.needPrefix("get", k); f != nil {
		return nil, false, nil, f
	}
	probes, f = s.read(pointRead, func() *failure {
		v, closer, err := s.db.Get(k)
		if errors.Is(err, pebble.ErrNotFound) {
			return nil
		}
		if err != nil {
			return engineFailure("get", err)
		}
		value, found = bytes.Clone(v), true
		if value == nil {
			value = []byte{}
		}
		if err := closer.Close(); err != nil {
			return engineFailure("get", err)
		}
		return nil
	})
	return value, found, probes, f
}

type entry struct{ key, value []byte }

// iterate opens an iterator with opts, positions it with seek, and collects
// entries while keep says so (at most limit, 0 for no limit), stepping with
// next.
func (s *session) iterate(what string, opts *pebble.IterOptions, seek func(*pebble.Iterator) bool,
	next func(*pebble.Iterator) bool, keep func(key []byte) bool, limit int) ([]entry, *failure) {
	it, err := s.db.NewIter(opts)
	if err != nil {
		return nil, engineFailure(what, err)
	}
	var out []entry
	for ok := seek(it); ok && (limit == 0 || len(out) < limit); ok = next(it) {
		if keep != nil && !keep(it.Key()) {
			break
		}
		v, err := it.ValueAndErr()
		if err != nil {
			it.Close()
			return nil, engineFailure(what, err)
		}
		out = append(out, entry{bytes.Clone(it.Key()), bytes.Clone(v)})
	}
	if err := it.Close(); err != nil {
		return nil, engineFailure(what, err)
	}
	return out, nil
}

func first(it *pebble.Iterator) bool { return it.First() }
func next(it *pebble.Iterator) bool  { return it.Next() }
func prev(it *pebble.Iterator) bool  { return it.Prev() }

// successor is the smallest key greater than every key starting with p
// (nil when there is none: p empty or all 0xff).
func successor(p []byte) []byte {
	for i := len(p) - 1; i >= 0; i-- {
		if p[i] != 0xff {
			out := bytes.Clone(p[:i+1])
			out[i]++
			return out
		}
	}
	return nil
}

// scan is [start, end) in total order.
func (s *session) scan(start, end []byte) ([]entry, *failure) {
	if bytes.Compare(start, end) >= 0 {
		return nil, nil
	}
	var out []entry
	_, f := s.read(otherRead, func() *failure {
		var f *failure
		out, f = s.iterate("scan", &pebble.IterOptions{LowerBound: start, UpperBound: end}, first, next, nil, 0)
		return f
	})
	return out, f
}

// prefixIterOptions are the options of a prefix-mode iterator: Pebble reads
// no L6 filter unless asked (file_cache.go:655-662); the adapter asks, so
// that every table's filter is read by prefix reads. (A get cannot ask: Get
// takes no options, so L6 filters are never probed by gets.)
func prefixIterOptions() *pebble.IterOptions {
	return &pebble.IterOptions{UseL6Filters: true}
}

// scanPrefix is the live keys starting with p: by SeekPrefixGE when an
// extractor gives p a PREFIX (Pebble asks the filters for p's prefix, and its
// prefix iteration ends with that prefix), else in total order. Both are
// bounded to [p, successor of p): when p is longer than its prefix, Pebble's
// prefix iteration alone would consider (and probe) tables past p's range
// that hold p's prefix (SeekPrefixGE("a\x01") under capped:1 probes a table
// of "aa"); the bounds keep it to the tables overlapping p's range, as
// filterlab's scan_prefix.
func (s *session) scanPrefix(p []byte) ([]entry, []probe, *failure) {
	var out []entry
	startsWithP := func(k []byte) bool { return bytes.HasPrefix(k, p) }
	if s.ext != nil {
		if _, ok := s.ext.PrefixLen(Prefix, p); ok {
			probes, f := s.read(prefixRead, func() *failure {
				var f *failure
				opts := prefixIterOptions()
				opts.LowerBound, opts.UpperBound = p, successor(p)
				out, f = s.iterate("scan_prefix", opts,
					func(it *pebble.Iterator) bool { return it.SeekPrefixGE(p) }, next, startsWithP, 0)
				return f
			})
			return out, probes, f
		}
	}
	probes, f := s.read(otherRead, func() *failure {
		var f *failure
		opts := &pebble.IterOptions{LowerBound: p, UpperBound: successor(p)}
		out, f = s.iterate("scan_prefix", opts, first, next, startsWithP, 0)
		return f
	})
	return out, probes, f
}

// seek is up to n entries from k, forward (keys >= k, ascending) or
// backward (keys <= k, descending). Prefix mode (prefix absent or true, an
// extractor in force and k with a POINT prefix P): forward, SeekPrefixGE(k),
// whose iteration ends at the end of P; backward, Pebble has no prefix seek,
// so a total-order iterator bounded to keys starting with P, stopping at the
// first key whose own prefix is not P: it probes no filter. The probes made
// come back with the entries.
func (s *session) seek(k []byte, n int, prefix *bool, backward bool) ([]entry, []probe, *failure) {
	plen, prefixMode := 0, false
	if s.ext != nil && (prefix == nil || *prefix) {
		plen, prefixMode = s.ext.PrefixLen(Point, k)
	}
	what := "seek"
	if backward {
		what = "seek_for_prev"
	}
	// keys <= k: below k's immediate successor
	below := append(bytes.Clone(k), 0)
	var out []entry
	kind := otherRead
	if prefixMode {
		kind = prefixRead
	}
	probes, f := s.read(kind, func() *failure {
		var f *failure
		switch {
		case prefixMode && !backward:
			if plen == 0 {
				freshIterators()
			}
			out, f = s.iterate(what, prefixIterOptions(),
				func(it *pebble.Iterator) bool { return it.SeekPrefixGE(k) }, next, nil, n)
		case prefixMode:
			p := k[:plen]
			samePrefix := func(key []byte) bool {
				m, ok := s.ext.PrefixLen(Point, key)
				return ok && bytes.Equal(key[:m], p)
			}
			opts := &pebble.IterOptions{LowerBound: p, UpperBound: successor(p)}
			out, f = s.iterate(what, opts,
				func(it *pebble.Iterator) bool { return it.SeekLT(below) }, prev, samePrefix, n)
		case !backward:
			out, f = s.iterate(what, &pebble.IterOptions{},
				func(it *pebble.Iterator) bool { return it.SeekGE(k) }, next, nil, n)
		default:
			out, f = s.iterate(what, &pebble.IterOptions{},
				func(it *pebble.Iterator) bool { return it.SeekLT(below) }, prev, nil, n)
		}
		return f
	})
	return out, probes, f
}

// freshIterators empties Pebble's pool of iterators (sync.Pool keeps what
// survives one garbage collection until the next), so that the next
// iterator is a new one, as in a process that never iterated. Before a
// SeekPrefixGE of a key whose prefix is empty: Pebble v2.1.7 then iterates
// as SeekGE when the iterator's prefix buffer is nil, as a new iterator's
// is, and right when it is a pooled one's (known bug
// pebble-seek-prefix-empty, adapters/pebble/known.txt). Without this, the
// answer would depend on what ran before in the process, and a finding
// would not reproduce.
func freshIterators() {
	runtime.GC()
	runtime.GC()
}

// compact flushes the memtable (Pebble's Compact would flush a memtable
// overlapping its range itself; the adapter does it first, so that the
// flush is counted), then compacts every table's key range: Pebble's manual
// compaction, level by level down to the last level with tables. Nothing
// when the database has no table.
func (s *session) compact() *failure {
	if f := s.flush(); f != nil {
		return f
	}
	tables, err := s.db.SSTables()
	if err != nil {
		return engineFailure("compact", err)
	}
	var smallest, largest []byte
	for _, level := range tables {
		for _, t := range level {
			if smallest == nil || bytes.Compare(t.Smallest.UserKey, smallest) < 0 {
				smallest = t.Smallest.UserKey
			}
			if largest == nil || bytes.Compare(t.Largest.UserKey, largest) > 0 {
				largest = t.Largest.UserKey
			}
		}
	}
	if smallest == nil {
		return nil
	}
	before := s.db.Metrics().Compact.Count
	if err := s.db.Compact(context.Background(), bytes.Clone(smallest), append(bytes.Clone(largest), 0), false); err != nil {
		return engineFailure("compact", err)
	}
	s.c.compactions += uint64(s.db.Metrics().Compact.Count - before)
	_, _, f := s.tablesChanged()
	return f
}

// close flushes the memtable (without a WAL, Pebble would drop it; so does
// filterlab's engine at close), then closes the database.
func (s *session) close() *failure {
	f := s.flush()
	if err := s.db.Close(); err != nil && f == nil {
		f = engineFailure("close", err)
	}
	s.probed.free()
	return f
}

// metrics is the reply's NAME=N list.
func (s *session) metrics() []string {
	m := s.db.Metrics()
	c := &s.c
	out := []string{
		fmt.Sprintf("point.considered=%d", c.perTable[pointRead][0]+c.perTable[pointRead][1]),
		fmt.Sprintf("point.positive=%d", c.perTable[pointRead][1]),
		fmt.Sprintf("point.negative=%d", c.perTable[pointRead][0]),
		fmt.Sprintf("prefix.considered=%d", c.perTable[prefixRead][0]+c.perTable[prefixRead][1]),
		fmt.Sprintf("prefix.positive=%d", c.perTable[prefixRead][1]),
		fmt.Sprintf("prefix.negative=%d", c.perTable[prefixRead][0]),
		fmt.Sprintf("flushes=%d", c.flushes),
		fmt.Sprintf("compactions=%d", c.compactions),
		fmt.Sprintf("ssts_written=%d", c.sstsWritten),
		fmt.Sprintf("pebble.probes.point.positive=%d", c.wrapped[pointRead][1]),
		fmt.Sprintf("pebble.probes.point.negative=%d", c.wrapped[pointRead][0]),
		fmt.Sprintf("pebble.probes.prefix.positive=%d", c.wrapped[prefixRead][1]),
		fmt.Sprintf("pebble.probes.prefix.negative=%d", c.wrapped[prefixRead][0]),
		// Pebble's own statistic of its filter checks, every check counted
		// (Hits: the filter said no; Misses: maybe), held by the checker to
		// the counts above
		fmt.Sprintf("checks.positive=%d", m.Filter.Misses-s.misses0),
		fmt.Sprintf("checks.negative=%d", m.Filter.Hits-s.hits0),
	}
	return out
}

// ssts is the listing: L0 newest first (by largest seqnum), then L1..L6,
// each in key order: `sst ID LEVEL SMALLEST LARGEST ENTRIES RTOMBS EXCL
// NAME...`. ENTRIES is the table's point entries (its NumEntries counts its
// range deletion fragments too: sstable/rowblk_writer.go:781,870), RTOMBS
// its range deletion fragments (NumRangeDeletions, one per fragment and
// sequence number, not per delrange).
func (s *session) ssts() ([]string, *failure) {
	if s.listing != nil {
		return s.listing, nil
	}
	tables, err := s.db.SSTables(pebble.WithProperties())
	if err != nil {
		return nil, engineFailure("ssts", err)
	}
	lines := []string{}
	for level, ts := range tables {
		ts = slices.Clone(ts)
		if level == 0 {
			sort.SliceStable(ts, func(i, j int) bool { return ts[i].LargestSeqNum > ts[j].LargestSeqNum })
		}
		for _, t := range ts {
			entries, rtombs := "?", "?"
			name := ""
			if p := t.Properties; p != nil {
				entries = fmt.Sprint(p.NumEntries - p.NumRangeDeletions)
				rtombs = fmt.Sprint(p.NumRangeDeletions)
				name = p.FilterPolicyName
			}
			excl := 0
			if t.Largest.IsExclusiveSentinel() {
				excl = 1
			}
			line := fmt.Sprintf("sst %d %d %s %s %s %s %d", s.ids.id(tableKey{s.dir, uint64(t.FileNum)}), level,
				encode(t.Smallest.UserKey), encode(t.Largest.UserKey), entries, rtombs, excl)
			if name != "" {
				line += " " + encode([]byte(name))
			}
			lines = append(lines, line)
		}
	}
	s.listing = lines
	return lines, nil
}

// sstFile is the path of table id's file (filterlab reads it itself).
func (s *session) sstFile(id uint64) (string, *failure) {
	k, ok := s.ids.back[id]
	_, live := s.live[k.num]
	if !ok || k.dir != s.dir || !live {
		return "", &failure{kind: "notfound", msg: fmt.Sprintf("sst_file: no live table %d", id)}
	}
	tables, err := s.db.SSTables()
	if err != nil {
		return "", engineFailure("sst_file", err)
	}
	for _, level := range tables {
		for _, t := range level {
			if uint64(t.FileNum) != k.num {
				continue
			}
			name := s.fs.PathJoin(s.path, fmt.Sprintf("%s.sst", t.BackingSSTNum))
			return name, nil // (the table's own file)
		}
	}
	return "", &failure{kind: "notfound", msg: fmt.Sprintf("sst_file: no live table %d", id)}
}
