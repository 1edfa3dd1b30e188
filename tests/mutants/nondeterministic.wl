# expect: P7
# check: --extractor hot:3
# check-expect: P7
# nondeterministic: bloom(bits=10,prefix=hot:3,whole_key=0) with the
# extractor of nondeterministic.c, which answers 3 and 2 on alternate calls
# for the same key.  The filter holds prefixes only, so a get whose probe
# prefix differs from the one its key stored at build time is ruled out.
# With today's call order (the build stores "abc" "ab" "abe" "ab" "abg" for
# abc1..abg5; then one call per get, two for a get that is ruled out, one
# per scan_prefix) the same get is wrong once and right the next time:
#   right (model):  22 get abd2 -> 2      28 get abd2 -> 2
#   wrong (mutant): 22 get abd2 -> none   28 get abd2 -> 2
# Under the checker, which calls the extractor too, which reads go wrong may
# change; that one key gets two answers does not (P7).
filterlab-workload 1
open policies="bloom(bits=10,prefix=hot:3,whole_key=0)" memtable_bytes=1024 sst_bytes=1024 l0_trigger=8
put abc1 1
put abd2 2
put abe3 3
put abf4 4
put abg5 5
flush
get abc1
get abd2
get abe3
get abf4
get abg5
scan_prefix abd
get abc1
get abd2
get abe3
get abf4
get abg5
scan_prefix abe
