# pebble/seeks.wl -- seek and seek_for_prev in both modes (SPEC 9) on
# Pebble (docs/pebble.md), from scenarios/seeks.wl with its Split:
# capped:2 with whole_key=0 (Pebble's filters hold key[:Split(key)] only)
# all along, since a Split changed on an open database is a hazard Pebble
# does not detect, not a configuration.  Across flushes and a full
# compaction: prefix-mode seeks (SeekPrefixGE) stop at the first entry of
# another prefix; deleted keys are never returned.  The seek of "" is in
# total order here: in prefix mode it is Pebble's known bug
# pebble-seek-prefix-empty (workloads/regress/pebble/seek_prefix_empty.wl).
filterlab-workload 1
open policies="bloom(bits=10,prefix=capped:2,whole_key=0)" memtable_bytes=100000
put aa1 1
put aa2 2
put ab1 3
put ab2 4
put b 5
flush
put aa3 6
del aa2
put ac1 7
flush
seek aa n=3
seek aa0 n=10
seek ab0 n=10 prefix=0
seek_for_prev ab9 n=10
seek_for_prev ab9 n=10 prefix=0
seek_for_prev aa1 n=2
seek zz n=3
seek_for_prev "" n=3
seek "" n=2 prefix=0
seek q n=5 prefix=1
seek_for_prev zz n=2 prefix=1
seek aa n=10
seek_for_prev b n=10
put a9 x
flush
seek a n=10
compact full
seek a n=3
seek_for_prev b n=3
