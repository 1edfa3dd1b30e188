# bloom_zero_bits.wl -- SlateDB 0.18.0 (and main at e0161973, 2026-08-22) takes
# BloomFilterPolicy::new(0), and the first flush of a memtable holding a key
# panics dividing by zero (slatedb/src/filter.rs, probes_for_key: "% filter_bits"
# with 0 bits): the flush fails with "background task panicked", the database
# is closed, and every later call fails too.  filterlab's engine takes
# bits=0 as a filter that cannot rule anything out, and passes.
# On SlateDB: `filterlab replay bloom_zero_bits.wl --engine slatedb` stops at the
# flush (exit 2: an engine error; in check, a P10 finding), matched by the entry
# slatedb-bloom-zero-bits of adapters/slatedb/known.txt.  Found by
# `filterlab check --engine slatedb` (its space draws bits=0 in 5% of blooms).
# fixed-in: none (reported upstream: adapters/slatedb/reports/bloom_zero_bits.md)
filterlab-workload 1
open policies="bloom(bits=0)" min_filter_keys=0
put key value
flush
get key
