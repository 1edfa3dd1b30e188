# example.wl -- the two example plugins together: a custom filter policy
# (keyrange, from keyrange_policy.c) beside the built-in bloom using a
# custom prefix extractor (tenant:2, from tenant_extractor.c), with
# migrations among them.  Replay it with both plugins loaded:
#
#   make -C examples/plugins run
#
# or build/filterlab replay examples/plugins/example.wl \
#      --plugin build/examples/keyrange.so --plugin build/examples/tenant.so
#
# Keys are TENANT:TABLE:ROW, so tenant:2 extracts "TENANT:TABLE:".
#
# Note on keyrange: the engine itself only asks an SST whose key range
# covers the key or overlaps the prefix, so keyrange can only add
# something where an SST's range is wider than its point entries: where a
# range tombstone stretches it.  The delranges below do that ("delete
# tenant hooli", "delete acme's orders"), and the gets and scan_prefix
# that land in the stretched part are ruled out by keyrange alone, while
# the range tombstones themselves are still applied.
filterlab-workload 1
open policies="bloom(bits=10,prefix=tenant:2);keyrange" memtable_bytes=600 sst_bytes=120 l0_trigger=4

# -- two SSTs with disjoint key ranges: acme..globex, then hooli..initech
# (the second is stretched down to "hooli:" by a range tombstone)
put acme:orders:1 widget
put acme:orders:2 gadget
put acme:users:1 ada
put acme:users:2 bob
put globex:users:1 hank
flush
put initech:users:1 peter
put initech:users:2 milton
put initech:tps:1 report
delrange hooli: hooli;
flush
# gets: keyrange rules out the SST whose range misses the key
get acme:users:1
get acme:users:3
get initech:users:2
get initech:tps:9
get globex:users:1
get hooli:users:1
get zzz
# scan_prefix: tenant:2 probes "TENANT:TABLE:"; a shorter prefix is left
# to keyrange ("acme:" cannot be in initech's SST)
scan_prefix acme:users:
scan_prefix acme:users:1
scan_prefix acme:
scan_prefix acme
scan_prefix globex:
scan_prefix initech:tps:
scan_prefix initech:
scan_prefix hooli:
scan_prefix hooli:users:
scan_prefix ""

# -- keyrange alone: the bloom's filters are skipped (not configured)
reopen policies="keyrange"
get acme:users:2
get acme:zzz
get initech:users:1
scan_prefix initech:users:
scan_prefix b
get hooli:users:1
scan_prefix hooli:
# delete all of acme's orders: this SST's range starts at "acme:orders:"
# but its only point entry is acme:users:1
put acme:users:1 ada-v2
delrange acme:orders: acme:orders;
flush
get acme:users:1
get acme:orders:1
get acme:orders:2
get acme:pets:1
scan_prefix acme:
scan_prefix acme:orders:
scan_prefix acme:pets:

# -- a different extractor count: _bf:p=tenant1:wh=0 is a new name, so
# the tenant2 filters stay unusable; keyrange still applies everywhere
reopen policies="keyrange;bloom(bits=10,prefix=tenant:1,whole_key=0)"
put hooli:users:1 gavin
flush
get hooli:users:1
get hooli:users:2
get acme:users:1
get initech:users:1
scan_prefix hooli:
scan_prefix hooli:users:
scan_prefix acme:users:
scan_prefix ""

# -- everything listed, the fourth L0 SST compacts, then compact full
reopen policies="bloom(bits=10,prefix=tenant:2);bloom(bits=10,prefix=tenant:1,whole_key=0);keyrange"
put globex:users:2 nina
flush
compact full
get acme:users:1
get acme:orders:2
get globex:users:2
get hooli:users:1
get initech:tps:1
get umbrella:users:1
scan_prefix acme:users:
scan_prefix globex:
scan_prefix initech:tps:
scan_prefix umbrella:
scan_prefix ""
