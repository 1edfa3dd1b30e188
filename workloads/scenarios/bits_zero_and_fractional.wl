# bits_zero_and_fractional.wl -- bits per key of 0, 0.5, 2.5 and 13.7, side
# by side in one policy list, then migrating: the same policy names with
# other bits.
#
# SPEC 5: mb = round(bits * 1000) (0, 500, 2500, 13700), lines = ceil(m *
# mb / 512000), k from the table (mb 0 and 500: k = 1; 2500: k = 2; 13700:
# k = 8); bits = 0 gives lines = 0, a filter that answers "maybe".  k and
# lines are stored in the filter, and bits is not in the name, so any
# reader decodes any bloom whatever bits it is configured with.
#
# Guards against: sizing with floating point or truncation instead of
# integer millibits (at 0.5 bits/key the 42 hashes of SST 1's fixed:2
# bloom take ceil(42 * 500 / 512000) = 1 line; checker P5 compares
# bytes); probing a lines = 0 filter (crash or ASan report) or calling it
# "no"; a reader that recomputes k or lines from its OWN bits instead of
# the stored ones (an SST written at 0.5 bits, k = 1, read by a 13.7-bit
# policy probing k = 8 bits: present keys read as none); putting bits into
# the name (old filters would become unusable).
# Keys are HEAD-NN with heads of 1 to 4 bytes, so fixed:2, fixed:3 and
# delim:- each extract something different.
filterlab-workload 1
open policies="bloom(bits=0);bloom(bits=0.5,prefix=fixed:2);bloom(bits=2.5,prefix=fixed:3,whole_key=0);bloom(bits=13.7,prefix=delim:-)" memtable_bytes=1200 sst_bytes=300 block_bytes=128 l0_trigger=4

# -- SST 1: 36 keys, every head
put a-01 v1
put a-02 v2
put a-03 v3
put a-04 v4
put a-05 v5
put a-06 v6
put bb-01 v1
put bb-02 v2
put bb-03 v3
put bb-04 v4
put bb-05 v5
put bb-06 v6
put ccc-01 v1
put ccc-02 v2
put ccc-03 v3
put ccc-04 v4
put ccc-05 v5
put ccc-06 v6
put dddd-01 v1
put dddd-02 v2
put dddd-03 v3
put dddd-04 v4
put dddd-05 v5
put dddd-06 v6
put e-01 v1
put e-02 v2
put e-03 v3
put e-04 v4
put e-05 v5
put e-06 v6
put ff-01 v1
put ff-02 v2
put ff-03 v3
put ff-04 v4
put ff-05 v5
put ff-06 v6
flush
# -- reads: bits=0 always "maybe"; the other three decide together (AND)
get a-01
get bb-03
get ccc-06
get dddd-02
get e-05
get ff-04
get a-07
get bb-00
get ccc-99
get dddd-0
get g-01
get ff
get ""
scan_prefix a
scan_prefix a-
scan_prefix a-0
scan_prefix bb-
scan_prefix ccc
scan_prefix dddd-
scan_prefix e-0
scan_prefix ff-06
scan_prefix g
scan_prefix gg-
scan_prefix c
scan_prefix ""
scan bb-02 ccc-03

# -- SST 2: more versions and new heads, one tombstone
put a-03 w3
put a-04 w4
put a-05 w5
put a-06 w6
put a-07 w7
put a-08 w8
put e-03 w3
put e-04 w4
put e-05 w5
put e-06 w6
put e-07 w7
put e-08 w8
put gg-03 w3
put gg-04 w4
put gg-05 w5
put gg-06 w6
put gg-07 w7
put gg-08 w8
del ccc-02
flush
get a-03
get a-08
get ccc-02
get ccc-03
get e-08
get gg-05
get gg-09
get hh-01
scan_prefix a-
scan_prefix ccc-0
scan_prefix gg
scan_prefix gg-0
scan_prefix hh
scan_prefix ""

