# seek and seek_for_prev in both modes (SPEC 9), before and after a
# set_options that changes the extractor in force, across flushes and a
# full compaction: prefix-mode seeks stop at the first entry of another
# prefix; a key without a prefix (too short for fixed:2) reads in total
# order; deleted keys are never returned.
filterlab-workload 1
open policies="bloom(bits=10,prefix=fixed:2)" memtable_bytes=100000
put aa1 1
put aa2 2
put ab1 3
put ab2 4
put b 5
flush
put aa3 6
del aa2
put ac1 7
flush
seek aa n=3
seek aa0 n=10
seek ab0 n=10 prefix=0
seek_for_prev ab9 n=10
seek_for_prev ab9 n=10 prefix=0
seek_for_prev aa1 n=2
seek zz n=3
seek_for_prev "" n=3
seek "" n=2
seek q n=5 prefix=1
seek_for_prev zz n=2 prefix=1
set_options policies="bloom(bits=10,prefix=fixed:1)"
seek aa n=10
seek_for_prev b n=10
put a9 x
flush
seek a n=10
compact full
seek a n=3
seek_for_prev b n=3
