# fixed-in: 9.7.0
# Known upstream RocksDB bug rocksdb-memtable-bloom-old-extractor (known.txt):
# on RocksDB 7.8.3 both seeks miss abc:u1 and abc:u2 (P2).  The memtable was
# made under FixedPrefix(5) with a prefix bloom (memtable_prefix_bloom), so
# its bloom holds "abc:u".  SetOptions switches to FixedPrefix(3), and the
# seeks are in prefix mode under it (prefix "abc").  But the memtable's
# iterator keeps the memtable's own extractor (7.8.3 db/memtable.cc:110, 374,
# 385-389): Seek probes its bloom with the old prefix of the seek key,
# "abc:a" (SeekForPrev: "abc:x"), gets a miss and skips the memtable
# (db/memtable.cc:423-436, 445-456), so the keys that share the new prefix are
# never seen.  Without the memtable bloom (ratio 0) the results are right.
# Fixed upstream in RocksDB 9.7.0 by pull request 13026
# (https://github.com/facebook/rocksdb/pull/13026, commit a1a102ffcefa, HISTORY
# 9.7.0 Bug Fixes: "Fix handling of dynamic change of prefix_extractor with
# memtable prefix filter"): a memtable iterator uses the bloom only when the
# extractor in force is the memtable's.  On filterlab's engine this replays
# clean.
filterlab-workload 1
open policies="bloom(bits=10,prefix=fixed:5)" memtable_bytes=100000 rocksdb.memtable_prefix_bloom=0.1
put abc:u1 1
put abc:u2 2
set_options policies="bloom(bits=10,prefix=fixed:3)"
seek abc:a0 n=5
seek_for_prev abc:x0 n=5
