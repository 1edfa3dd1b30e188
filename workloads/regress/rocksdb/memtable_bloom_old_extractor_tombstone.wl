# fixed-in: 9.7.0
# Known upstream RocksDB bug rocksdb-memtable-bloom-old-extractor-tombstone
# (known.txt): rocksdb-memtable-bloom-old-extractor's
# other face, a deleted key comes back.  Found by
#   filterlab check --engine rocksdb --known adapters/rocksdb/known.txt --seed 8
# (trial 47; shrunk from 311 ops, keys renamed).  "aa" is flushed to an SST;
# its tombstone goes to a memtable made under CappedPrefix(4) with a prefix
# bloom, which holds "aa".  SetOptions switches to FixedPrefix(2), and the
# seek_for_prev is in prefix mode under it (prefix "aa").  The memtable's
# iterator probes its bloom with its own, old extractor (7.8.3
# db/memtable.cc:385-389, 445-456): CappedPrefix(4) of "aaa" is "aaa", a miss,
# so the memtable is skipped with the tombstone in it, and the SST's "aa"
# is returned (P2: the engine returned 1 item, the model 0).  Without the
# memtable bloom, or without the extractor change, the result is right.
# Fixed upstream in RocksDB 9.7.0 by pull request 13026 (see
# memtable_bloom_old_extractor.wl).  On filterlab's engine this replays clean.
filterlab-workload 1
open policies="bloom(bits=10,prefix=capped:4,whole_key=0)" rocksdb.memtable_prefix_bloom=0.05
put aa v
flush
del aa
set_options policies="bloom(bits=10,prefix=fixed:2,whole_key=0)"
seek_for_prev aaa
