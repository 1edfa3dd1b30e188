# compactor_none.wl -- a separately configured compactor (SPEC 2.3:
# "Compaction writes its output with the compactor's filter policies"),
# first compactor=none: flushed SSTs carry the writer's filters, compaction
# output carries no filter block at all.
#
# Reads run before and after each compaction, so the same keys are asked of
# filtered L0 SSTs and then of unfiltered run SSTs.  Then a compactor with
# a policy the writer does not have, and back.
#
# Guards against: compaction writing with the writer's policies (wrong
# sub-filter names in the manifest, checker P5/P8); an SST without a
# filter block read as corrupt (filter_errors) or as "no match" (gets and
# scans of compacted keys come back empty: data loss); a flush written
# with the compactor's policies; reading compactor-written filters with
# the writer's list (must be unusable unless the names match).
filterlab-workload 1
open policies="bloom(bits=10,prefix=fixed:3)" compactor=none memtable_bytes=300 sst_bytes=60 l0_trigger=3

# -- two filtered L0 SSTs
put cat-01 c1
put cat-02 c2
put cat-03 c3
put dog-01 d1
put dog-02 d2
flush
put eel-01 e1
put eel-02 e2
put cat-02 c2-v2
del dog-01
flush
get cat-01
get cat-02
get cat-04
get dog-01
get dog-02
get eel-01
get eel-03
get fox-01
scan_prefix cat
scan_prefix dog
scan_prefix eel-0
scan_prefix fox
scan_prefix ca
scan_prefix ""

# -- the third L0 SST triggers a compaction: the run has no filters
put fox-01 f1
put cat-05 c5
flush
get cat-01
get cat-02
get cat-04
get cat-05
get dog-01
get dog-02
get eel-01
get eel-03
get fox-01
get fox-02
get gnu-01
scan_prefix cat
scan_prefix dog
scan_prefix eel-0
scan_prefix fox
scan_prefix gnu
scan_prefix ""
scan cat-02 eel-02

# -- filtered L0 SSTs above the unfiltered run
put gnu-01 g1
del cat-05
flush
get cat-05
get gnu-01
get gnu-02
get dog-02
scan_prefix cat
scan_prefix gnu
scan_prefix ""
compact full
get cat-01
get cat-05
get gnu-01
get gnu-02
scan_prefix cat
scan_prefix gnu
scan_prefix ""

# -- a compactor whose policy the writer lacks: run SSTs get _bf:p=fixed2,
# which the writer's list cannot use; then the writer lists it too
reopen compactor="bloom(bits=10,prefix=fixed:2)"
put hen-01 h1
put hen-02 h2
flush
put ibx-01 i1
flush
get hen-01
get hen-03
get ibx-01
get cat-01
scan_prefix he
scan_prefix hen
compact full
get hen-01
get hen-03
get ibx-01
get cat-01
get cat-09
scan_prefix hen
scan_prefix ib
scan_prefix ""
reopen policies="bloom(bits=10,prefix=fixed:3);bloom(bits=10,prefix=fixed:2)"
get hen-01
get hen-03
get ibx-01
get cat-01
get cat-09
get jay-01
scan_prefix hen
scan_prefix ib
scan_prefix ja
scan_prefix ""

# -- compactor set back to the writer's list
reopen compactor="bloom(bits=10,prefix=fixed:3);bloom(bits=10,prefix=fixed:2)"
put jay-01 j1
flush
compact full
get cat-01
get jay-01
get jay-02
scan_prefix ja
scan_prefix ""
