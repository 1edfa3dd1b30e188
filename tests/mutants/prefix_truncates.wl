# expect: P1 P7
# check: --extractor trunc:3
# check-expect: P1 P7
# prefix_truncates: bloom(bits=10,prefix=trunc:3) with the extractor of
# prefix_truncates.c, whose PREFIX answer for a prefix shorter than 3 bytes
# is the prefix's own length.  Both SSTs hold ab* keys; their filters hold
# the whole keys and the prefixes abc abd xyz / abe abf, never "ab" or "a":
#   right (model):  19 scan_prefix ab -> abc1=1 abd2=2 abe3=3 abf4=4
#   wrong (mutant): 19 scan_prefix ab ->
# and 20 scan_prefix a likewise.  scan_prefix abc (3 bytes, probed right) and
# the gets stay right.
filterlab-workload 1
open policies="bloom(bits=10,prefix=trunc:3)" memtable_bytes=1024 sst_bytes=1024 l0_trigger=8
put abc1 1
put abd2 2
put xyz9 9
flush
put abe3 3
put abf4 4
flush
scan_prefix ab
scan_prefix a
scan_prefix abc
get abd2
