# migration.wl -- policy migrations by reopen, reading old and new SSTs
# after each.  Keys are a 3-byte table id, ':' and a row (t01:r0007), so
# fixed:3 and delim:: both extract the table ("t01" and "t01:").
# The writer's policies go
#   bloom(bits=10)                                   name _bf
#   bloom(bits=10,prefix=fixed:3)                    name _bf:p=fixed3
#   bloom(bits=8,prefix=fixed:3);bloom(bits=10,prefix=delim::)
#                                                    _bf:p=fixed3, _bf:p=delim:
#   none
# and each stage writes two SSTs of new rows and overwrites a few old ones.
# After each reopen, SSTs whose sub-filter names match a configured policy
# keep using them (bits are not in the name: an 8-bit reader decodes a
# 10-bit filter); the others are read unfiltered.  Compactions (l0_trigger=4)
# rewrite SSTs with the policies of the moment, so old and new filters mix.
filterlab-workload 1
open policies="bloom(bits=10)" memtable_bytes=4096 sst_bytes=8192 l0_trigger=4
# -- stage 1: whole-key bloom
put t01:r0000 s1-t01-r0000
put t01:r0001 s1-t01-r0001
put t01:r0002 s1-t01-r0002
put t01:r0003 s1-t01-r0003
put t01:r0004 s1-t01-r0004
put t01:r0005 s1-t01-r0005
put t01:r0006 s1-t01-r0006
put t01:r0007 s1-t01-r0007
put t01:r0008 s1-t01-r0008
put t01:r0009 s1-t01-r0009
put t01:r0010 s1-t01-r0010
put t01:r0011 s1-t01-r0011
put t01:r0012 s1-t01-r0012
put t01:r0013 s1-t01-r0013
put t01:r0014 s1-t01-r0014
put t01:r0015 s1-t01-r0015
put t01:r0016 s1-t01-r0016
put t01:r0017 s1-t01-r0017
put t01:r0018 s1-t01-r0018
put t01:r0019 s1-t01-r0019
put t02:r0000 s1-t02-r0000
put t02:r0001 s1-t02-r0001
put t02:r0002 s1-t02-r0002
put t02:r0003 s1-t02-r0003
put t02:r0004 s1-t02-r0004
put t02:r0005 s1-t02-r0005
put t02:r0006 s1-t02-r0006
put t02:r0007 s1-t02-r0007
put t02:r0008 s1-t02-r0008
put t02:r0009 s1-t02-r0009
put t02:r0010 s1-t02-r0010
put t02:r0011 s1-t02-r0011
put t02:r0012 s1-t02-r0012
put t02:r0013 s1-t02-r0013
put t02:r0014 s1-t02-r0014
put t02:r0015 s1-t02-r0015
put t02:r0016 s1-t02-r0016
put t02:r0017 s1-t02-r0017
put t02:r0018 s1-t02-r0018
put t02:r0019 s1-t02-r0019
put t01:r0000 overwritten-in-stage-1
flush
put t01:r0020 s1-t01-r0020
put t01:r0021 s1-t01-r0021
put t01:r0022 s1-t01-r0022
put t01:r0023 s1-t01-r0023
put t01:r0024 s1-t01-r0024
put t01:r0025 s1-t01-r0025
put t01:r0026 s1-t01-r0026
put t01:r0027 s1-t01-r0027
put t01:r0028 s1-t01-r0028
put t01:r0029 s1-t01-r0029
put t01:r0030 s1-t01-r0030
put t01:r0031 s1-t01-r0031
put t01:r0032 s1-t01-r0032
put t01:r0033 s1-t01-r0033
put t01:r0034 s1-t01-r0034
put t01:r0035 s1-t01-r0035
put t01:r0036 s1-t01-r0036
put t01:r0037 s1-t01-r0037
put t01:r0038 s1-t01-r0038
put t01:r0039 s1-t01-r0039
put t02:r0020 s1-t02-r0020
put t02:r0021 s1-t02-r0021
put t02:r0022 s1-t02-r0022
put t02:r0023 s1-t02-r0023
put t02:r0024 s1-t02-r0024
put t02:r0025 s1-t02-r0025
put t02:r0026 s1-t02-r0026
put t02:r0027 s1-t02-r0027
put t02:r0028 s1-t02-r0028
put t02:r0029 s1-t02-r0029
put t02:r0030 s1-t02-r0030
put t02:r0031 s1-t02-r0031
put t02:r0032 s1-t02-r0032
put t02:r0033 s1-t02-r0033
put t02:r0034 s1-t02-r0034
put t02:r0035 s1-t02-r0035
put t02:r0036 s1-t02-r0036
put t02:r0037 s1-t02-r0037
put t02:r0038 s1-t02-r0038
put t02:r0039 s1-t02-r0039
put t01:r0001 overwritten-in-stage-1
flush
# -- reads (stage 1 SSTs)
get t01:r0000
get t01:r0039
get t01:r0040
get t02:r0000
get t02:r0039
get t02:r0040
get t03:r0000
get t03:r0039
get t03:r0040
get t04:r0000
get t04:r0039
get t04:r0040
get t05:r0000
get t05:r0039
get t05:r0040
get t06:r0000
get t06:r0039
get t06:r0040
get t07:r0000
get t07:r0039
get t07:r0040
get t08:r0000
get t08:r0039
get t08:r0040
get t01:r0001
get t09:r0000
get t1
get t01
get t01:
scan_prefix t01
scan_prefix t01:
scan_prefix t02:r001
scan_prefix t05
scan_prefix t07:
scan_prefix t09
scan_prefix t09:
scan_prefix t0
scan_prefix u
scan t02:r0010 t02:r0015
scan_prefix t03: ctx=ff
# -- stage 2: whole key and fixed:3 prefixes
reopen policies="bloom(bits=10,prefix=fixed:3)"
# -- reads (stage 1 SSTs under the stage 2 policy)
get t01:r0000
get t01:r0039
get t01:r0040
get t02:r0000
get t02:r0039
get t02:r0040
get t03:r0000
get t03:r0039
get t03:r0040
get t04:r0000
get t04:r0039
get t04:r0040
get t05:r0000
get t05:r0039
get t05:r0040
get t06:r0000
get t06:r0039
get t06:r0040
get t07:r0000
get t07:r0039
get t07:r0040
get t08:r0000
get t08:r0039
get t08:r0040
get t01:r0001
get t09:r0000
get t1
get t01
get t01:
scan_prefix t01
scan_prefix t01:
scan_prefix t02:r001
scan_prefix t05
scan_prefix t07:
scan_prefix t09
scan_prefix t09:
scan_prefix t0
scan_prefix u
scan t02:r0010 t02:r0015
scan_prefix t03: ctx=ff
put t03:r0000 s2-t03-r0000
put t03:r0001 s2-t03-r0001
put t03:r0002 s2-t03-r0002
put t03:r0003 s2-t03-r0003
put t03:r0004 s2-t03-r0004
put t03:r0005 s2-t03-r0005
put t03:r0006 s2-t03-r0006
put t03:r0007 s2-t03-r0007
put t03:r0008 s2-t03-r0008
put t03:r0009 s2-t03-r0009
put t03:r0010 s2-t03-r0010
put t03:r0011 s2-t03-r0011
put t03:r0012 s2-t03-r0012
put t03:r0013 s2-t03-r0013
put t03:r0014 s2-t03-r0014
put t03:r0015 s2-t03-r0015
put t03:r0016 s2-t03-r0016
put t03:r0017 s2-t03-r0017
put t03:r0018 s2-t03-r0018
put t03:r0019 s2-t03-r0019
put t04:r0000 s2-t04-r0000
put t04:r0001 s2-t04-r0001
put t04:r0002 s2-t04-r0002
put t04:r0003 s2-t04-r0003
put t04:r0004 s2-t04-r0004
put t04:r0005 s2-t04-r0005
put t04:r0006 s2-t04-r0006
put t04:r0007 s2-t04-r0007
put t04:r0008 s2-t04-r0008
put t04:r0009 s2-t04-r0009
put t04:r0010 s2-t04-r0010
put t04:r0011 s2-t04-r0011
put t04:r0012 s2-t04-r0012
put t04:r0013 s2-t04-r0013
put t04:r0014 s2-t04-r0014
put t04:r0015 s2-t04-r0015
put t04:r0016 s2-t04-r0016
put t04:r0017 s2-t04-r0017
put t04:r0018 s2-t04-r0018
put t04:r0019 s2-t04-r0019
put t01:r0000 overwritten-in-stage-2
flush
put t03:r0020 s2-t03-r0020
put t03:r0021 s2-t03-r0021
put t03:r0022 s2-t03-r0022
put t03:r0023 s2-t03-r0023
put t03:r0024 s2-t03-r0024
put t03:r0025 s2-t03-r0025
put t03:r0026 s2-t03-r0026
put t03:r0027 s2-t03-r0027
put t03:r0028 s2-t03-r0028
put t03:r0029 s2-t03-r0029
put t03:r0030 s2-t03-r0030
put t03:r0031 s2-t03-r0031
put t03:r0032 s2-t03-r0032
put t03:r0033 s2-t03-r0033
put t03:r0034 s2-t03-r0034
put t03:r0035 s2-t03-r0035
put t03:r0036 s2-t03-r0036
put t03:r0037 s2-t03-r0037
put t03:r0038 s2-t03-r0038
put t03:r0039 s2-t03-r0039
put t04:r0020 s2-t04-r0020
put t04:r0021 s2-t04-r0021
put t04:r0022 s2-t04-r0022
put t04:r0023 s2-t04-r0023
put t04:r0024 s2-t04-r0024
put t04:r0025 s2-t04-r0025
put t04:r0026 s2-t04-r0026
put t04:r0027 s2-t04-r0027
put t04:r0028 s2-t04-r0028
put t04:r0029 s2-t04-r0029
put t04:r0030 s2-t04-r0030
put t04:r0031 s2-t04-r0031
put t04:r0032 s2-t04-r0032
put t04:r0033 s2-t04-r0033
put t04:r0034 s2-t04-r0034
put t04:r0035 s2-t04-r0035
put t04:r0036 s2-t04-r0036
put t04:r0037 s2-t04-r0037
put t04:r0038 s2-t04-r0038
put t04:r0039 s2-t04-r0039
put t01:r0001 overwritten-in-stage-2
flush
# -- reads (a run written by the stage 2 compaction)
get t01:r0000
get t01:r0039
get t01:r0040
get t02:r0000
get t02:r0039
get t02:r0040
get t03:r0000
get t03:r0039
get t03:r0040
get t04:r0000
get t04:r0039
get t04:r0040
get t05:r0000
get t05:r0039
get t05:r0040
get t06:r0000
get t06:r0039
get t06:r0040
get t07:r0000
get t07:r0039
get t07:r0040
get t08:r0000
get t08:r0039
get t08:r0040
get t01:r0001
get t09:r0000
get t1
get t01
get t01:
scan_prefix t01
scan_prefix t01:
scan_prefix t02:r001
scan_prefix t05
scan_prefix t07:
scan_prefix t09
scan_prefix t09:
scan_prefix t0
scan_prefix u
scan t02:r0010 t02:r0015
scan_prefix t03: ctx=ff
# -- stage 3: two policies, one of them with stage 2's name
reopen policies="bloom(bits=8,prefix=fixed:3);bloom(bits=10,prefix=delim::)"
# -- reads (before stage 3 writes)
get t01:r0000
get t01:r0039
get t01:r0040
get t02:r0000
get t02:r0039
get t02:r0040
get t03:r0000
get t03:r0039
get t03:r0040
get t04:r0000
get t04:r0039
get t04:r0040
get t05:r0000
get t05:r0039
get t05:r0040
get t06:r0000
get t06:r0039
get t06:r0040
get t07:r0000
get t07:r0039
get t07:r0040
get t08:r0000
get t08:r0039
get t08:r0040
get t01:r0001
get t09:r0000
get t1
get t01
get t01:
scan_prefix t01
scan_prefix t01:
scan_prefix t02:r001
scan_prefix t05
scan_prefix t07:
scan_prefix t09
scan_prefix t09:
scan_prefix t0
scan_prefix u
scan t02:r0010 t02:r0015
scan_prefix t03: ctx=ff
put t05:r0000 s3-t05-r0000
put t05:r0001 s3-t05-r0001
put t05:r0002 s3-t05-r0002
put t05:r0003 s3-t05-r0003
put t05:r0004 s3-t05-r0004
put t05:r0005 s3-t05-r0005
put t05:r0006 s3-t05-r0006
put t05:r0007 s3-t05-r0007
put t05:r0008 s3-t05-r0008
put t05:r0009 s3-t05-r0009
put t05:r0010 s3-t05-r0010
put t05:r0011 s3-t05-r0011
put t05:r0012 s3-t05-r0012
put t05:r0013 s3-t05-r0013
put t05:r0014 s3-t05-r0014
put t05:r0015 s3-t05-r0015
put t05:r0016 s3-t05-r0016
put t05:r0017 s3-t05-r0017
put t05:r0018 s3-t05-r0018
put t05:r0019 s3-t05-r0019
put t06:r0000 s3-t06-r0000
put t06:r0001 s3-t06-r0001
put t06:r0002 s3-t06-r0002
put t06:r0003 s3-t06-r0003
put t06:r0004 s3-t06-r0004
put t06:r0005 s3-t06-r0005
put t06:r0006 s3-t06-r0006
put t06:r0007 s3-t06-r0007
put t06:r0008 s3-t06-r0008
put t06:r0009 s3-t06-r0009
put t06:r0010 s3-t06-r0010
put t06:r0011 s3-t06-r0011
put t06:r0012 s3-t06-r0012
put t06:r0013 s3-t06-r0013
put t06:r0014 s3-t06-r0014
put t06:r0015 s3-t06-r0015
put t06:r0016 s3-t06-r0016
put t06:r0017 s3-t06-r0017
put t06:r0018 s3-t06-r0018
put t06:r0019 s3-t06-r0019
put t01:r0000 overwritten-in-stage-3
flush
put t05:r0020 s3-t05-r0020
put t05:r0021 s3-t05-r0021
put t05:r0022 s3-t05-r0022
put t05:r0023 s3-t05-r0023
put t05:r0024 s3-t05-r0024
put t05:r0025 s3-t05-r0025
put t05:r0026 s3-t05-r0026
put t05:r0027 s3-t05-r0027
put t05:r0028 s3-t05-r0028
put t05:r0029 s3-t05-r0029
put t05:r0030 s3-t05-r0030
put t05:r0031 s3-t05-r0031
put t05:r0032 s3-t05-r0032
put t05:r0033 s3-t05-r0033
put t05:r0034 s3-t05-r0034
put t05:r0035 s3-t05-r0035
put t05:r0036 s3-t05-r0036
put t05:r0037 s3-t05-r0037
put t05:r0038 s3-t05-r0038
put t05:r0039 s3-t05-r0039
put t06:r0020 s3-t06-r0020
put t06:r0021 s3-t06-r0021
put t06:r0022 s3-t06-r0022
put t06:r0023 s3-t06-r0023
put t06:r0024 s3-t06-r0024
put t06:r0025 s3-t06-r0025
put t06:r0026 s3-t06-r0026
put t06:r0027 s3-t06-r0027
put t06:r0028 s3-t06-r0028
put t06:r0029 s3-t06-r0029
put t06:r0030 s3-t06-r0030
put t06:r0031 s3-t06-r0031
put t06:r0032 s3-t06-r0032
put t06:r0033 s3-t06-r0033
put t06:r0034 s3-t06-r0034
put t06:r0035 s3-t06-r0035
put t06:r0036 s3-t06-r0036
put t06:r0037 s3-t06-r0037
put t06:r0038 s3-t06-r0038
put t06:r0039 s3-t06-r0039
put t01:r0001 overwritten-in-stage-3
flush
# -- reads (stage 3 L0 SSTs over the stage 2 run)
get t01:r0000
get t01:r0039
get t01:r0040
get t02:r0000
get t02:r0039
get t02:r0040
get t03:r0000
get t03:r0039
get t03:r0040
get t04:r0000
get t04:r0039
get t04:r0040
get t05:r0000
get t05:r0039
get t05:r0040
get t06:r0000
get t06:r0039
get t06:r0040
get t07:r0000
get t07:r0039
get t07:r0040
get t08:r0000
get t08:r0039
get t08:r0040
get t01:r0001
get t09:r0000
get t1
get t01
get t01:
scan_prefix t01
scan_prefix t01:
scan_prefix t02:r001
scan_prefix t05
scan_prefix t07:
scan_prefix t09
scan_prefix t09:
scan_prefix t0
scan_prefix u
scan t02:r0010 t02:r0015
scan_prefix t03: ctx=ff
# -- stage 4: no filters; every SST is read unfiltered
reopen policies=none
# -- reads (nothing usable)
get t01:r0000
get t01:r0039
get t01:r0040
get t02:r0000
get t02:r0039
get t02:r0040
get t03:r0000
get t03:r0039
get t03:r0040
get t04:r0000
get t04:r0039
get t04:r0040
get t05:r0000
get t05:r0039
get t05:r0040
get t06:r0000
get t06:r0039
get t06:r0040
get t07:r0000
get t07:r0039
get t07:r0040
get t08:r0000
get t08:r0039
get t08:r0040
get t01:r0001
get t09:r0000
get t1
get t01
get t01:
scan_prefix t01
scan_prefix t01:
scan_prefix t02:r001
scan_prefix t05
scan_prefix t07:
scan_prefix t09
scan_prefix t09:
scan_prefix t0
scan_prefix u
scan t02:r0010 t02:r0015
scan_prefix t03: ctx=ff
put t07:r0000 s4-t07-r0000
put t07:r0001 s4-t07-r0001
put t07:r0002 s4-t07-r0002
put t07:r0003 s4-t07-r0003
put t07:r0004 s4-t07-r0004
put t07:r0005 s4-t07-r0005
put t07:r0006 s4-t07-r0006
put t07:r0007 s4-t07-r0007
put t07:r0008 s4-t07-r0008
put t07:r0009 s4-t07-r0009
put t07:r0010 s4-t07-r0010
put t07:r0011 s4-t07-r0011
put t07:r0012 s4-t07-r0012
put t07:r0013 s4-t07-r0013
put t07:r0014 s4-t07-r0014
put t07:r0015 s4-t07-r0015
put t07:r0016 s4-t07-r0016
put t07:r0017 s4-t07-r0017
put t07:r0018 s4-t07-r0018
put t07:r0019 s4-t07-r0019
put t08:r0000 s4-t08-r0000
put t08:r0001 s4-t08-r0001
put t08:r0002 s4-t08-r0002
put t08:r0003 s4-t08-r0003
put t08:r0004 s4-t08-r0004
put t08:r0005 s4-t08-r0005
put t08:r0006 s4-t08-r0006
put t08:r0007 s4-t08-r0007
put t08:r0008 s4-t08-r0008
put t08:r0009 s4-t08-r0009
put t08:r0010 s4-t08-r0010
put t08:r0011 s4-t08-r0011
put t08:r0012 s4-t08-r0012
put t08:r0013 s4-t08-r0013
put t08:r0014 s4-t08-r0014
put t08:r0015 s4-t08-r0015
put t08:r0016 s4-t08-r0016
put t08:r0017 s4-t08-r0017
put t08:r0018 s4-t08-r0018
put t08:r0019 s4-t08-r0019
put t01:r0000 overwritten-in-stage-4
flush
put t07:r0020 s4-t07-r0020
put t07:r0021 s4-t07-r0021
put t07:r0022 s4-t07-r0022
put t07:r0023 s4-t07-r0023
put t07:r0024 s4-t07-r0024
put t07:r0025 s4-t07-r0025
put t07:r0026 s4-t07-r0026
put t07:r0027 s4-t07-r0027
put t07:r0028 s4-t07-r0028
put t07:r0029 s4-t07-r0029
put t07:r0030 s4-t07-r0030
put t07:r0031 s4-t07-r0031
put t07:r0032 s4-t07-r0032
put t07:r0033 s4-t07-r0033
put t07:r0034 s4-t07-r0034
put t07:r0035 s4-t07-r0035
put t07:r0036 s4-t07-r0036
put t07:r0037 s4-t07-r0037
put t07:r0038 s4-t07-r0038
put t07:r0039 s4-t07-r0039
put t08:r0020 s4-t08-r0020
put t08:r0021 s4-t08-r0021
put t08:r0022 s4-t08-r0022
put t08:r0023 s4-t08-r0023
put t08:r0024 s4-t08-r0024
put t08:r0025 s4-t08-r0025
put t08:r0026 s4-t08-r0026
put t08:r0027 s4-t08-r0027
put t08:r0028 s4-t08-r0028
put t08:r0029 s4-t08-r0029
put t08:r0030 s4-t08-r0030
put t08:r0031 s4-t08-r0031
put t08:r0032 s4-t08-r0032
put t08:r0033 s4-t08-r0033
put t08:r0034 s4-t08-r0034
put t08:r0035 s4-t08-r0035
put t08:r0036 s4-t08-r0036
put t08:r0037 s4-t08-r0037
put t08:r0038 s4-t08-r0038
put t08:r0039 s4-t08-r0039
put t01:r0001 overwritten-in-stage-4
flush
# -- reads (stage 4)
get t01:r0000
get t01:r0039
get t01:r0040
get t02:r0000
get t02:r0039
get t02:r0040
get t03:r0000
get t03:r0039
get t03:r0040
get t04:r0000
get t04:r0039
get t04:r0040
get t05:r0000
get t05:r0039
get t05:r0040
get t06:r0000
get t06:r0039
get t06:r0040
get t07:r0000
get t07:r0039
get t07:r0040
get t08:r0000
get t08:r0039
get t08:r0040
get t01:r0001
get t09:r0000
get t1
get t01
get t01:
scan_prefix t01
scan_prefix t01:
scan_prefix t02:r001
scan_prefix t05
scan_prefix t07:
scan_prefix t09
scan_prefix t09:
scan_prefix t0
scan_prefix u
scan t02:r0010 t02:r0015
scan_prefix t03: ctx=ff
# -- back to stage 2's policy: the stage 2 run is filtered again
reopen policies="bloom(bits=10,prefix=fixed:3)"
# -- reads (stage 2 policy again)
get t01:r0000
get t01:r0039
get t01:r0040
get t02:r0000
get t02:r0039
get t02:r0040
get t03:r0000
get t03:r0039
get t03:r0040
get t04:r0000
get t04:r0039
get t04:r0040
get t05:r0000
get t05:r0039
get t05:r0040
get t06:r0000
get t06:r0039
get t06:r0040
get t07:r0000
get t07:r0039
get t07:r0040
get t08:r0000
get t08:r0039
get t08:r0040
get t01:r0001
get t09:r0000
get t1
get t01
get t01:
scan_prefix t01
scan_prefix t01:
scan_prefix t02:r001
scan_prefix t05
scan_prefix t07:
scan_prefix t09
scan_prefix t09:
scan_prefix t0
scan_prefix u
scan t02:r0010 t02:r0015
scan_prefix t03: ctx=ff
compact full
# -- reads (all rewritten by compact full)
get t01:r0000
get t01:r0039
get t01:r0040
get t02:r0000
get t02:r0039
get t02:r0040
get t03:r0000
get t03:r0039
get t03:r0040
get t04:r0000
get t04:r0039
get t04:r0040
get t05:r0000
get t05:r0039
get t05:r0040
get t06:r0000
get t06:r0039
get t06:r0040
get t07:r0000
get t07:r0039
get t07:r0040
get t08:r0000
get t08:r0039
get t08:r0040
get t01:r0001
get t09:r0000
get t1
get t01
get t01:
scan_prefix t01
scan_prefix t01:
scan_prefix t02:r001
scan_prefix t05
scan_prefix t07:
scan_prefix t09
scan_prefix t09:
scan_prefix t0
scan_prefix u
scan t02:r0010 t02:r0015
scan_prefix t03: ctx=ff
