# edge_keys.wl -- keys and prefixes at the ends of the byte order: the empty
# key, "\x00", "\xff", "\xff\xff", keys that are prefixes of other keys, and
# scan_prefix of "", "\x00", "\xff" and "\xff\xff".
#
# The keys with prefix P are exactly [P, succ(P)), where succ(P) drops
# P's trailing 0xff bytes and adds one to the last byte left; for "" and
# for all-0xff prefixes there is no succ: the range runs to the end of the
# key space.  Filters: fixed:1 (whole-key on) beside prefix-only delim:\x00
# and delim:\xff blooms, so NUL and 0xff are also delimiters.
#
# Guards against: computing succ("\xff") by wrapping the byte to 0x00 or
# by truncating to "" (an empty or backwards range: SSTs holding "\xff..."
# keys are left out of scan_prefix "\xff" and scan_prefix "\xff\xff", or
# the scan stops early); treating the empty prefix or the empty key as
# "no key" (scan_prefix "" must return everything, get "" its value); a
# hash or a comparison that stops at a NUL byte (C strings: "a\x00" and
# "a" collide, "\x00" reads as ""); a signed-char comparison that sorts
# 0xff before 0x00; an SST's key range test that excludes a key equal to
# its smallest or largest key; range tombstones that start at "" or end
# at "\xff\xff".
filterlab-workload 1
open policies="bloom(bits=10,prefix=fixed:1);bloom(bits=10,prefix=delim:\\x00,whole_key=0);bloom(bits=10,prefix=delim:\\xff,whole_key=0)" memtable_bytes=400 sst_bytes=60 l0_trigger=4

# -- SST 1: the low end
put "" empty
put "\x00" nul
put "\x00\x00" nul-nul
put "\x00\xff" nul-ff
put "\x00a" nul-a
flush
# -- SST 2: the high end
put "\xff" ff
put "\xff\x00" ff-nul
put "\xff\xff" ff-ff
put "\xff\xff\xff" ff-ff-ff
put "\xffz" ff-z
flush
# -- SST 3: keys that are prefixes of each other, with NUL and 0xff inside
put a a
put "a\x00" a-nul
put "a\x00b" a-nul-b
put "a\xff" a-ff
put ab ab
put abc abc
flush
get ""
get "\x00"
get "\x00\x00"
get "\x00\x00\x00"
get "\x00\xff"
get "\x00\x01"
get "\xff"
get "\xff\x00"
get "\xff\xff"
get "\xff\xff\xff"
get "\xff\xff\xff\xff"
get "\xfe"
get "\xff\xfe"
get a
get "a\x00"
get "a\x00b"
get "a\x00c"
get "a\x01"
get "a\xff"
get "a\xff\xff"
get ab
get abc
get abcd
get b
scan_prefix ""
scan_prefix "\x00"
scan_prefix "\x00\x00"
scan_prefix "\x00\xff"
scan_prefix "\x01"
scan_prefix "\xff"
scan_prefix "\xff\xff"
scan_prefix "\xff\xff\xff"
scan_prefix "\xff\xff\xff\xff"
scan_prefix "\xfe"
scan_prefix "\xff\x00"
scan_prefix a
scan_prefix "a\x00"
scan_prefix "a\xff"
scan_prefix ab
scan_prefix abc
scan_prefix abcd
scan_prefix "ab\xff"
scan_prefix "a\x00\x00"
scan_prefix "\x00\x00\x00"
get "ab\xffx"
get "ab\x00"
scan "" "\x00"
scan "" "\x00\x00"
scan "\x00" a
scan a b
scan "\xff" "\xff\xff"
scan "\xff\xff" "\xff\xff\xff\xff"
scan "" "\xff\xff\xff\xff"
scan b a

# -- the fourth L0 SST compacts all four into a run split into small SSTs
put "\xfe" fe
put "\x01" one
flush
get ""
get "\x00"
get "\x01"
get "\xfe"
get "\xff"
get "\xff\xff"
get "\xff\xff\xff"
get "a\x00"
get "a\xff"
scan_prefix ""
scan_prefix "\x00"
scan_prefix "\xfe"
scan_prefix "\xff"
scan_prefix "\xff\xff"
scan_prefix "\xff\xff\xff"
scan_prefix a
scan_prefix "a\x00"

# -- range tombstones at the edges: [\xff, \xff\xff) deletes "\xff",
# "\xff\x00" and "\xff\xfe.." but not "\xff\xff"; ["", \x00) deletes only
# the empty key; [a\x00, a\x01) deletes a\x00 and a\x00b but not a
delrange "\xff" "\xff\xff"
delrange "" "\x00"
delrange "a\x00" "a\x01"
flush
get ""
get "\x00"
get "\xff"
get "\xff\x00"
get "\xffz"
get "\xff\xff"
get "\xff\xff\xff"
get a
get "a\x00"
get "a\x00b"
get "a\xff"
scan_prefix ""
scan_prefix "\xff"
scan_prefix "\xff\xff"
scan_prefix a
scan_prefix "a\x00"
scan "" "\xff\xff\xff\xff"

# -- point tombstones on the edge keys, and their re-puts
del "\xff\xff\xff"
del "\x00"
put "" empty-again
flush
get ""
get "\x00"
get "\xff\xff"
get "\xff\xff\xff"
scan_prefix "\xff\xff"
scan_prefix "\x00"
scan_prefix ""
compact full
get ""
get "\x00"
get "\x00\x00"
get "\xff"
get "\xff\xff"
get "\xff\xff\xff"
get a
get "a\x00"
scan_prefix ""
scan_prefix "\x00"
scan_prefix "\xff"
scan_prefix "\xff\xff"
scan_prefix a
scan "\xff" "\xff\xff\xff\xff"

# -- the same reads with whole-key and fixed:2 / delim filters only
reopen policies="bloom(bits=10);bloom(bits=10,prefix=fixed:2,whole_key=0)"
put "\xff\xff\x01" new
flush
get ""
get "\xff\xff"
get "\xff\xff\x01"
get "\xff\xff\x02"
scan_prefix ""
scan_prefix "\xff"
scan_prefix "\xff\xff"
scan_prefix "\xff\xff\x01"
