# RocksDB (SPEC 15) and filterlab's engine alike: two checks of the RocksDB
# engine that cried wolf, found by `filterlab check --engine rocksdb` and
# shrunk.  (1) A seek_for_prev over a key with many versions: RocksDB's
# DBIter seeks forward to the newest version (FindValueForCurrentKeyUsingSeek)
# and turns back, and its merging iterator re-seeks every other source
# without counting it in seek_child_seek_count, so its SST filter probes
# are not bounded by the counted seeks (seed 3, trial 16).  (2) Lowering
# memtable_bytes by set_options from a huge value: a smaller RocksDB write
# buffer made RocksDB switch memtables by itself, so a get probed two
# memtable blooms (seed 4, trial 77); the engine now never shrinks the
# write buffer of an open database.  Both must replay clean on both engines.
filterlab-workload 1
open policies=bloom(bits=13.379)
put a ""
set_options policies=bloom(bits=13.379,prefix=fixed:1)
flush
put "" ""
flush
put "" ""
flush
del a
put a ""
put a ""
put a ""
put a ""
put a ""
put a ""
put a ""
seek_for_prev a
reopen policies=bloom(prefix=fixed:1) rocksdb.memtable_prefix_bloom=0.05 memtable_bytes=134217728
set_options memtable_bytes=60
put "" ""
put "" ""
get a
