# migrations.wl -- LevelDB's filter migrations (docs/leveldb.md).
# LevelDB stores a table's filter under "filter." + the policy's name and
# uses it only while the policy in force has that name:
#   - bits changed (bloom(bits=10) -> bloom(bits=3)): one name,
#     leveldb.BuiltinBloomFilter2, so the old tables' filters stay in use
#     (each stores its own k), and new tables get 3 bits per key;
#   - policies=none: no filter is probed at all (point considered stays);
#   - back to a bloom: the tables written under none have no filter block
#     and are read unfiltered; the others' filters are used again.
# Every result is the model's; the counters show which filters were probed.
filterlab-workload 1
open policies="bloom(bits=10)" memtable_bytes=100000 block_bytes=1024
put k000 v0
put k001 v1
put k002 v2
put k003 v3
put k004 v4
put k005 v5
put k006 v6
put k007 v7
put k008 v8
put k009 v9
put k010 v10
put k011 v11
put k012 v12
put k013 v13
put k014 v14
put k015 v15
put k016 v16
put k017 v17
put k018 v18
put k019 v19
put k020 v20
put k021 v21
put k022 v22
put k023 v23
put k024 v24
put k025 v25
put k026 v26
put k027 v27
put k028 v28
put k029 v29
put k030 v30
put k031 v31
put k032 v32
put k033 v33
put k034 v34
put k035 v35
put k036 v36
put k037 v37
put k038 v38
put k039 v39
flush
get k000
get k005
get k010
get k015
get k020
get k025
get k030
get k035
get absent0
get absent1
get absent2
get absent3
get absent4
get absent5
get absent6
get absent7

# -- the same name, other bits: old filters still probed
reopen policies="bloom(bits=3)"
put k040 v40
put k041 v41
put k042 v42
put k043 v43
put k044 v44
put k045 v45
put k046 v46
put k047 v47
put k048 v48
put k049 v49
put k050 v50
put k051 v51
put k052 v52
put k053 v53
put k054 v54
put k055 v55
put k056 v56
put k057 v57
put k058 v58
put k059 v59
put k060 v60
put k061 v61
put k062 v62
put k063 v63
put k064 v64
put k065 v65
put k066 v66
put k067 v67
put k068 v68
put k069 v69
put k070 v70
put k071 v71
put k072 v72
put k073 v73
put k074 v74
put k075 v75
put k076 v76
put k077 v77
put k078 v78
put k079 v79
flush
get k000
get k007
get k014
get k021
get k028
get k035
get k042
get k049
get k056
get k063
get k070
get k077
get absent0
get absent1
get absent2
get absent3
get absent4
get absent5
get absent6
get absent7

# -- no policy: nothing probed
reopen policies="none"
put k080 v80
put k081 v81
put k082 v82
put k083 v83
put k084 v84
put k085 v85
put k086 v86
put k087 v87
put k088 v88
put k089 v89
put k090 v90
put k091 v91
put k092 v92
put k093 v93
put k094 v94
put k095 v95
put k096 v96
put k097 v97
put k098 v98
put k099 v99
flush
get k000
get k009
get k018
get k027
get k036
get k045
get k054
get k063
get k072
get k081
get k090
get k099
get absent0
get absent1
get absent2
get absent3

# -- a bloom again: the filterless table is read unfiltered
reopen policies="bloom(bits=10)"
get k000
get k006
get k012
get k018
get k024
get k030
get k036
get k042
get k048
get k054
get k060
get k066
get k072
get k078
get k084
get k090
get k096
get absent0
get absent1
get absent2
get absent3
get absent4
get absent5
get absent6
get absent7
del k010
del k050
del k090
flush
get k010
get k050
get k090
compact
get k000
get k011
get k022
get k033
get k044
get k055
get k066
get k077
get k088
get k099
get k050
scan k000 k020
seek k045 n=3
seek_for_prev k095 n=3
