# fixed-in: none
# The variant of memtable_extractor_freed.wl for a database opened with a
# prefix extractor (known.txt entry rocksdb-memtable-extractor-freed).  The
# extractor set at open is safe -- ColumnFamilyData::initial_cf_options_
# holds it for the column family's life -- but the one a later SetOptions
# installs (fixed:3 here) is owned only by the options and by the table
# readers of SSTs written under it.  The flush makes a memtable (with a
# prefix bloom) that keeps a raw pointer to it; SetOptions drops it, the
# full compaction rewrites the SST and evicts its reader, the last owner;
# the next put calls the freed extractor (MemTable::Add): a crash (P10,
# signal 11).  Without the second SetOptions (the open's extractor only)
# the same ops are clean.  On filterlab's engine this replays clean.
filterlab-workload 1
open policies="bloom(bits=10,prefix=fixed:2)" sst_bytes=1 rocksdb.memtable_prefix_bloom=0.1
set_options policies="bloom(bits=10,prefix=fixed:3)"
put abc 1
flush
set_options policies="bloom(bits=10)"
compact full
put cde 2