# -- migration 1: the same four names, bits rotated (13.7 now reads what 0.5
# wrote, 0 reads what 2.5 wrote, ...): every old filter stays usable
reopen policies="bloom(bits=13.7);bloom(bits=2.5,prefix=fixed:2);bloom(bits=0.5,prefix=fixed:3,whole_key=0);bloom(bits=0,prefix=delim:-)"
get a-01
get bb-03
get ccc-06
get dddd-02
get e-05
get ff-04
get a-07
get bb-00
get ccc-99
get dddd-0
get g-01
get ff
get ""
scan_prefix a
scan_prefix a-
scan_prefix a-0
scan_prefix bb-
scan_prefix ccc
scan_prefix dddd-
scan_prefix e-0
scan_prefix ff-06
scan_prefix g
scan_prefix gg-
scan_prefix c
scan_prefix ""
scan bb-02 ccc-03
get a-03
get a-08
get ccc-02
get ccc-03
get e-08
get gg-05
get gg-09
get hh-01
scan_prefix a-
scan_prefix ccc-0
scan_prefix gg
scan_prefix gg-0
scan_prefix hh
scan_prefix ""

# -- SST 3 at the rotated bits (the delim:- filter now has no lines)
put bb-07 x7
put bb-08 x8
put bb-09 x9
put dddd-07 x7
put dddd-08 x8
put dddd-09 x9
flush
get bb-07
get bb-10
get dddd-09
get dddd-01
get ddd-01
scan_prefix bb-0
scan_prefix dddd
scan_prefix dd
scan_prefix ""

# -- migration 2: rotated the other way, and the list reordered
reopen policies="bloom(bits=2.5,prefix=delim:-);bloom(bits=0.5);bloom(bits=0,prefix=fixed:3,whole_key=0);bloom(bits=13.7,prefix=fixed:2)"
get a-01
get bb-03
get ccc-06
get dddd-02
get e-05
get ff-04
get a-07
get bb-00
get ccc-99
get dddd-0
get g-01
get ff
get ""
scan_prefix a
scan_prefix a-
scan_prefix a-0
scan_prefix bb-
scan_prefix ccc
scan_prefix dddd-
scan_prefix e-0
scan_prefix ff-06
scan_prefix g
scan_prefix gg-
scan_prefix c
scan_prefix ""
scan bb-02 ccc-03
get a-03
get a-08
get ccc-02
get ccc-03
get e-08
get gg-05
get gg-09
get hh-01
scan_prefix a-
scan_prefix ccc-0
scan_prefix gg
scan_prefix gg-0
scan_prefix hh
scan_prefix ""
get bb-07
get dddd-09
scan_prefix dddd

# -- the fourth L0 SST triggers a compaction at these bits
put zz-01 y1
put a-01 y2
flush
get a-01
get bb-03
get ccc-06
get dddd-02
get e-05
get ff-04
get a-07
get bb-00
get ccc-99
get dddd-0
get g-01
get ff
get ""
scan_prefix a
scan_prefix a-
scan_prefix a-0
scan_prefix bb-
scan_prefix ccc
scan_prefix dddd-
scan_prefix e-0
scan_prefix ff-06
scan_prefix g
scan_prefix gg-
scan_prefix c
scan_prefix ""
scan bb-02 ccc-03
get a-03
get a-08
get ccc-02
get ccc-03
get e-08
get gg-05
get gg-09
get hh-01
scan_prefix a-
scan_prefix ccc-0
scan_prefix gg
scan_prefix gg-0
scan_prefix hh
scan_prefix ""
get zz-01
scan_prefix zz
compact full
get a-01
get bb-03
get ccc-06
get dddd-02
get e-05
get ff-04
get a-07
get bb-00
get ccc-99
get dddd-0
get g-01
get ff
get ""
scan_prefix a
scan_prefix a-
scan_prefix a-0
scan_prefix bb-
scan_prefix ccc
scan_prefix dddd-
scan_prefix e-0
scan_prefix ff-06
scan_prefix g
scan_prefix gg-
scan_prefix c
scan_prefix ""
scan bb-02 ccc-03

# -- one bloom at every bits in turn over the compacted run (name _bf)
reopen policies="bloom(bits=0.5)"
get a-01
get a-09
get ff-04
reopen policies="bloom(bits=0)"
get a-01
get a-09
get ff-04
scan_prefix ff
reopen policies="bloom(bits=13.7)"
put a-01 z1
put ff-99 z2
flush
get a-01
get a-09
get ff-04
get ff-99
get ff-98
scan_prefix ff
scan_prefix ""
