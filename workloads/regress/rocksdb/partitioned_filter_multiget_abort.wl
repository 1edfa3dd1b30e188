# fixed-in: 10.6.0
# A RocksDB bug found by filterlab, open upstream: known.txt entry
# rocksdb-partitioned-filter-multiget-empty-partition.  Found by
#   filterlab check --engine rocksdb --seed 1 --trial 262
# (P10, signal 6; shrunk from 743 ops to 6 under filterlab's delim:\x00
# extractor; then by hand to RocksDB's own FixedPrefix(2), so no filterlab
# object runs inside RocksDB).
# With partitioned filters, whole_key_filtering=false and a prefix
# extractor, a filter partition holds only the prefixes of its keys that are
# in the extractor's domain.  block_size=1 and metadata_block_size=1 make a
# data block per key and a partition per block: after the partition of "00"
# come partitions of the 1-byte keys a, b, c only, which FixedPrefix(2)
# leaves out of its domain: empty filters, and an empty Ribbon filter is 0
# bytes (FinishAlwaysFalse, 7.8.3 table/block_based/filter_policy.cc:51-54,
# 625-631), so the partition index points at a 0-size block.  A batched
# MultiGet (rocksdb.get=multiget: rocksdb_batched_multi_get_cf) of b looks b
# up in the partition index before anything asks whether b is in the
# domain, gets that 0-size handle, and reaches
#   table/block_based/partitioned_filter_block.cc:398-402 (7.8.3)
#     if (UNLIKELY(this_filter_handle.size() == 0)) {  // key is out of range
#       // Not reachable with current behavior of GetFilterPartitionHandle
#       assert(false);
#       range->SkipKey(iter);
# and aborts (Debian builds 7.8.3 with assertions on).  Without assertions
# it skips b: MultiGet answers NotFound for a key the SST holds (a P2).
# Get (rocksdb.get=get) asks InDomain first and passes; so do, on 7.8.3, a
# Bloom filter (5 bytes for no keys), whole_key=1, partition_filters=0 and
# larger blocks for these four keys (with 2,000 keys, default block and
# metadata sizes abort too).  Index shortening, format_version 3-5 and
# cache_index_and_filter_blocks change nothing.
# Four keys, not three: RocksDB >= 9.6 no longer writes an empty last
# partition, so b's must be in the middle.
# fixed-in 10.6.0 is when this workload stops failing, not a fix: since
# 10.6.0 (pull request 13881) decouple_partitioned_filters=true is the
# default, which cuts a filter partition only once it holds entries, so no
# partition is empty.  The reader is unchanged on main (1dfa729793,
# partitioned_filter_block.cc:547-551): with decouple_partitioned_filters=
# false (deprecated, honoured; filterlab does not map it) main aborts the
# same way, with a Bloom filter too (0 bytes for no keys since 9.6).
# On filterlab's engine this replays clean (get b -> z).  The same in C,
# RocksDB's API only: adapters/rocksdb/examples/partitioned_filter_multiget_abort.c;
# the report: adapters/rocksdb/reports/partitioned_filter_multiget_abort.md.
filterlab-workload 1
open policies="bloom(prefix=fixed:2,whole_key=0)" block_bytes=1 rocksdb.filter=ribbon rocksdb.partition_filters=1 rocksdb.metadata_block_size=1 rocksdb.get=multiget
put 00 x
put a y
put b z
put c w
flush
get b
