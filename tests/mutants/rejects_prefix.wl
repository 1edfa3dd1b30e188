# expect: P1
# check: --policy keyset
# check-expect: P1
# rejects_prefix: policy "keyset" (rejects_prefix.c) answers false to every
# PREFIX query.  Two SSTs hold log:* and msg:* keys; log:04 stays in the
# memtable, which no filter guards.  Every scan_prefix skips both SSTs:
#   right (model):  21 scan_prefix log: -> log:01=a log:02=b log:03=d log:04=f
#   wrong (mutant): 21 scan_prefix log: -> log:04=f
#   right (model):  22 scan_prefix msg: -> msg:01=c msg:02=e
#   wrong (mutant): 22 scan_prefix msg: ->
# and scan_prefix "" returns only log:04.  get (POINT) and scan (which never
# uses prefix filters) stay right.
filterlab-workload 1
open policies="keyset" memtable_bytes=1024 sst_bytes=1024 l0_trigger=8
put log:01 a
put log:02 b
put msg:01 c
flush
put log:03 d
put msg:02 e
flush
put log:04 f
scan_prefix log:
scan_prefix msg:
scan_prefix ""
get log:02
scan log: log;
