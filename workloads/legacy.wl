# legacy.wl -- SSTs from an older writer.  With legacy_filters=1 every SST
# gets a Legacy filter block: a bare whole-key bloom with no name and no
# filter_format field, even though the configured bloom has an extractor.
# Then a reopen with legacy_filters=0 and a prefix-only policy
# bloom(bits=10,prefix=fixed:3,whole_key=0): the Legacy blocks are still
# decoded, as whole-key filters (a get of an absent key can be ruled out;
# a scan_prefix cannot), while new SSTs carry composite prefix-only filters
# (a get probes the key's 3-byte prefix).  Keys: 3-letter region + id.
filterlab-workload 1
open legacy_filters=1 policies="bloom(bits=10,prefix=fixed:3)" memtable_bytes=4096 sst_bytes=8192 l0_trigger=4
put ams-0000 legacy-ams-0
put ams-0001 legacy-ams-1
put ams-0002 legacy-ams-2
put ams-0003 legacy-ams-3
put ams-0004 legacy-ams-4
put ams-0005 legacy-ams-5
put ams-0006 legacy-ams-6
put ams-0007 legacy-ams-7
put ams-0008 legacy-ams-8
put ams-0009 legacy-ams-9
put ams-0010 legacy-ams-10
put ams-0011 legacy-ams-11
put ams-0012 legacy-ams-12
put ams-0013 legacy-ams-13
put ams-0014 legacy-ams-14
put ams-0015 legacy-ams-15
put ams-0016 legacy-ams-16
put ams-0017 legacy-ams-17
put ams-0018 legacy-ams-18
put ams-0019 legacy-ams-19
put ams-0020 legacy-ams-20
put ams-0021 legacy-ams-21
put ams-0022 legacy-ams-22
put ams-0023 legacy-ams-23
put ams-0024 legacy-ams-24
put ams-0025 legacy-ams-25
put ams-0026 legacy-ams-26
put ams-0027 legacy-ams-27
put ams-0028 legacy-ams-28
put ams-0029 legacy-ams-29
put ams-0030 legacy-ams-30
put ams-0031 legacy-ams-31
flush
put ber-0000 legacy-ber-0
put ber-0001 legacy-ber-1
put ber-0002 legacy-ber-2
put ber-0003 legacy-ber-3
put ber-0004 legacy-ber-4
put ber-0005 legacy-ber-5
put ber-0006 legacy-ber-6
put ber-0007 legacy-ber-7
put ber-0008 legacy-ber-8
put ber-0009 legacy-ber-9
put ber-0010 legacy-ber-10
put ber-0011 legacy-ber-11
put ber-0012 legacy-ber-12
put ber-0013 legacy-ber-13
put ber-0014 legacy-ber-14
put ber-0015 legacy-ber-15
put ber-0016 legacy-ber-16
put ber-0017 legacy-ber-17
put ber-0018 legacy-ber-18
put ber-0019 legacy-ber-19
put ber-0020 legacy-ber-20
put ber-0021 legacy-ber-21
put ber-0022 legacy-ber-22
put ber-0023 legacy-ber-23
put ber-0024 legacy-ber-24
put ber-0025 legacy-ber-25
put ber-0026 legacy-ber-26
put ber-0027 legacy-ber-27
put ber-0028 legacy-ber-28
put ber-0029 legacy-ber-29
put ber-0030 legacy-ber-30
put ber-0031 legacy-ber-31
flush
# -- reads (two Legacy SSTs)
get ams-0000
get ams-0031
get ams-9999
get ber-0000
get ber-0031
get ber-9999
get cph-0000
get cph-0031
get cph-9999
get dub-0000
get dub-0031
get dub-9999
get edi-0000
get edi-0031
get edi-9999
get fra-0000
get fra-0031
get fra-9999
get gva-0000
get gva-0031
get gva-9999
get hel-0000
get hel-0031
get hel-9999
scan_prefix ams
scan_prefix cph-00
scan_prefix fra
scan_prefix gva
scan_prefix zzz
scan_prefix am
scan_prefix ""
scan ber-0010 ber-0014
get ams-0001 ctx=01
put cph-0000 legacy-cph-0
put cph-0001 legacy-cph-1
put cph-0002 legacy-cph-2
put cph-0003 legacy-cph-3
put cph-0004 legacy-cph-4
put cph-0005 legacy-cph-5
put cph-0006 legacy-cph-6
put cph-0007 legacy-cph-7
put cph-0008 legacy-cph-8
put cph-0009 legacy-cph-9
put cph-0010 legacy-cph-10
put cph-0011 legacy-cph-11
put cph-0012 legacy-cph-12
put cph-0013 legacy-cph-13
put cph-0014 legacy-cph-14
put cph-0015 legacy-cph-15
put cph-0016 legacy-cph-16
put cph-0017 legacy-cph-17
put cph-0018 legacy-cph-18
put cph-0019 legacy-cph-19
put cph-0020 legacy-cph-20
put cph-0021 legacy-cph-21
put cph-0022 legacy-cph-22
put cph-0023 legacy-cph-23
put cph-0024 legacy-cph-24
put cph-0025 legacy-cph-25
put cph-0026 legacy-cph-26
put cph-0027 legacy-cph-27
put cph-0028 legacy-cph-28
put cph-0029 legacy-cph-29
put cph-0030 legacy-cph-30
put cph-0031 legacy-cph-31
flush
put dub-0000 legacy-dub-0
put dub-0001 legacy-dub-1
put dub-0002 legacy-dub-2
put dub-0003 legacy-dub-3
put dub-0004 legacy-dub-4
put dub-0005 legacy-dub-5
put dub-0006 legacy-dub-6
put dub-0007 legacy-dub-7
put dub-0008 legacy-dub-8
put dub-0009 legacy-dub-9
put dub-0010 legacy-dub-10
put dub-0011 legacy-dub-11
put dub-0012 legacy-dub-12
put dub-0013 legacy-dub-13
put dub-0014 legacy-dub-14
put dub-0015 legacy-dub-15
put dub-0016 legacy-dub-16
put dub-0017 legacy-dub-17
put dub-0018 legacy-dub-18
put dub-0019 legacy-dub-19
put dub-0020 legacy-dub-20
put dub-0021 legacy-dub-21
put dub-0022 legacy-dub-22
put dub-0023 legacy-dub-23
put dub-0024 legacy-dub-24
put dub-0025 legacy-dub-25
put dub-0026 legacy-dub-26
put dub-0027 legacy-dub-27
put dub-0028 legacy-dub-28
put dub-0029 legacy-dub-29
put dub-0030 legacy-dub-30
put dub-0031 legacy-dub-31
flush
# -- reads (Legacy SSTs, the fourth flush compacted them into a Legacy run)
get ams-0000
get ams-0031
get ams-9999
get ber-0000
get ber-0031
get ber-9999
get cph-0000
get cph-0031
get cph-9999
get dub-0000
get dub-0031
get dub-9999
get edi-0000
get edi-0031
get edi-9999
get fra-0000
get fra-0031
get fra-9999
get gva-0000
get gva-0031
get gva-9999
get hel-0000
get hel-0031
get hel-9999
scan_prefix ams
scan_prefix cph-00
scan_prefix fra
scan_prefix gva
scan_prefix zzz
scan_prefix am
scan_prefix ""
scan ber-0010 ber-0014
get ams-0001 ctx=01
put ams-0000 legacy-overwrite
del ber-0001
flush
# -- reads (Legacy L0 over a Legacy run)
get ams-0000
get ams-0031
get ams-9999
get ber-0000
get ber-0031
get ber-9999
get cph-0000
get cph-0031
get cph-9999
get dub-0000
get dub-0031
get dub-9999
get edi-0000
get edi-0031
get edi-9999
get fra-0000
get fra-0031
get fra-9999
get gva-0000
get gva-0031
get gva-9999
get hel-0000
get hel-0031
get hel-9999
scan_prefix ams
scan_prefix cph-00
scan_prefix fra
scan_prefix gva
scan_prefix zzz
scan_prefix am
scan_prefix ""
scan ber-0010 ber-0014
get ams-0001 ctx=01
# -- the new writer: composite blocks, prefix-only
reopen legacy_filters=0 policies="bloom(bits=10,prefix=fixed:3,whole_key=0)"
# -- reads (only Legacy SSTs, read by a prefix-only configuration)
get ams-0000
get ams-0031
get ams-9999
get ber-0000
get ber-0031
get ber-9999
get cph-0000
get cph-0031
get cph-9999
get dub-0000
get dub-0031
get dub-9999
get edi-0000
get edi-0031
get edi-9999
get fra-0000
get fra-0031
get fra-9999
get gva-0000
get gva-0031
get gva-9999
get hel-0000
get hel-0031
get hel-9999
scan_prefix ams
scan_prefix cph-00
scan_prefix fra
scan_prefix gva
scan_prefix zzz
scan_prefix am
scan_prefix ""
scan ber-0010 ber-0014
get ams-0001 ctx=01
put edi-0000 new-edi-0
put edi-0001 new-edi-1
put edi-0002 new-edi-2
put edi-0003 new-edi-3
put edi-0004 new-edi-4
put edi-0005 new-edi-5
put edi-0006 new-edi-6
put edi-0007 new-edi-7
put edi-0008 new-edi-8
put edi-0009 new-edi-9
put edi-0010 new-edi-10
put edi-0011 new-edi-11
put edi-0012 new-edi-12
put edi-0013 new-edi-13
put edi-0014 new-edi-14
put edi-0015 new-edi-15
put edi-0016 new-edi-16
put edi-0017 new-edi-17
put edi-0018 new-edi-18
put edi-0019 new-edi-19
put edi-0020 new-edi-20
put edi-0021 new-edi-21
put edi-0022 new-edi-22
put edi-0023 new-edi-23
put edi-0024 new-edi-24
put edi-0025 new-edi-25
put edi-0026 new-edi-26
put edi-0027 new-edi-27
put edi-0028 new-edi-28
put edi-0029 new-edi-29
put edi-0030 new-edi-30
put edi-0031 new-edi-31
flush
put fra-0000 new-fra-0
put fra-0001 new-fra-1
put fra-0002 new-fra-2
put fra-0003 new-fra-3
put fra-0004 new-fra-4
put fra-0005 new-fra-5
put fra-0006 new-fra-6
put fra-0007 new-fra-7
put fra-0008 new-fra-8
put fra-0009 new-fra-9
put fra-0010 new-fra-10
put fra-0011 new-fra-11
put fra-0012 new-fra-12
put fra-0013 new-fra-13
put fra-0014 new-fra-14
put fra-0015 new-fra-15
put fra-0016 new-fra-16
put fra-0017 new-fra-17
put fra-0018 new-fra-18
put fra-0019 new-fra-19
put fra-0020 new-fra-20
put fra-0021 new-fra-21
put fra-0022 new-fra-22
put fra-0023 new-fra-23
put fra-0024 new-fra-24
put fra-0025 new-fra-25
put fra-0026 new-fra-26
put fra-0027 new-fra-27
put fra-0028 new-fra-28
put fra-0029 new-fra-29
put fra-0030 new-fra-30
put fra-0031 new-fra-31
flush
put cph-0031 new-overwrite
del dub-0000
flush
# -- reads (Legacy and composite SSTs side by side)
get ams-0000
get ams-0031
get ams-9999
get ber-0000
get ber-0031
get ber-9999
get cph-0000
get cph-0031
get cph-9999
get dub-0000
get dub-0031
get dub-9999
get edi-0000
get edi-0031
get edi-9999
get fra-0000
get fra-0031
get fra-9999
get gva-0000
get gva-0031
get gva-9999
get hel-0000
get hel-0031
get hel-9999
scan_prefix ams
scan_prefix cph-00
scan_prefix fra
scan_prefix gva
scan_prefix zzz
scan_prefix am
scan_prefix ""
scan ber-0010 ber-0014
get ams-0001 ctx=01
compact full
# -- reads (everything rewritten with composite prefix-only filters)
get ams-0000
get ams-0031
get ams-9999
get ber-0000
get ber-0031
get ber-9999
get cph-0000
get cph-0031
get cph-9999
get dub-0000
get dub-0031
get dub-9999
get edi-0000
get edi-0031
get edi-9999
get fra-0000
get fra-0031
get fra-9999
get gva-0000
get gva-0031
get gva-9999
get hel-0000
get hel-0031
get hel-9999
scan_prefix ams
scan_prefix cph-00
scan_prefix fra
scan_prefix gva
scan_prefix zzz
scan_prefix am
scan_prefix ""
scan ber-0010 ber-0014
get ams-0001 ctx=01
