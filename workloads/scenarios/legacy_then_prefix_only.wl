# legacy_then_prefix_only.wl -- Legacy filter blocks (SPEC 2.6) read after a
# migration to a prefix-only bloom.
#
# SSTs are first written with legacy_filters=1: each gets one unnamed
# whole-key bloom, although the configured bloom has an extractor.  The
# database is then reopened with legacy_filters=0 and the prefix-only policy
# bloom(bits=10,prefix=fixed:3,whole_key=0).  A Legacy block must be decoded
# as a WHOLE-KEY filter whatever the configured bloom says: POINT probes the
# whole key's hash, PREFIX answers "maybe".
#
# Guards against: decoding a Legacy block with the configured bloom's
# settings (a get would probe the 3-byte prefix's hash, which a Legacy
# filter never held: present keys read as none, tombstones are missed and
# older values come back); probing a Legacy block for scan_prefix (prefixes
# were never hashed: present prefixes scan empty); ignoring the Legacy
# block (gets of absent keys are no longer filtered, checker P8); treating
# an absent filter_format as Composite (a malformed block, filter_errors).
# The Legacy writer's own compaction output is Legacy too (a Legacy run
# below Legacy L0 SSTs); after the migration new composite prefix-only SSTs
# sit in L0 beside Legacy ones, and compactions rewrite everything as
# composite.  Keys: region-NN.
filterlab-workload 1
open legacy_filters=1 policies="bloom(bits=10,prefix=fixed:3)" memtable_bytes=300 sst_bytes=150 l0_trigger=3

# -- Legacy SSTs: ams-* (one flush), ber-* (an automatic flush at 300
# bytes, then one more); the third L0 SST compacts into a Legacy run
put ams-01 a1
put ams-02 a2
put ams-03 a3
put ams-05 a5
put ams-08 a8
flush
put ber-01 b1
put ber-02 b2
put ber-03 b3
put ber-04 b4
put ber-05 b5
put ber-06 b6
put ber-07 b7
put ber-08 b8
put ber-09 b9
put ber-10 b10
put ber-11 b11
put ber-12 b12
flush
# a point tombstone in a Legacy L0 SST over a value in the Legacy run
del ams-03
put cph-01 c1
flush
put ams-06 a6
put ber-05 b5-v2
flush
# -- reads, still as the Legacy writer
get ams-01
get ams-03
get ams-04
get ber-07
get ber-99
get cph-01
get cph-02
scan_prefix ams
scan_prefix ber-1
scan_prefix cph
scan_prefix zzz
scan ams-00 ams-99

# -- migration: composite prefix-only filters from now on
reopen legacy_filters=0 policies="bloom(bits=10,prefix=fixed:3,whole_key=0)" l0_trigger=4
# gets: the Legacy whole-key blooms decide (present keys must be found; the
# tombstone of ams-03 must be found through its Legacy filter)
get ams-01
get ams-02
get ams-03
get ams-05
get ams-06
get ams-08
get ber-01
get ber-05
get ber-06
get ber-12
get cph-01
get ams-04
get ams-99
get ber-13
get ber-1
get cph-02
get am
get ""
# scan_prefix: a Legacy block cannot rule out a prefix ("maybe")
scan_prefix ams
scan_prefix ams-0
scan_prefix ber
scan_prefix ber-1
scan_prefix cph
scan_prefix cp
scan_prefix abc
scan_prefix ""
scan ber-05 ber-09

# -- a composite prefix-only SST in L0 above two Legacy L0 SSTs and the
# Legacy run
put dub-01 d1
put dub-02 d2
put ams-04 a4-new
put ber-01 b1-new
flush
get ams-01
get ams-03
get ams-04
get ams-07
get ber-01
get ber-05
get dub-01
get dub-02
get dub-03
get cph-01
scan_prefix ams
scan_prefix ber
scan_prefix dub
scan_prefix du
scan_prefix eee
scan_prefix ""
# -- the fourth L0 SST: compaction into a composite run above the Legacy run
del ber-02
put edi-01 e1
flush
get ams-03
get ams-04
get ams-05
get ber-01
get ber-02
get ber-03
get dub-01
get dub-03
get edi-01
get fra-01
scan_prefix ams
scan_prefix ber-0
scan_prefix dub
scan_prefix edi
scan_prefix fra
scan_prefix ""

# -- compaction: the Legacy SSTs are rewritten with composite filters
compact full
get ams-01
get ams-03
get ams-04
get ber-01
get ber-02
get ber-12
get cph-01
get dub-02
get edi-01
get fra-01
scan_prefix ams
scan_prefix ber
scan_prefix cph
scan_prefix fra
scan_prefix ""
scan a z

# -- back to Legacy writing, then read with a whole-key bloom listed
# second: Legacy blocks still decode (a built-in bloom is configured)
reopen legacy_filters=1 policies="bloom(bits=4,prefix=fixed:3,whole_key=0);bloom(bits=12)"
put gva-01 g1
put gva-02 g2
del ams-01
flush
reopen legacy_filters=0 policies="bloom(bits=12);bloom(bits=10,prefix=fixed:3,whole_key=0)"
get gva-01
get gva-02
get gva-03
get ams-01
get ams-02
get ams-04
scan_prefix gva
scan_prefix ams
scan_prefix hel
scan_prefix ""
