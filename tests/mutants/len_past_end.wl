# expect: P7
# check: --extractor upto:/
# check-expect: P7
# len_past_end: bloom(bits=10,prefix=upto:/) with the extractor of
# len_past_end.c, which answers Some(len + 1) for input without a /: the
# keys plain and other when the flush builds the filter (line 17), the scan
# prefixes pl and user (lines 20, 21).  The engine refuses every such answer
# (a contract violation naming upto/, the prefix treated as none), so the
# results stay right; the wrong behaviour is the extractor's answer itself:
#   line 17: contract violation by upto/: prefix_len returned 6 for a key
#            of 5 bytes (must be <= its length)
#   line 20: ... returned 3 for a prefix of 2 bytes ...
filterlab-workload 1
open policies="bloom(bits=10,prefix=upto:/)" memtable_bytes=1024 sst_bytes=1024 l0_trigger=8
put user/1 a
put user/2 b
put plain c
put other d
flush
get plain
get user/1
scan_prefix pl
scan_prefix user
scan_prefix user/
