# bloom_zero_bits_compaction_hangs.wl -- the compactor's side of
# bloom_zero_bits.wl: SlateDB 0.18.0's compactor, given BloomFilterPolicy::new(0),
# divides by zero building the output's filter; the panic is caught in the
# compactor, the compaction is never marked failed, and `compact` (the adapter
# waits on Admin::read_compaction) never returns: a hang, P10 under
# --call-timeout.  Entry slatedb-bloom-zero-bits-compaction-hangs of
# adapters/slatedb/known.txt.  Found by `filterlab check --engine slatedb
# --seed 2` (trial 23, shrunk from 534 to 3 ops).  filterlab's engine passes.
# fixed-in: none (adapters/slatedb/reports/bloom_zero_bits.md)
filterlab-workload 1
put a ""
reopen compactor="bloom(bits=0)"
compact
