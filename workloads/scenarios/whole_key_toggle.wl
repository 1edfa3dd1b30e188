# whole_key_toggle.wl -- whole-key filtering switched off and on with the
# same extractor: bloom(prefix=fixed:3) is named _bf:p=fixed3, and
# bloom(prefix=fixed:3,whole_key=0) is named _bf:p=fixed3:wh=0 (SPEC 5).
#
# The two store different hashes (whole keys and prefixes, or prefixes
# only), so a migration from one to the other must leave the other's
# filters unusable: the SST is read unfiltered by that policy.  The first
# name is a prefix of the second, so matching names by prefix, or parsing
# them by splitting on ':', hands one's bytes to the other.
#
# Guards against: decoding _bf:p=fixed3:wh=0 bytes with the _bf:p=fixed3
# policy (a get probes the whole key's hash, which a prefix-only filter
# never held: present keys read as none, tombstones are missed) or the
# reverse (harmless for results, but a wrong verdict: checker P8);
# forgetting whole_key when naming (both would be _bf:p=fixed3); losing a
# sub-filter when both are listed at once (each must stay usable, AND).
# Keys: 3-byte team + '-' + member, so a get's prefix is shared by its
# neighbours while the whole key is not.
filterlab-workload 1
open policies="bloom(bits=10,prefix=fixed:3,whole_key=0)" memtable_bytes=400 sst_bytes=300 l0_trigger=4

# -- SST 1: prefix-only (_bf:p=fixed3:wh=0)
put red-ann r1
put red-bob r2
put red-cat r3
put tan-dee t1
put tan-eli t2
flush
get red-ann
get red-zed
get tan-eli
get blu-ann
scan_prefix red
scan_prefix tan-
scan_prefix blu
scan_prefix re

# -- toggle on: SST 1's filter is now unusable (unfiltered), SST 2 gets
# a whole-key + prefix filter (_bf:p=fixed3)
reopen policies="bloom(bits=10,prefix=fixed:3)"
get red-ann
get red-cat
get tan-dee
get red-zed
get blu-ann
scan_prefix red
scan_prefix tan
scan_prefix blu
put red-ann r1-v2
put blu-fay b1
put blu-gus b2
del tan-dee
flush
get red-ann
get red-bob
get red-zed
get tan-dee
get tan-eli
get blu-fay
get blu-hal
get grn-ann
scan_prefix red
scan_prefix tan
scan_prefix blu
scan_prefix grn

# -- toggle off again: SST 1 usable again, SST 2 unusable
reopen policies="bloom(bits=10,prefix=fixed:3,whole_key=0)"
get red-ann
get red-bob
get red-cat
get red-zed
get tan-dee
get tan-eli
get blu-fay
get blu-gus
get blu-hal
get grn-ann
scan_prefix red
scan_prefix tan
scan_prefix blu
scan_prefix grn
scan_prefix ""

# -- both at once: new SSTs carry both; old SSTs have one usable each
reopen policies="bloom(bits=10,prefix=fixed:3);bloom(bits=8,prefix=fixed:3,whole_key=0)"
put grn-ida g1
put grn-jon g2
put red-bob r2-v2
flush
get red-ann
get red-bob
get red-cat
get red-zed
get tan-dee
get tan-eli
get blu-fay
get grn-ida
get grn-kim
get pur-ann
scan_prefix red
scan_prefix tan
scan_prefix blu
scan_prefix grn
scan_prefix pur
scan_prefix ""
# the fourth L0 SST triggers a compaction (written with both)
put pur-ann p1
del red-cat
flush
get red-ann
get red-bob
get red-cat
get tan-dee
get pur-ann
get pur-bea
scan_prefix red
scan_prefix pur
scan_prefix ""

# -- then each alone against the compacted run (which carries both)
reopen policies="bloom(bits=10,prefix=fixed:3)"
get red-ann
get red-cat
get red-zed
get grn-jon
scan_prefix grn
scan_prefix sil
reopen policies="bloom(bits=10,prefix=fixed:3,whole_key=0)"
get red-ann
get red-cat
get red-zed
get grn-jon
scan_prefix grn
scan_prefix sil
# and whole-key only (_bf): matches neither
reopen policies="bloom(bits=10)"
get red-ann
get red-zed
scan_prefix red
