# expect: P11
# check: --policy keyset
# check-expect: P11 P1
# bad_decode: policy "keyset" (bad_decode.c) builds a right filter, but its
# decode drops the last stored hash -- the SST's last key.  SST 1 holds
# k1 k2 k3 (k3 is lost on decode), SST 2 holds only k4 (decodes to an empty
# set).  Reads use the filters decoded from the SST files:
#   right (model):  19 get k3 -> v3     20 get k4 -> v4
#   wrong (mutant): 19 get k3 -> none   20 get k4 -> none
# After the reopen (same policy), lines 24 and 25 are wrong the same way.
# get k1, get k2 and scan_prefix (keyset answers true to PREFIX) stay right.
filterlab-workload 1
open policies="keyset" memtable_bytes=1024 sst_bytes=1024 l0_trigger=8
put k1 v1
put k2 v2
put k3 v3
flush
put k4 v4
flush
get k1
get k3
get k4
scan_prefix k
reopen policies="keyset"
get k2
get k3
get k4
