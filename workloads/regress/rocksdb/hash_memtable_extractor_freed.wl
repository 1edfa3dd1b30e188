# fixed-in: none
# A RocksDB bug, not fixed upstream: known.txt entry
# rocksdb-hash-memtable-extractor-freed, one more holder of the raw pointer
# of rocksdb-memtable-extractor-freed (adapters/rocksdb/reports/
# prefix_extractor_lifetimes.md, mode hashrep; the C reproducer is
# adapters/rocksdb/examples/prefix_extractor_lifetimes.c hashrep).
# A hash skiplist memtable rep keeps a raw pointer to the prefix extractor in
# force when its memtable was made (HashSkipListRep::transform_, 7.8.3
# memtable/hash_skiplist_rep.cc), and buckets every key it inserts by it.
# Here the extractor at open (fixed:3, held for the column family's life by
# initial_cf_options_) is replaced by SetOptions with fixed:2, an object
# owned only by shared_ptrs; the flush makes a new memtable, whose rep keeps
# it; SetOptions installs fixed:3 again; `compact full` rewrites the one SST
# written under fixed:2 and evicts its table reader, the last owner.  The
# next put calls the freed extractor from MemTable::Add: heap use after
# free, SIGSEGV (valgrind: "Invalid read of size 8 ... MemTable::Add ...
# free'd by ... BlockBasedTable::Rep::~Rep ... TableCache::Evict").  With
# rocksdb.memtable=skiplist the same ops replay clean; so do they without
# the compaction; hash_linklist crashes the same way.  Every key is at
# least 3 bytes: a hash rep asks no InDomain, and a key outside the
# extractor's domain aborts in Transform (a documented requirement of hash
# reps, not this bug).  On filterlab's engine this replays clean.
filterlab-workload 1
open policies="bloom(bits=10,prefix=fixed:3)" sst_bytes=1 rocksdb.memtable=hash_skiplist
set_options policies="bloom(bits=10,prefix=fixed:2)"
put abc 1
flush
set_options policies="bloom(bits=10,prefix=fixed:3)"
compact full
put cde 2
get cde
