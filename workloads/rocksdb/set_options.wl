# RocksDB (SPEC 15) and filterlab's engine alike: set_options changes the
# prefix extractor of the open database -- RocksDB's SetOptions with
# prefix_extractor=rocksdb.FixedPrefix.N / rocksdb.CappedPrefix.N / nullptr --
# and the engine's thresholds (memtable_bytes: write_buffer_size, l0_trigger,
# sst_bytes: target_file_size_base), with data in the memtable each time, so
# the memtable's prefix bloom (built under the old extractor), SSTs written
# under older extractors and new ones are all read by prefix seeks
# (seek/seek_for_prev in both modes) and scan_prefix under the new one.
# Every key is longer than 5 bytes: under RocksDB's FixedPrefix, a shorter
# key just past a prefix seek's range makes RocksDB 7.8.3 abort (see the
# docs/rocksdb.md).
filterlab-workload 1
open policies="bloom(bits=10,prefix=fixed:3)" memtable_bytes=700 sst_bytes=500 l0_trigger=3 rocksdb.memtable_prefix_bloom=0.1
put t10:u5:i25 v869
seek t10:u1:i27 n=11
put t08:u1:i23 v301
put t02:u5:i19 v14
flush
seek t04: n=3
put t03:u3:i28 v773
get t10:u2:i28
put t05:u5:i03 v354
seek_for_prev t11:u n=12
put t11:u3:i17 v180
put t02:u4:i11 v259
put t04:u4:i08 v405
seek_for_prev t08:u1:i18 n=4
put t06:u5:i20 v976
del t02:u4:i11
seek t03:u1:i n=12
scan_prefix t02:u5
seek_for_prev t03:u5 n=6
scan_prefix t11:u4:i0
put t09:u0:i18 v718
get t08:u1:i23
put t03:u1:i25 v700
get t02:u0:i13
scan_prefix t0
flush
seek t08 n=2
seek t07:u4:i n=1 prefix=0
put t07:u4:i17 v529
seek t10:u1:i n=1
seek t11: n=11
put t06:u4:i07 v364
seek_for_prev t06 n=7 prefix=0
put t01:u0:i24 v46
get t11:u3:i17
put t07:u3:i17 v399
put t04:u4:i13 v974
put t00:u0:i11 v843
put t04:u2:i19 v397
put t05:u1:i03 v369
del t07:u4:i17
put t08:u2:i04 v990
seek_for_prev t02:u4:i23 n=1
seek t01 n=2
seek t00:u5 n=4
seek_for_prev t03:u n=1
seek t09:u1:i n=6
put t08:u2:i08 v88
put t00:u1:i23 v15
put t11:u2:i27 v93
flush
seek_for_prev t02:u4 n=12
seek t01: n=7
put t02:u3:i09 v3
get t04:u2:i07
seek t05:u3:i n=8
put t09:u4:i14 v198
seek_for_prev t03:u0:i18 n=8
put t01:u0:i18 v136
put t07:u4:i16 v742
seek t11:u5 n=12
flush
put t10:u1:i09 v859
scan_prefix t10:u0:i23
put t04:u1:i15 v22
scan_prefix t03:u2:i16
put t07:u2:i20 v225
scan_prefix t08:u
seek t01:u2:i29 n=8
seek_for_prev t11 n=10 prefix=0
seek t11:u1:i19 n=1
put t11:u4:i00 v793
del t04:u4:i13
put t09:u3:i25 v585
del t01:u0:i18
seek_for_prev t08: n=11 prefix=0
put t05:u3:i18 v79
seek_for_prev t04: n=7
get t01:u2:i06
put t08:u2:i09 v860
flush
put t08:u2:i00 v208
scan_prefix t01:
flush
get t05:u1:i00
put t02:u0:i01 v236
put t02:u5:i24 v725
put t01:u3:i27 v525
put t00:u2:i19 v53
del t11:u3:i17
seek t01: n=5
put t04:u4:i22 v567
put t04:u2:i23 v732
put t10:u0:i05 v48
seek_for_prev t02 n=2 prefix=0
put t01:u0:i22 v916
get t09:u0:i18
put t05:u2:i03 v2
seek_for_prev t01:u5:i n=5
put t02:u5:i00 v647
get t02:u5:i19
put t06:u0:i11 v370
put t05:u5:i06 v109
put t02:u4:i05 v645
put t00:u4:i13 v788
put t06:u4:i06 v837
put t06:u0:i12 v808
put t06:u3:i09 v82
get t08:u2:i09
seek t07:u n=9
seek t08:u5:i06 n=4
put t04:u3:i01 v793
put t11:u3:i12 v868
scan_prefix t07:u1:i
put t06:u1:i25 v678
seek_for_prev t03:u0 n=1
seek_for_prev t06:u4:i n=8 prefix=0
flush
get t07:u3:i17
del t06:u5:i20
set_options policies="bloom(bits=10,prefix=capped:5)" memtable_bytes=400
put t11:u3:i20 v181
put t01:u0:i13 v718
seek t07: n=1 prefix=0
seek_for_prev t08:u1:i04 n=12
put t01:u2:i05 v712
del t02:u5:i00
scan_prefix t07:u
put t01:u0:i23 v609
put t08:u5:i05 v196
get t00:u1:i23
put t03:u5:i28 v461
scan_prefix t05:
seek t09:u4 n=12
seek_for_prev t08:u n=7 prefix=0
put t07:u0:i03 v782
put t03:u5:i21 v825
seek_for_prev t00: n=4
scan_prefix t1
scan_prefix t09:u1:
put t07:u0:i22 v409
put t02:u0:i28 v336
put t01:u0:i03 v959
put t09:u5:i24 v920
flush
seek_for_prev t09:u3 n=1
seek_for_prev t08:u5:i11 n=7
seek t09:u1:i10 n=2
put t09:u2:i21 v507
put t10:u3:i26 v202
del t01:u0:i22
get t00:u2:i19
put t07:u1:i15 v8
seek_for_prev t08:u n=5 prefix=0
put t09:u5:i21 v330
put t07:u0:i20 v169
get t07:u0:i03
seek_for_prev t00:u3 n=7 prefix=0
put t05:u5:i12 v254
put t11:u4:i15 v211
put t05:u1:i01 v252
put t05:u4:i26 v408
seek_for_prev t00:u0:i23 n=5
put t11:u5:i07 v141
put t06:u3:i26 v301
put t04:u0:i22 v433
put t03:u3:i03 v493
seek t01 n=4 prefix=0
put t10:u2:i12 v253
put t08:u2:i03 v80
seek_for_prev t07: n=7 prefix=0
get t04:u2:i25
seek_for_prev t08:u0:i17 n=2
seek t10: n=10
seek_for_prev t02:u0:i20 n=12
seek t09:u5:i06 n=11
put t07:u5:i16 v887
put t09:u0:i27 v276
put t07:u0:i11 v845
put t04:u3:i26 v281
flush
put t04:u5:i10 v889
seek_for_prev t02:u0:i10 n=3
seek_for_prev t04:u4:i11 n=8 prefix=0
get t06:u4:i07
flush
put t04:u1:i07 v811
put t00:u0:i03 v424
put t03:u3:i24 v759
flush
flush
put t08:u3:i16 v81
put t09:u4:i28 v408
seek t07:u2 n=10
put t01:u3:i19 v74
del t05:u3:i18
seek_for_prev t02:u2:i n=4
seek_for_prev t11 n=7 prefix=0
seek t01:u3:i n=7
get t04:u2:i13
scan_prefix t0
seek_for_prev t08:u4:i n=12
seek_for_prev t01:u4:i13 n=9 prefix=0
seek t01:u4:i14 n=3
flush
put t01:u1:i29 v38
del t05:u2:i03
seek t11: n=12
put t03:u0:i29 v12
del t11:u3:i20
seek t02:u1:i03 n=11
get t04:u4:i22
seek_for_prev t05:u n=7
put t08:u1:i10 v332
put t02:u0:i04 v919
get t10:u4:i14
flush
del t04:u3:i01
put t00:u4:i21 v711
put t04:u3:i03 v483
scan_prefix t11:u4
set_options policies="bloom(bits=10)" l0_trigger=2
del t09:u5:i21
put t09:u1:i10 v916
del t03:u1:i25
put t04:u2:i13 v474
get t01:u0:i23
put t07:u1:i16 v868
put t10:u4:i04 v46
put t10:u2:i25 v104
seek_for_prev t05 n=1 prefix=0
get t08:u2:i12
put t08:u0:i01 v599
put t03:u2:i26 v161
put t01:u4:i23 v939
del t03:u0:i29
scan_prefix t06:u1
seek t11:u n=11
put t03:u5:i14 v731
seek_for_prev t04 n=4
put t06:u5:i22 v884
put t01:u5:i11 v679
put t07:u3:i07 v324
seek_for_prev t11 n=4
put t08:u2:i14 v898
scan_prefix t07:u3:
seek_for_prev t09: n=1 prefix=0
flush
get t01:u1:i27
put t10:u3:i02 v469
flush
get t08:u2:i04
flush
put t10:u0:i17 v315
seek t09:u n=3
get t06:u1:i04
put t09:u5:i22 v914
put t08:u4:i17 v529
del t04:u5:i10
put t09:u0:i11 v100
put t03:u2:i07 v29
scan_prefix t01:u
put t08:u5:i29 v920
seek t04:u0:i03 n=3 prefix=0
seek t05:u n=12 prefix=0
seek_for_prev t05:u4:i n=9
put t00:u2:i11 v983
flush
seek t07:u0:i18 n=3
put t01:u0:i08 v214
put t07:u3:i09 v152
put t08:u1:i24 v680
seek_for_prev t08:u0 n=2
scan_prefix t05:u4:i0
flush
del t10:u1:i09
get t03:u5:i28
put t11:u3:i14 v722
put t04:u4:i23 v44
put t02:u2:i19 v860
put t09:u1:i28 v810
flush
set_options policies="bloom(bits=10,prefix=fixed:1)" sst_bytes=800 rocksdb.memtable_prefix_bloom=0
seek t05:u4:i29 n=3
seek t01:u n=4
flush
get t09:u2:i04
put t09:u5:i12 v310
seek t01 n=1 prefix=0
flush
scan_prefix t01:u3:i06
put t02:u2:i07 v737
seek t07 n=8
get t07:u1:i16
seek t10: n=10
seek_for_prev t08:u n=4
get t02:u1:i25
seek_for_prev t04:u4:i17 n=2 prefix=0
put t04:u2:i19 v270
flush
scan_prefix t08:u5:i15
put t00:u4:i24 v905
put t01:u3:i17 v352
put t04:u4:i24 v322
put t08:u4:i12 v746
flush
put t04:u5:i24 v642
scan_prefix t07:u5:i1
put t00:u4:i26 v637
put t09:u0:i08 v715
put t11:u1:i04 v174
seek t00: n=10
put t06:u0:i06 v405
put t09:u1:i20 v889
seek_for_prev t10:u0 n=3 prefix=0
seek_for_prev t09:u n=3 prefix=0
put t01:u0:i24 v868
seek t03:u n=1 prefix=0
scan_prefix t00:u4:i
get t06:u4:i07
seek_for_prev t07: n=1
put t09:u5:i03 v73
scan_prefix t04:u4:i
seek t11: n=7
put t04:u3:i10 v527
seek_for_prev t06:u n=1
put t09:u2:i10 v841
flush
del t06:u3:i09
put t00:u4:i10 v621
put t02:u2:i15 v23
del t03:u3:i03
seek_for_prev t08:u n=12
put t01:u5:i29 v602
put t09:u4:i19 v844
put t06:u5:i04 v273
get t11:u3:i12
del t01:u4:i23
put t01:u3:i27 v530
seek t10:u3 n=6
flush
put t03:u4:i03 v469
put t11:u1:i11 v782
put t00:u5:i11 v300
scan_prefix t01:u2:i
put t03:u1:i16 v699
put t03:u4:i02 v741
scan_prefix t11:u
put t05:u0:i28 v162
del t03:u5:i14
flush
del t03:u5:i21
seek t03:u2:i12 n=1
put t05:u2:i00 v799
flush
del t04:u4:i24
put t01:u4:i04 v162
seek_for_prev t05:u2:i04 n=12
put t04:u2:i22 v645
seek t00:u4 n=3
seek t08:u1 n=1
put t02:u5:i00 v116
put t04:u2:i12 v748
compact full
scan_prefix t00:u3:
put t10:u3:i15 v677
put t09:u5:i22 v267
put t00:u0:i25 v575
put t05:u2:i09 v409
scan_prefix t06:u0
put t11:u1:i03 v738
put t05:u2:i10 v405
del t10:u0:i05
scan_prefix t0
put t07:u4:i01 v5
seek_for_prev t07:u n=4
put t01:u1:i24 v155
put t11:u4:i24 v367
put t06:u3:i04 v102
del t06:u3:i04
seek t07:u1 n=1
scan_prefix t05:u4:i14
put t08:u5:i16 v80
put t04:u2:i26 v306
put t09:u3:i17 v599
put t10:u3:i18 v821
put t04:u4:i17 v419
put t02:u4:i11 v968
del t04:u2:i22
put t09:u3:i20 v156
put t03:u3:i21 v147
put t11:u4:i08 v333
seek_for_prev t11:u n=12
put t03:u3:i23 v316
put t00:u5:i26 v409
put t10:u5:i21 v846
put t09:u2:i01 v427
scan_prefix t07:u0:i
seek_for_prev t01 n=2
put t11:u0:i04 v753
put t00:u5:i27 v210
seek t02:u1:i n=3
put t08:u3:i17 v566
seek_for_prev t08:u5:i05 n=1
put t05:u3:i05 v903
get t01:u0:i23
put t11:u0:i05 v486
put t09:u5:i26 v69
put t05:u0:i13 v522
seek t11:u1:i09 n=10 prefix=0
seek_for_prev t02:u0:i11 n=6 prefix=0
scan_prefix t01
put t07:u3:i11 v263
put t02:u3:i13 v423
put t11:u2:i25 v220
seek t02:u n=9
seek_for_prev t05:u0 n=7 prefix=0
seek_for_prev t09 n=8
seek_for_prev t08:u2:i n=6
put t11:u2:i29 v187
get t08:u4:i06
scan_prefix t06
put t07:u1:i09 v650
set_options policies="bloom(bits=10,prefix=fixed:5)"
put t11:u1:i12 v743
del t02:u5:i00
scan_prefix t11:u0:i
seek t05:u2:i n=11 prefix=0
put t11:u3:i02 v872
put t04:u5:i27 v992
put t05:u5:i10 v955
seek_for_prev t09:u n=3
put t01:u0:i16 v320
get t05:u2:i09
put t07:u3:i17 v264
put t03:u5:i24 v287
seek t07:u5:i06 n=3
put t00:u4:i19 v489
get t10:u2:i23
put t06:u5:i23 v545
put t09:u4:i13 v448
seek_for_prev t07:u5 n=9
get t06:u4:i22
seek t01:u3:i18 n=8
put t10:u3:i18 v788
put t04:u1:i03 v528
put t01:u1:i15 v644
put t01:u1:i17 v630
scan_prefix t02:u3:i
scan_prefix t06:u2:i0
seek t10:u0 n=12
put t08:u2:i28 v43
put t06:u5:i23 v511
del t05:u2:i00
put t11:u3:i23 v494
put t08:u1:i25 v34
put t10:u2:i09 v343
put t08:u0:i10 v328
scan_prefix t07:u1
put t09:u0:i05 v908
seek t00: n=3 prefix=0
put t05:u1:i07 v897
get t10:u5:i17
