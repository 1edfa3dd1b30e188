# fixed-in: none
# A RocksDB bug found by filterlab, not fixed upstream: known.txt entry
# rocksdb-memtable-extractor-freed.  Found by
#   filterlab check --engine rocksdb --known adapters/rocksdb/known.txt --seed 6
# (trial 185, P10: signal 11; shrunk from 1300 ops, then by hand).
# A memtable keeps a raw pointer to the prefix extractor in force when it
# was made (7.8.3 db/memtable.h:592, memtable.cc:110); the extractor object
# is owned only by shared_ptrs in the column family's options and in the
# table readers of SSTs written under it.  Here the extractor is made by
# SetOptions (line 2 of the ops), the flush makes a new memtable under it
# (with a prefix bloom), SetOptions removes it, and the compaction rewrites
# the one SST made under it (`compact full`: a plain compaction of a lone L0
# file may only move it, as RocksDB >= 8.4 does by default,
# level_compaction_dynamic_level_bytes, and then nothing is evicted) and
# evicts its table reader: the last owner.
# The memtable still points at the freed object, and the next write calls
# it (MemTable::Add, memtable.cc:794-795: InDomain, Transform): heap use
# after free, a crash (valgrind: "Invalid read of size 8 ... free'd by
# BlockBasedTable::Rep::~Rep ... TableCache::Evict").  Gets and prefix
# seeks on that memtable read it too (memtable.cc:427, 448, 1255).  RocksDB
# main (1dfa729793, 2026-08-07) has the same raw pointer (db/memtable.h:959,
# memtable.cc:224, 1199-1201), so the bug is open upstream.  Without the
# memtable bloom, or without the extractor change, the run is clean; so is
# one whose only extractor was set at open, which ColumnFamilyData's
# initial_cf_options_ holds for the life of the column family (db/
# column_family.h) -- but a database opened with an extractor is exposed as
# soon as a SetOptions installs another (memtable_extractor_freed_opened.wl).
# On filterlab's engine this replays clean.  The same in C, RocksDB's API
# only: adapters/rocksdb/examples/memtable_extractor_freed.c; the report:
# adapters/rocksdb/reports/memtable_extractor_freed.md.
filterlab-workload 1
open policies="bloom(bits=10)" sst_bytes=1 rocksdb.memtable_prefix_bloom=0.1
set_options policies="bloom(bits=10,prefix=fixed:2)"
put ab 1
flush
set_options policies="bloom(bits=10)"
compact full
put cd 2
