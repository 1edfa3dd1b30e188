# Regression (a guard of the checker no test had pinned): the checker
# answers "does this SST hold this key?" from a table of its keys' XXH3
# hashes, keyed by the hash's low bits and tagged with its high 32 bits,
# and must compare the bytes when a tag matches.  k0659905 and k3251800
# share the tag (0x009227eb) and the slot of a 16-slot table (6), so a
# checker that trusted the tag (found by `sh tests/mutate.sh --checker`:
# truth.c's `e->len == klen && ...` made `||`) says the newer SST, which
# holds k0659905, holds k3251800 too, and reports a false P1 (its filter
# rightly said no) or P6.  The get must pass: exit 0, on every engine.
filterlab-workload 1
open policies="bloom(bits=10)" memtable_bytes=1000000 l0_trigger=100
put k3251800 old
flush
put a v
put k0659905 v
put z v
flush
get k3251800
