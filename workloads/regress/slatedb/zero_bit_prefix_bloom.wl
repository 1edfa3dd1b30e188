# zero_bit_prefix_bloom.wl -- SlateDB issue 1966, fixed in 0.15.0 by PR 1969
# (commit 779c9055, 2026-07-28, "Fix panic when probing a zero-bit prefix
# Bloom filter").  A prefix-only bloom (whole_key=0) whose extractor gives no
# prefix for any key of an SST (fixed:4 and keys of one byte) hashes nothing
# and is built with 0 bits; a read whose target has a prefix then probes it,
# and probes_for_key divides by zero (slatedb-0.14.1/src/filter.rs:208): the
# reading task panics.  filterlab's engine and SlateDB 0.15.0 and later answer
# "no" (an empty filter holds nothing) and give the model's results.
# On SlateDB 0.14.1 (`make SLATEDB_VERSION=0.14.1`, docs/slatedb.md):
# the get fails with the panic -- in check, a P10 finding, matched by the entry
# slatedb-zero-bit-prefix-bloom-probe of adapters/slatedb/known.txt; on 0.18.0:
# exit 0.  The keys bracket the probed target so that the SST is in range.
# fixed-in: 0.15.0
filterlab-workload 1
open policies="bloom(bits=10,whole_key=0,prefix=fixed:4)" min_filter_keys=0
put a 1
put b 2
flush
get aaaa
scan_prefix aaaa
get a
