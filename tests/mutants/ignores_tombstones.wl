# expect: P1
# check: --policy keyset
# check-expect: P1 P11
# message: P1 no-false-negative: line 24 get user:2: sst 2 sub-filter "keyset" said no, but sst 2 holds user:2
# ignores_tombstones: policy "keyset" (ignores_tombstones.c) leaves point
# tombstones out of its filter.  SST 2 holds the tombstone of user:2 over
# SST 1's user:2=old-2; SST 3 holds nothing but the tombstone of user:3.
# Both newer SSTs' filters rule the deleted key out, so the gets fall
# through to SST 1:
#   right (model):   21 get user:2 -> none     22 get user:3 -> none
#   wrong (mutant):  21 get user:2 -> old-2    22 get user:3 -> old-3
# scan_prefix is right either way (keyset answers true to PREFIX).
filterlab-workload 1
open policies="keyset" memtable_bytes=1024 sst_bytes=1024 l0_trigger=8
put user:1 old-1
put user:2 old-2
put user:3 old-3
flush
del user:2
put user:4 new-4
flush
del user:3
flush
get user:2
get user:3
get user:1
get user:4
scan_prefix user:
