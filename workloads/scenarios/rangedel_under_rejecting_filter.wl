# rangedel_under_rejecting_filter.wl -- a range tombstone in an SST whose
# filter rejects the deleted key (SPEC 2.4: "Range tombstones are never
# hidden by a filter").
#
# The newer SST holds delrange [START, END) plus a few point entries that
# share nothing with the deleted keys, so its filters (a 20 bits/key
# whole-key bloom and a prefix-only fixed:4 bloom) say "no" to every deleted
# key and prefix; the older SST below still holds their values.  A get or
# scan_prefix that skips a rejected SST wholesale, range tombstones
# included, returns the older values: deleted data comes back.
#
# Guards against: applying range tombstones only from SSTs the filter let
# through (gets and scan_prefix of deleted keys return old values); taking a
# rejected SST out of the key-range coverage (an SST's range covers its
# range tombstones, SPEC 2.4); losing the tombstone when compaction writes
# it into a run above an older run; re-puts above the tombstone must still
# win.  L0 over L0, L0 over a run, and a run over a run.
filterlab-workload 1
open policies="bloom(bits=20);bloom(bits=20,prefix=fixed:4,whole_key=0)" memtable_bytes=600 sst_bytes=300 l0_trigger=4 max_runs=3

# -- the older SST: users and orders
put user-01 ada
put user-02 bob
put user-03 cyd
put user-04 dan
put user-05 eve
put ordr-01 o1
put ordr-02 o2
put ordr-03 o3
flush
# -- the newer SST: a delrange over user-02..user-04 and unrelated keys
delrange user-02 user-05
put item-01 i1
put item-02 i2
put zone-01 z1
flush
# -- reads: every deleted key must read none, with its SST's filter saying no
get user-01
get user-02
get user-03
get user-04
get user-05
get user-06
get item-01
get zone-01
scan_prefix user
scan_prefix user-0
scan_prefix user-03
scan_prefix item
scan_prefix ordr
scan user-00 user-99
scan a z

# -- a delrange over a whole prefix, in an SST holding only other prefixes
delrange ordr ordr-99
put pool-01 p1
put pool-02 p2
flush
get ordr-01
get ordr-02
get ordr-03
get pool-02
get user-01
scan_prefix ordr
scan_prefix ordr-0
scan_prefix ord
scan_prefix pool
scan_prefix ""

# -- a fourth L0 SST triggers a compaction: every tombstone ends in the run,
# with nothing older below it, and the deleted keys stay deleted
put user-03 cyd-again
put zone-02 z2
flush
get user-01
get user-02
get user-03
get user-04
get ordr-02
scan_prefix user
scan_prefix ordr
scan_prefix ""

# -- a run over a run: old values compacted into a run, then a delrange
# compacted into a newer run; the newer run's filters reject the keys
put acct-01 a1
put acct-02 a2
put acct-03 a3
put acct-04 a4
flush
compact
delrange acct-01 acct-04
put bank-01 b1
put bank-02 b2
flush
compact
get acct-01
get acct-02
get acct-03
get acct-04
get acct-05
get bank-01
scan_prefix acct
scan_prefix acct-0
scan_prefix bank
scan acct-00 acct-50

# -- the delrange in L0 over the runs, its SST's filters rejecting
delrange bank-00 bank-99
put cave-01 c1
flush
get bank-01
get cave-01
get acct-04
scan_prefix bank
scan_prefix cave
scan_prefix ""

# -- re-puts above the tombstones win; a reopen; compact full
put user-02 bob-again
put ordr-01 o1-again
put bank-01 b1-again
flush
get user-02
get user-04
get ordr-01
get ordr-02
get bank-01
reopen l0_trigger=4
get user-02
get ordr-03
scan_prefix ordr
compact full
get user-01
get user-02
get user-03
get user-04
get user-05
get ordr-01
get ordr-02
get acct-01
get acct-04
get bank-01
scan_prefix user
scan_prefix ordr
scan_prefix acct
scan_prefix ""
