# fixed-in: 9.5.0
# RocksDB 7.8.3 bug (fixed upstream in 9.5.0, pull request 12872, commit
# 93b163d1a2d6: "Fix a major bug in which an iterator using prefix filtering
# and SeekForPrev might miss data when the DB is using
# `whole_key_filtering=false` and `partition_filters=true`"):
# with partitioned filters, whole_key_filtering off and a prefix extractor,
# the filter partition builder's prefix-at-partition-boundary handling
# compares against an empty last prefix (7.8.3
# table/block_based/full_filter_block.cc:85 keeps the last prefix only with
# whole-key filtering; partitioned_filter_block.cc:80-90), so a SeekForPrev
# whose target lies just past a partition's last key is answered "no" by the
# wrong partition and misses the key (P2).  Here each 128-byte partition
# holds ten keys: `seek_for_prev 0009a` must return 0009 and returns nothing.
# It needs index_shortening=kNoShortening (RocksDB's default shortened index
# separators hide it); whole_key=1 or partition_filters=0 make it pass.
filterlab-workload 1
open policies="bloom(bits=50,prefix=fixed:4,whole_key=0)" rocksdb.partition_filters=1 rocksdb.metadata_block_size=128 rocksdb.index_shortening=none block_bytes=128
put 0000 xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
put 0001 xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
put 0002 xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
put 0003 xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
put 0004 xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
put 0005 xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
put 0006 xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
put 0007 xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
put 0008 xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
put 0009 xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
put 0010 xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
flush
seek_for_prev 0009a
