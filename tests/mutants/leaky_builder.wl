# expect: P1
# check: --policy pset(len=3)
# check-expect: P1 P11
# leaky_builder: policy "pset(len=3)" (leaky_builder.c) keeps its
# "previous prefix" in statics shared by every builder.  SST 1 (aaa1 bbb1)
# ends with prefix bbb; SST 2 (bbb2 ccc1) begins with it, so SST 2's filter
# never gets bbb and rules out its own bbb2:
#   right (model):  17 get bbb2 -> new     18 scan_prefix bbb -> bbb1=old bbb2=new
#   wrong (mutant): 17 get bbb2 -> none    18 scan_prefix bbb -> bbb1=old
# SST 1 (the first builder) and ccc1 in SST 2 stay right.
filterlab-workload 1
open policies="pset(len=3)" memtable_bytes=1024 sst_bytes=1024 l0_trigger=8
put aaa1 a
put bbb1 old
flush
put bbb2 new
put ccc1 c
flush
get bbb2
scan_prefix bbb
get bbb1
get ccc1
scan_prefix aaa
