# extractor_changes.wl -- the prefix extractor changes under existing SSTs:
# fixed:3 -> fixed:4 -> delim:: (written prefix=delim::, named delim:), and
# lists holding old and new at once.
#
# The extractor's name is part of the bloom's name (_bf:p=fixed3:wh=0,
# _bf:p=fixed4:wh=0, _bf:p=delim::wh=0), so after each change the old SSTs'
# filters must be skipped (read unfiltered), never probed with the new
# extractor: a fixed:4 probe of a filter holding 3-byte prefixes misses
# every key.  Listing old and new together keeps both usable (AND).
# delim:\x3a is the same extractor as delim:: and must match its filters.
#
# Guards against: matching sub-filters by policy kind or position instead
# of exact name; comparing names after splitting on ':' (the delimiter
# ':' appears inside _bf:p=delim::wh=0); decoding an old filter with the
# new extractor (present keys and prefixes read as absent); a PREFIX probe
# that is not safe for every extension (scan_prefix ab: with fixed:4 must
# not probe "ab:"); naming delim:\x3a differently from delim::.  Keys have
# heads of 2 to 5 bytes before ':' so the three extractors disagree.
filterlab-workload 1
open policies="bloom(bits=10,prefix=fixed:3,whole_key=0)" memtable_bytes=500 sst_bytes=100 l0_trigger=4

# -- SST A: fixed:3 prefixes
put "ab:1" a1
put "ab:22" a2
put "abc:1" a3
put "abcd:9" a4
put "abcde:x" a5
put "x:y:z" a6
flush
get "ab:1"
get "ab:3"
get "abc:1"
get "abz:1"
get "abcd:9"
get "abcd:8"
get "x:y:z"
get "x:q"
get ab
scan_prefix a
scan_prefix ab
scan_prefix "ab:"
scan_prefix abc
scan_prefix "abc:"
scan_prefix abcd
scan_prefix abz
scan_prefix "x:"
scan_prefix "x:y:"
scan_prefix ""

# -- fixed:4: SST A is read unfiltered; SST B gets 4-byte prefixes
reopen policies="bloom(bits=10,prefix=fixed:4,whole_key=0)"
get "ab:1"
get "abc:1"
get "abcd:9"
get "abz:1"
get "x:y:z"
scan_prefix "ab:"
scan_prefix abc
scan_prefix abcd
scan_prefix abz
put "ab:1" b1
put "abcd:7" b2
put "abx:5" b3
put "x:y:w" b4
flush
get "ab:1"
get "ab:22"
get "abc:1"
get "abcd:7"
get "abcd:8"
get "abx:5"
get "abx:6"
get "abcq:1"
get "x:y:w"
get "x:y:z"
scan_prefix ab
scan_prefix "ab:"
scan_prefix "ab:2"
scan_prefix abc
scan_prefix abcd
scan_prefix abx
scan_prefix "abx:"
scan_prefix abcq
scan_prefix "x:y"
scan_prefix ""

# -- delim:: : SSTs A and B unfiltered; SST C gets up-to-':' prefixes
reopen policies="bloom(bits=10,prefix=delim::,whole_key=0)"
get "ab:1"
get "abc:1"
get "abcd:7"
get "x:y:z"
scan_prefix "ab:"
scan_prefix "abcd:"
put "ab:5" c1
put "abcdef:1" c2
put "x:y:v" c3
del "abc:1"
flush
get "ab:1"
get "ab:5"
get "ab:6"
get "abc:1"
get "abcd:7"
get "abcdef:1"
get "abcdef:2"
get "abcdeg:1"
get "x:y:v"
get "x:z"
get "xy:1"
scan_prefix "ab:"
scan_prefix ab
scan_prefix "abc:"
scan_prefix "abcdef:"
scan_prefix "abcdeg:"
scan_prefix abcdef
scan_prefix "x:"
scan_prefix "x:y:"
scan_prefix "xy:"
scan_prefix ""

# -- fixed:3 and fixed:4 at once: A and B are usable again, C is not; the
# fourth L0 SST compacts everything into a run carrying both
reopen policies="bloom(bits=10,prefix=fixed:3,whole_key=0);bloom(bits=10,prefix=fixed:4,whole_key=0)"
get "ab:1"
get "ab:22"
get "abc:1"
get "abcd:9"
get "abcdef:1"
get "abz:1"
get "x:y:z"
scan_prefix "ab:"
scan_prefix abc
scan_prefix abcd
scan_prefix abz
scan_prefix "x:y"
put "abz:1" d1
put "x:yy" d2
flush
get "ab:1"
get "ab:5"
get "abc:1"
get "abcd:9"
get "abcdef:1"
get "abz:1"
get "abz:2"
get "abq:1"
get "x:yy"
get "x:y:z"
scan_prefix ab
scan_prefix "ab:"
scan_prefix abc
scan_prefix abcd
scan_prefix abz
scan_prefix abq
scan_prefix "x:"
scan_prefix ""

# -- delim written as \x3a beside fixed:3: the run's fixed:3 filter is
# usable, its SSTs have no delim filter; a new SST gets both
reopen policies="bloom(bits=10,prefix=delim:\\x3a,whole_key=0);bloom(bits=10,prefix=fixed:3,whole_key=0)"
get "ab:1"
get "abcdef:1"
get "abq:1"
scan_prefix "ab:"
scan_prefix abq
put "abq:1" e1
put "ab:9" e2
flush
reopen policies="bloom(bits=10,prefix=delim::,whole_key=0)"
get "abq:1"
get "abq:2"
get "ab:9"
get "ab:8"
get "ab:1"
scan_prefix "abq:"
scan_prefix "ab:"
scan_prefix "abr:"
scan_prefix ""
compact full
get "ab:1"
get "ab:9"
get "abc:1"
get "abcd:9"
get "abq:1"
get "abq:2"
get "x:y:v"
scan_prefix "ab:"
scan_prefix "abq:"
scan_prefix "abr:"
scan_prefix "x:"
scan_prefix ""
