# tombstone_through_filter.wl -- point tombstones in a newer SST over values
# in an older one: a get must find the tombstone through the newer SST's
# filter and read none (fl_filter.h: "a filter must not rule out a key
# whose only entry is a tombstone").
#
# Every builder receives tombstones through add_entry like puts (SPEC
# 2.3), and hashes their key (whole-key) and their key's prefix
# (prefix-only) alike.  Newer SSTs here hold tombstones only, or
# tombstones beside puts of other prefixes, so a filter that forgot them
# would say "no", the get would fall through to the older SST and return
# the deleted value; a scan_prefix whose prefix filter forgot them would
# skip the SST and return deleted keys.
#
# Guards against: builders that skip DELETE entries (deleted values come
# back through get and scan_prefix); deduplication that drops a key whose
# newest entry is a tombstone and older entry a put in the same SST;
# compaction dropping tombstones while older values remain below; a
# tombstone-only SST whose filter is built as if it were empty.  Whole-key,
# prefix-only and both, in L0, in runs, and across a reopen.
filterlab-workload 1
open policies="bloom(bits=10);bloom(bits=10,prefix=fixed:4,whole_key=0)" memtable_bytes=400 sst_bytes=80 l0_trigger=4 max_runs=3

# -- SST 1: the values
put sku-0001 v1
put sku-0002 v2
put sku-0003 v3
put sku-0004 v4
put tag-0001 t1
put tag-0002 t2
put usr-0001 u1
flush
# -- SST 2: tombstones only, for three keys
del sku-0002
del sku-0004
del usr-0001
flush
get sku-0001
get sku-0002
get sku-0003
get sku-0004
get usr-0001
get usr-0002
get tag-0001
scan_prefix sku
scan_prefix sku-000
scan_prefix usr
scan_prefix usr-0001
scan_prefix tag
scan_prefix ""

# -- SST 3: tombstones for a whole prefix beside puts of another prefix,
# and a put then a delete of one key in one memtable: the SST holds both
# versions, the tombstone first
del tag-0001
del tag-0002
put vat-0001 w1
put vat-0002 w2
put sku-0001 v1-v2
del sku-0001
del sku-0003
flush
get tag-0001
get tag-0002
get vat-0001
get vat-0003
get sku-0001
get sku-0002
get sku-0003
get sku-0004
scan_prefix tag
scan_prefix vat
scan_prefix sku
scan_prefix ""

# -- the fourth L0 SST compacts L0 into the first run: with nothing older
# below, the tombstones may go, the deleted keys must stay deleted
put sku-0005 v5
del vat-0002
flush
get sku-0001
get sku-0002
get sku-0003
get sku-0005
get tag-0001
get usr-0001
get vat-0002
scan_prefix sku
scan_prefix tag
scan_prefix ""

# -- tombstones in L0 over the run, then compacted into a second run
# above the first: there they must stay
del vat-0001
del sku-0005
flush
get vat-0001
get sku-0005
get sku-0004
scan_prefix vat
scan_prefix sku
compact
get vat-0001
get sku-0005
get sku-0002
scan_prefix vat
scan_prefix sku
put sku-0006 v6
put sku-0007 v7
flush
compact
del sku-0006
flush
get sku-0006
get sku-0007
get sku-0005
scan_prefix sku
# a fourth run: max_runs=3 merges them all into one
compact
get sku-0006
get sku-0007
scan_prefix sku

# -- prefix-only alone after a reopen: the whole-key filters are unusable,
# the prefix filters must carry every tombstone on their own
reopen policies="bloom(bits=10,prefix=fixed:4,whole_key=0)"
get sku-0001
get sku-0002
get sku-0003
get sku-0004
get sku-0006
get tag-0001
get usr-0001
get vat-0001
scan_prefix sku
scan_prefix tag
scan_prefix usr
scan_prefix vat
del sku-0007
put zed-0001 z1
flush
get sku-0007
get zed-0001
scan_prefix sku
# -- whole-key alone
reopen policies="bloom(bits=10)"
get sku-0001
get sku-0002
get sku-0006
get sku-0007
get tag-0002
get usr-0001
scan_prefix sku
# -- re-puts over the tombstones, then compact full drops them
put sku-0002 v2-back
put usr-0001 u1-back
flush
compact full
get sku-0001
get sku-0002
get sku-0003
get sku-0004
get sku-0007
get tag-0001
get usr-0001
get vat-0001
get zed-0001
scan_prefix sku
scan_prefix ""
