# expect: P1
# check: --policy nbloom(bits=10,salt=1) --policy nbloom(bits=10,salt=2)
# check-expect: P1
# name_ignores_config: policy "nbloom" (name_ignores_config.c) names itself
# "nbloom" whatever its salt.  SST 1 is written with salt=1; after the
# reopen with salt=2 the same name hands SST 1's filter to the salt-2 policy,
# which probes other bits: the gets of SST 1's keys are ruled out.
#   right (model):  23-30 get k01..k08 -> v01..v08
#   wrong (mutant): 23-30 get k01..k08 -> none (all eight, today)
# Before the reopen, and for SST 2 written with salt=2, the gets are right;
# scan_prefix is right (nbloom answers true to PREFIX).
filterlab-workload 1
open policies="nbloom(bits=10,salt=1)" memtable_bytes=1024 sst_bytes=1024 l0_trigger=8
put k01 v01
put k02 v02
put k03 v03
put k04 v04
put k05 v05
put k06 v06
put k07 v07
put k08 v08
flush
get k03
reopen policies="nbloom(bits=10,salt=2)"
get k01
get k02
get k03
get k04
get k05
get k06
get k07
get k08
put k09 v09
flush
get k09
scan_prefix k0
