# policy_lists_reordered.wl -- the policy list reordered, shrunk and grown
# between reopens, over SSTs written under earlier lists.
#
# Four policies with four names:
#   A bloom(bits=10)                               _bf
#   B bloom(bits=8,prefix=fixed:2)                 _bf:p=fixed2
#   C bloom(bits=6,prefix=delim:-,whole_key=0)     _bf:p=delim-:wh=0
#   D bloom(bits=12,prefix=capped:3)               _bf:p=capped3
# A composite filter block is a list of (name, data); a reader must match
# each entry to a configured policy by exact name, whatever the order of
# either list, use every match (AND), and skip the rest.
#
# Guards against: matching sub-filters by position (after C;A;B the first
# stored filter, A's whole-key bloom, would be decoded by C, a prefix-only
# reader: present keys read as none, or the other way round: wrong
# verdicts, checker P5/P8); stopping at the first match instead of asking
# every usable sub-filter; treating a block with unmatched names as
# malformed (filter_errors); writing the block in a fixed order the reader
# then relies on.  Keys are HEAD-N with heads of 1 to 3 bytes.
filterlab-workload 1
open policies="bloom(bits=10);bloom(bits=8,prefix=fixed:2);bloom(bits=6,prefix=delim:-,whole_key=0)" memtable_bytes=400 sst_bytes=64 l0_trigger=4

# -- SST 1 under A;B;C
put a-1 v1
put a-2 v2
put ab-1 v3
put abc-1 v4
put b-1 v5
put bc-7 v6
flush
get a-1
get a-3
get ab-1
get ab-2
get abc-1
get abd-1
get b-1
get bc-7
get bd-1
get a
scan_prefix a
scan_prefix a-
scan_prefix ab
scan_prefix abc-
scan_prefix b
scan_prefix bc
scan_prefix bd
scan_prefix ""

# -- reordered C;A;B: all three of SST 1's filters usable; SST 2 is
# written in this order
reopen policies="bloom(bits=6,prefix=delim:-,whole_key=0);bloom(bits=10);bloom(bits=8,prefix=fixed:2)"
get a-1
get a-3
get ab-1
get abc-1
get abd-1
get bc-7
get bd-1
scan_prefix ab
scan_prefix abc-
scan_prefix bd
put a-3 w1
put bd-1 w2
del ab-1
flush
get a-1
get a-3
get ab-1
get ab-2
get abc-1
get bd-1
get bd-2
get be-1
scan_prefix a-
scan_prefix ab
scan_prefix bd
scan_prefix be
scan_prefix ""

# -- shrunk to A alone: only _bf is usable in SSTs 1 and 2
reopen policies="bloom(bits=10)"
get a-1
get a-3
get ab-1
get abd-1
get bd-1
get bd-2
scan_prefix ab
scan_prefix bd
scan_prefix be

# -- grown to A;B;C;D: SST 3 carries four filters
reopen policies="bloom(bits=10);bloom(bits=8,prefix=fixed:2);bloom(bits=6,prefix=delim:-,whole_key=0);bloom(bits=12,prefix=capped:3)"
put c-1 x1
put cd-2 x2
put cde-3 x3
put a-2 x4
flush
get a-1
get a-2
get a-3
get ab-1
get c-1
get cd-2
get cde-3
get cdf-3
get cd
get c
scan_prefix c
scan_prefix cd
scan_prefix cde
scan_prefix cdf
scan_prefix a-
scan_prefix ""

# -- shrunk and reordered to D;B: SST 3 has both, SSTs 1 and 2 only B
reopen policies="bloom(bits=12,prefix=capped:3);bloom(bits=8,prefix=fixed:2)"
get a-1
get a-2
get ab-2
get bd-1
get cde-3
get cdf-3
get cd
scan_prefix cd
scan_prefix cde
scan_prefix bd
scan_prefix zz
# the fourth L0 SST compacts everything under D;B
put d-1 y1
put cd-2 y2
flush
get a-1
get a-2
get a-3
get ab-1
get cd-2
get cde-3
get d-1
get d-2
scan_prefix a
scan_prefix cd
scan_prefix d
scan_prefix ""

# -- B;D;A;C over the run that holds D;B
reopen policies="bloom(bits=8,prefix=fixed:2);bloom(bits=12,prefix=capped:3);bloom(bits=10);bloom(bits=6,prefix=delim:-,whole_key=0)"
get a-1
get ab-1
get cd-2
get cdz-1
get d-1
scan_prefix cd
scan_prefix cdz
scan_prefix ""
# -- none at all: everything unfiltered
reopen policies=none
get a-1
get cd-2
get zz-1
scan_prefix cd
scan_prefix ""
