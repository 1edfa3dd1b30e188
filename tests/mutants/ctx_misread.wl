# expect: P1
# check: --policy ctxset
# check-expect: P1 P11
# ctx_misread: policy "ctxset" (ctx_misread.c) answers false to a read whose
# filter context it cannot decode.  Line 15 reads a present key with a
# foreign context (version byte 0x02): the SST holding it is ruled out and
# the get returns none where the model returns 1.  Line 14, without a
# context, and line 16, with its own context (0x01), return 1.
filterlab-workload 1
open policies="ctxset" memtable_bytes=1024 sst_bytes=1024 l0_trigger=8
put apple 1
put banana 2
flush
get apple
get apple ctx=02ff
get apple ctx=01
