# pebble/tombstones.wl -- tombstones.wl with Pebble's one filter: the
# prefix bloom fixed:5 with whole_key=0 (a get probes the key's prefix).
# Point deletes and range deletes across flushes and
# compactions.  A delete in a newer SST hides the key in every older one;
# a delrange [START, END) hides every older entry of its range, in every
# SST, and its range tombstone is applied even when the SST's filter rules
# the key out (filters speak for point entries only): gets of keys whose
# only newer trace is a delrange in a filtered SST must read none.  Then
# re-puts above the tombstones, compactions that drop what is shadowed, and
# a reopen.
filterlab-workload 1
open policies="bloom(bits=10,prefix=fixed:5,whole_key=0)" memtable_bytes=4096 sst_bytes=8192 l0_trigger=4
# -- 120 accounts over two SSTs
put acct:0000 balance-0
put acct:0001 balance-1
put acct:0002 balance-2
put acct:0003 balance-3
put acct:0004 balance-4
put acct:0005 balance-5
put acct:0006 balance-6
put acct:0007 balance-7
put acct:0008 balance-8
put acct:0009 balance-9
put acct:0010 balance-10
put acct:0011 balance-11
put acct:0012 balance-12
put acct:0013 balance-13
put acct:0014 balance-14
put acct:0015 balance-15
put acct:0016 balance-16
put acct:0017 balance-17
put acct:0018 balance-18
put acct:0019 balance-19
put acct:0020 balance-20
put acct:0021 balance-21
put acct:0022 balance-22
put acct:0023 balance-23
put acct:0024 balance-24
put acct:0025 balance-25
put acct:0026 balance-26
put acct:0027 balance-27
put acct:0028 balance-28
put acct:0029 balance-29
put acct:0030 balance-30
put acct:0031 balance-31
put acct:0032 balance-32
put acct:0033 balance-33
put acct:0034 balance-34
put acct:0035 balance-35
put acct:0036 balance-36
put acct:0037 balance-37
put acct:0038 balance-38
put acct:0039 balance-39
put acct:0040 balance-40
put acct:0041 balance-41
put acct:0042 balance-42
put acct:0043 balance-43
put acct:0044 balance-44
put acct:0045 balance-45
put acct:0046 balance-46
put acct:0047 balance-47
put acct:0048 balance-48
put acct:0049 balance-49
put acct:0050 balance-50
put acct:0051 balance-51
put acct:0052 balance-52
put acct:0053 balance-53
put acct:0054 balance-54
put acct:0055 balance-55
put acct:0056 balance-56
put acct:0057 balance-57
put acct:0058 balance-58
put acct:0059 balance-59
flush
put acct:0060 balance-60
put acct:0061 balance-61
put acct:0062 balance-62
put acct:0063 balance-63
put acct:0064 balance-64
put acct:0065 balance-65
put acct:0066 balance-66
put acct:0067 balance-67
put acct:0068 balance-68
put acct:0069 balance-69
put acct:0070 balance-70
put acct:0071 balance-71
put acct:0072 balance-72
put acct:0073 balance-73
put acct:0074 balance-74
put acct:0075 balance-75
put acct:0076 balance-76
put acct:0077 balance-77
put acct:0078 balance-78
put acct:0079 balance-79
put acct:0080 balance-80
put acct:0081 balance-81
put acct:0082 balance-82
put acct:0083 balance-83
put acct:0084 balance-84
put acct:0085 balance-85
put acct:0086 balance-86
put acct:0087 balance-87
put acct:0088 balance-88
put acct:0089 balance-89
put acct:0090 balance-90
put acct:0091 balance-91
put acct:0092 balance-92
put acct:0093 balance-93
put acct:0094 balance-94
put acct:0095 balance-95
put acct:0096 balance-96
put acct:0097 balance-97
put acct:0098 balance-98
put acct:0099 balance-99
put acct:0100 balance-100
put acct:0101 balance-101
put acct:0102 balance-102
put acct:0103 balance-103
put acct:0104 balance-104
put acct:0105 balance-105
put acct:0106 balance-106
put acct:0107 balance-107
put acct:0108 balance-108
put acct:0109 balance-109
put acct:0110 balance-110
put acct:0111 balance-111
put acct:0112 balance-112
put acct:0113 balance-113
put acct:0114 balance-114
put acct:0115 balance-115
put acct:0116 balance-116
put acct:0117 balance-117
put acct:0118 balance-118
put acct:0119 balance-119
flush
# -- reads (all present)
get acct:0000
get acct:0001
get acct:0005
get acct:0010
get acct:0019
get acct:0020
get acct:0021
get acct:0039
get acct:0040
get acct:0041
get acct:0055
get acct:0060
get acct:0079
get acct:0080
get acct:0099
get acct:0100
get acct:0119
# -- point deletes in the memtable, then in an SST of their own
del acct:0005
del acct:0060
del acct:0119
del acct:0500
# -- reads (deletes in the memtable)
get acct:0005
get acct:0060
get acct:0119
get acct:0500
get acct:0006
flush
# -- reads (deletes in L0)
get acct:0005
get acct:0060
get acct:0119
get acct:0500
get acct:0006
# -- a delrange alone in an SST: its filter holds no point entry, yet
# the range tombstone must hide acct:0020..acct:0039 in the older SSTs
delrange acct:0020 acct:0040
flush
# -- reads (delrange in a filtered SST)
get acct:0019
get acct:0020
get acct:0021
get acct:0039
get acct:0040
scan acct:0015 acct:0045
scan_prefix acct:002
scan_prefix acct:
scan_prefix acct:01
# -- the fourth L0 SST compacts everything into a run; the tombstones
# stay above nothing older, so they may go
put acct:0200 new-account
delrange acct:0070 acct:0080
flush
# -- reads (after the compaction)
get acct:0005
get acct:0020
get acct:0039
get acct:0060
get acct:0069
get acct:0070
get acct:0075
get acct:0079
get acct:0080
get acct:0119
get acct:0200
scan acct:0065 acct:0085
# -- re-put inside deleted ranges: newer than the tombstones, visible
put acct:0025 back-again
put acct:0005 back-again
flush
delrange acct:0000 acct:0010
put acct:0003 after-the-range
flush
# -- reads (re-puts and a delrange over them)
get acct:0000
get acct:0003
get acct:0005
get acct:0009
get acct:0010
get acct:0025
get acct:0026
scan acct:0000 acct:0030
# -- a delrange in the memtable over keys in SSTs, and one over nothing
delrange acct:0100 acct:0110
delrange zzz:0000 zzz:9999
# -- reads (memtable delrange)
get acct:0099
get acct:0100
get acct:0105
get acct:0109
get acct:0110
flush
compact
# -- reads (after compact)
get acct:0000
get acct:0003
get acct:0005
get acct:0025
get acct:0099
get acct:0100
get acct:0105
get acct:0110
# -- deletes of the same key in several SSTs, then compact full
put acct:0050 v1
flush
del acct:0050
flush
put acct:0050 v2
flush
del acct:0050
# -- reads (deleted again in the memtable)
get acct:0050
flush
compact full
# -- reads (after compact full)
get acct:0000
get acct:0001
get acct:0005
get acct:0010
get acct:0019
get acct:0020
get acct:0021
get acct:0039
get acct:0040
get acct:0041
get acct:0055
get acct:0060
get acct:0079
get acct:0080
get acct:0099
get acct:0100
get acct:0119
get acct:0003
get acct:0025
get acct:0050
get acct:0200
scan_prefix acct:
reopen l0_trigger=4
# -- reads (after reopen)
get acct:0000
get acct:0001
get acct:0005
get acct:0010
get acct:0019
get acct:0020
get acct:0021
get acct:0039
get acct:0040
get acct:0041
get acct:0055
get acct:0060
get acct:0079
get acct:0080
get acct:0099
get acct:0100
get acct:0119
get acct:0003
get acct:0025
get acct:0050
get acct:0200
scan acct:0000 acct:9999
