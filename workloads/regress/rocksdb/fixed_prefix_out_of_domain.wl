# fixed-in: 11.2.0
# Known upstream RocksDB bug rocksdb-fixed-prefix-out-of-domain (known.txt):
# on RocksDB 7.8.3 (Debian builds it with assertions on) this aborts at the
# scan_prefix with
#   util/slice.cc:57: ... FixedPrefixTransform::Transform(...): Assertion
#   `InDomain(src)' failed.
# a P10 finding of the run.  The prefix-mode iterator (prefix_same_as_start)
# under RocksDB's own FixedPrefix(4) reads abcd1, then compares the next key,
# "b", with the seek key's prefix by calling Transform("b") without asking
# InDomain first (7.8.3 db/db_iter.cc:309-315, FindNextUserEntryInternal; the
# same at 735-745 going backward).  A release build slices 4 bytes off a
# 1-byte key instead.
# Fixed upstream in RocksDB 11.2.0 by pull request 14448
# (https://github.com/facebook/rocksdb/pull/14448, commit 3f51c0a185cd):
# DBIter::PrefixCheck asks InDomain first, and iterating past an out-of-domain
# key ends the iteration.  It is listed under "Behavior Changes", not as a
# bug fix.  On filterlab's engine this replays clean (scan_prefix abcd ->
# abcd1=1).
filterlab-workload 1
open policies="bloom(bits=10,prefix=fixed:4)"
put abcd1 1
put b 2
scan_prefix abcd
