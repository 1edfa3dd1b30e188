# seek_prefix_empty.wl -- Pebble v2.1.7 (and master f82e3ff7, 2026-05-19):
# SeekPrefixGE of a key whose Split prefix is empty does not iterate in
# prefix mode.  Under capped:1 the empty key's prefix is "" (POINT("") = 0),
# so `seek "" prefix=1` is SeekPrefixGE(""), which must return only keys
# whose prefix is "" -- here none.  Pebble copies the prefix into the
# iterator's buffer (iterator.go, SeekPrefixGE:
# i.prefixOrFullSeekKey[:prefixLen]); a fresh iterator's buffer is nil, so
# the prefix it hands down is nil, and the merging and level iterators
# take a nil prefix for "not prefix iteration" (merging_iter.go:
# `if m.prefix != nil`): the seek is a SeekGE(""), and both keys come back.
# A pooled iterator whose buffer was used before answers right, so inside
# a longer run the same seek may pass or fail (the first `check` finding
# did not reproduce in a process of its own).  Here the seek is the
# process's first iterator: it fails every time.
# On Pebble: `filterlab replay seek_prefix_empty.wl --engine pebble` gives
# P2 at line 24 (exit 1), matched by pebble-seek-prefix-empty of
# adapters/pebble/known.txt.  Found by `filterlab check --engine pebble
# --seed 1` (trial 70).
# fixed-in: none (reported upstream: adapters/pebble/reports/seek_prefix_empty.md)
filterlab-workload 1
open policies="bloom(bits=10,whole_key=0,prefix=capped:1)"
put a1 v1
put b2 v2
seek "" n=8 prefix=1
