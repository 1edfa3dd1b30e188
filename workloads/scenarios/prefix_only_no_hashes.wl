# prefix_only_no_hashes.wl -- prefix-only blooms that hold no hash at all.
#
# With whole_key=0 a bloom only hashes extracted prefixes.  An SST whose
# keys are all shorter than fixed:N, or hold no delimiter for delim:C, adds
# no hash: m = 0, so lines = ceil(0 * mb / 512000) = 0 and the filter is the
# 6-byte header [1][k][0,0,0,0], which answers "maybe" to everything
# (SPEC 5).  The same holds for an SST made only of a range tombstone.
#
# Guards against: probing a filter with no lines (line = (h >> 32) * 0 >> 32
# = 0 indexes an empty bit array: a crash, or an ASan report in make check);
# decoding a 6-byte bloom as malformed (filter_errors, the SST read
# unfiltered instead of "maybe", checker P5/P10); answering "no" for an
# empty filter (checker P5: the reference says maybe; with the
# range-tombstone-only SST, a skipped tombstone would resurrect older
# values).  Each empty filter is read beside SSTs that do hold hashes, with
# gets and scan_prefix of lengths below, at and above the prefix length.
filterlab-workload 1
open policies="bloom(bits=10,prefix=fixed:4,whole_key=0)" memtable_bytes=250 sst_bytes=200 l0_trigger=4

# -- SST 1: every key shorter than 4 bytes: no hash
put a 1
put ab 2
put abc 3
put b 4
put "" empty
put zz 5
flush
get a
get ab
get abc
get abcd
get abcdef
get b
get ""
get zz
get zzzz
get c
scan_prefix ""
scan_prefix a
scan_prefix ab
scan_prefix abc
scan_prefix abcd
scan_prefix abcde
scan_prefix zzzz
scan a b

# -- SST 2 holds hashes (keys of 4 bytes and more); SST 1 still has none
put abcd 6
put abcd-1 7
put abce 8
put zzzz-9 9
flush
get a
get abc
get abcd
get abcd-1
get abcd-2
get abce
get abcf
get zzzz-9
get zzzz
scan_prefix abc
scan_prefix abcd
scan_prefix abce
scan_prefix abcf
scan_prefix zzzz
scan_prefix zzz
scan_prefix ""

# -- SST 3: only a range tombstone, no point entry at all: m = 0.  It must
# still hide abc and abcd-1 below it.
delrange abc abcd-2
flush
get ab
get abc
get abcd
get abcd-1
get abce
scan_prefix abc
scan_prefix abcd
scan_prefix ""

# -- everything into one run (its fixed:4 filter holds hashes), then a
# delimiter extractor beside fixed:4: keys without ':' add no delim hash
compact full
get abc
get abce
get zz
scan_prefix abcd
reopen policies="bloom(bits=10,prefix=delim::,whole_key=0);bloom(bits=10,prefix=fixed:4,whole_key=0)"
put k1 no-colon-1
put k2 no-colon-2
put kkkkk no-colon-3
flush
get k1
get k2
get kkkkk
get k3
get "k1:"
get "kkkk:x"
get kkkz
scan_prefix k
scan_prefix "k1:"
scan_prefix "kkkk:"
scan_prefix kkkk
scan_prefix kkkz
scan_prefix ""
# a second L0 SST whose delim filter does hold hashes
put "k:1" colon-1
put "k:2" colon-2
flush
get k1
get kkkkk
get "k:1"
get "k:15"
get "k:3"
get "kz:1"
get abce
get a
scan_prefix "k:"
scan_prefix "k:1"
scan_prefix "kz:"
scan_prefix kkkk
scan_prefix ""

# -- bits=0: lines is 0 whatever m is
reopen policies="bloom(bits=0,prefix=fixed:4,whole_key=0)"
put abcd new-6
put qqqq-1 q1
flush
get abcd
get qqqq-1
get qqqq-2
get mmmm-1
get abcz
scan_prefix qqqq
scan_prefix mmmm
scan_prefix abcz
scan_prefix ""
# compacted under bits=0: one run whose filter has no lines
compact full
get a
get abcd
get abce
get kkkkk
get qqqq-1
get "k:2"
get mmmm-1
get "k:3"
scan_prefix abcd
scan_prefix mmmm
scan_prefix ""
