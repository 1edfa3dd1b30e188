# split_changed.wl -- a hazard of Pebble v2.1.7, not a bug: Comparer.Split
# changed across a reopen under the same comparer name.  Pebble stores the
# comparer's name in the MANIFEST and refuses a database opened with
# another name, but a Comparer with the same name and another Split opens
# without a word.  The table flushed under capped:3 holds the hashes of
# "abc" and "abd" in its filter; after the reopen under capped:2, the get,
# the prefix scan and the prefix-mode seek probe it with "ab", which it does
# not hold: the filter says no for a table that holds the key (P1), and
# each read misses its keys (P2).  (cockroach#42405 was this in CockroachDB.)
# filterlab's engine names its filters by their extractor
# (_bf:p=capped3:wh=0), so there the old filter is not used, and the reads
# are right.
# On Pebble: `filterlab replay split_changed.wl --engine pebble --known
# adapters/pebble/known.txt` gives P2 and P1 at lines 22, 23 and 24 (exit 1),
# and names the hazard pebble-split-changed-under-one-name.
filterlab-workload 1
open policies="bloom(bits=10,whole_key=0,prefix=capped:3)"
put abc1 v1
put abd2 v2
flush
reopen policies="bloom(bits=10,whole_key=0,prefix=capped:2)"
get abc1
scan_prefix ab
seek abd0 n=2
