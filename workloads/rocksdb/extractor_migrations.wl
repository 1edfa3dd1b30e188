# RocksDB (SPEC 15) and filterlab's engine alike: one filter policy at a
# time, migrated at every reopen -- a whole-key bloom; RocksDB's own
# FixedPrefix (whole_key on, then off) and CappedPrefix (on, then off, with a
# memtable prefix bloom); filterlab's delim and lastdelim extractors wrapped
# as RocksDB slice transforms (with the memtable's whole-key bloom); fixed:4
# wrapped (rocksdb.extractor=wrapped); fixed:3 native; none.  SSTs written
# under one extractor are read under the next, so a reader must not probe
# them with the new prefixes (RocksDB compares the extractor's name).  Keys
# tNN:uN:iNN with puts, deletes and a range delete per phase; gets of
# present, deleted and absent keys; scan_prefix at, under and over each
# extractor's length and of absent tenants.  Every key is longer than 4
# bytes: under RocksDB's FixedPrefix, a shorter key just past a prefix
# seek's range makes RocksDB 7.8.3 abort (see docs/rocksdb.md).
filterlab-workload 1
open policies="bloom(bits=10)" memtable_bytes=700 sst_bytes=500 l0_trigger=3
put t05:u3:i21 v931
put t11:u2:i20 v236
put t11:u2:i27 v230
put t11:u2:i04 v72
put t09:u2:i23 v301
put t01:u4:i04 v857
put t11:u5:i00 v282
put t03:u1:i27 v813
put t05:u4:i23 v447
put t03:u3:i11 v870
put t04:u4:i28 v773
put t09:u5:i13 v686
put t06:u4:i20 v321
put t11:u1:i11 v839
put t10:u3:i22 v459
put t09:u5:i23 v138
put t08:u4:i17 v180
put t05:u2:i05 v535
put t06:u3:i11 v470
put t05:u5:i08 v405
put t03:u5:i15 v563
put t04:u5:i07 v907
put t04:u3:i04 v75
put t07:u4:i12 v2
put t07:u1:i07 v145
put t08:u4:i20 v259
put t03:u4:i23 v889
put t05:u3:i06 v722
put t11:u3:i16 v733
put t11:u2:i28 v994
put t10:u2:i23 v508
put t04:u5:i01 v594
put t10:u1:i11 v597
put t10:u3:i05 v302
put t04:u2:i25 v700
put t09:u1:i28 v230
put t03:u1:i13 v658
put t10:u5:i25 v556
put t01:u4:i26 v351
put t11:u1:i16 v3
del t04:u3:i04
del t07:u4:i12
del t04:u2:i25
del t10:u3:i05
delrange t05:u2: t05:u3:
flush
get t07:u1:i07
get t03:u3:i11
get t11:u2:i04
get t11:u2:i28
get t09:u5:i23
get t03:u1:i13
get t01:u7:i10
get t03:u7:i17
get t09:u8:i26
get t08:u6:i21
get t04:u7:i25
get t01:u7:i16
get t05:u2:i01
scan_prefix t03:
scan_prefix t03:u3:
scan_prefix t07
scan_prefix t0
scan_prefix t46:
scan_prefix t05:u9:
scan_prefix t10:u5:i25
scan t10: t10:u3
reopen policies="bloom(bits=10,prefix=fixed:4)"
put t04:u3:i24 v250
put t10:u3:i13 v208
put t11:u3:i13 v39
put t06:u4:i14 v88
put t02:u1:i19 v943
put t01:u3:i06 v460
put t08:u5:i12 v340
put t01:u3:i16 v445
put t03:u2:i27 v53
put t02:u3:i26 v160
put t04:u3:i09 v617
put t07:u3:i01 v355
put t03:u1:i11 v502
put t08:u5:i28 v597
put t07:u1:i11 v547
put t05:u2:i25 v50
put t06:u2:i28 v908
put t09:u2:i28 v5
put t04:u2:i02 v490
put t06:u1:i11 v270
put t04:u1:i22 v243
put t11:u2:i16 v805
put t08:u2:i18 v402
put t10:u1:i26 v560
put t01:u1:i19 v140
put t09:u3:i17 v406
put t05:u2:i17 v305
put t05:u1:i11 v53
put t01:u2:i23 v15
put t02:u5:i22 v277
put t02:u3:i25 v642
put t07:u2:i19 v853
put t11:u3:i29 v780
put t01:u1:i03 v315
put t07:u4:i15 v399
put t05:u2:i25 v153
put t08:u3:i00 v538
put t01:u5:i08 v282
put t06:u2:i29 v253
put t06:u4:i05 v856
del t10:u3:i13
del t09:u1:i28
del t05:u5:i08
del t04:u1:i22
delrange t08:u2: t08:u3:
flush
get t11:u3:i16
get t10:u5:i25
get t04:u5:i07
get t08:u5:i12
get t11:u1:i11
get t04:u5:i07
get t01:u8:i28
get t01:u7:i26
get t09:u6:i04
get t02:u6:i18
get t03:u7:i02
get t08:u8:i16
get t08:u2:i01
scan_prefix t01:
scan_prefix t04:u4:
scan_prefix t01
scan_prefix t0
scan_prefix t57:
scan_prefix t01:u9:
scan_prefix t03:u5:i15
scan t05: t05:u3
reopen policies="bloom(bits=8,prefix=fixed:4,whole_key=0)"
put t10:u2:i20 v54
put t09:u4:i29 v768
put t05:u2:i15 v22
put t10:u1:i07 v323
put t09:u5:i00 v585
put t08:u3:i20 v225
put t10:u1:i16 v717
put t07:u2:i29 v522
put t01:u1:i11 v936
put t03:u4:i26 v360
put t03:u3:i23 v232
put t11:u3:i18 v95
put t05:u2:i04 v743
put t03:u5:i03 v57
put t09:u2:i19 v752
put t09:u1:i24 v473
put t06:u4:i18 v834
put t10:u4:i25 v585
put t09:u4:i02 v955
put t08:u5:i08 v346
put t07:u1:i29 v210
put t11:u3:i12 v593
put t02:u4:i29 v424
put t05:u1:i22 v458
put t07:u4:i15 v577
put t01:u1:i08 v220
put t01:u2:i17 v332
put t05:u5:i06 v441
put t09:u3:i00 v208
put t11:u1:i23 v115
put t11:u2:i02 v567
put t07:u2:i10 v162
put t01:u2:i22 v189
put t01:u1:i07 v447
put t10:u2:i21 v788
put t07:u1:i25 v498
put t09:u2:i03 v55
put t06:u5:i01 v531
put t09:u2:i02 v723
put t07:u3:i13 v304
del t04:u4:i28
del t05:u1:i11
del t05:u2:i15
del t11:u3:i16
delrange t10:u2: t10:u3:
flush
get t10:u5:i25
get t09:u2:i02
get t07:u1:i25
get t05:u2:i17
get t05:u2:i05
get t11:u2:i02
get t04:u6:i26
get t11:u6:i05
get t01:u6:i24
get t05:u6:i25
get t04:u8:i09
get t02:u6:i15
get t10:u2:i01
scan_prefix t08:
scan_prefix t10:u1:
scan_prefix t01
scan_prefix t0
scan_prefix t58:
scan_prefix t09:u9:
scan_prefix t07:u1:i25
scan t03: t03:u3
compact
reopen policies="bloom(bits=10,prefix=capped:6)"
put t08:u2:i15 v339
put t06:u1:i00 v729
put t08:u1:i22 v103
put t05:u4:i00 v431
put t03:u1:i20 v532
put t03:u2:i11 v154
put t07:u4:i00 v365
put t06:u3:i24 v357
put t04:u1:i04 v759
put t03:u5:i05 v645
put t07:u1:i25 v979
put t10:u4:i24 v126
put t08:u4:i17 v213
put t03:u5:i12 v818
put t01:u4:i25 v403
put t06:u4:i12 v294
put t02:u5:i07 v410
put t03:u5:i24 v571
put t01:u4:i14 v105
put t09:u5:i23 v463
put t03:u5:i01 v568
put t04:u1:i07 v995
put t07:u1:i15 v279
put t07:u1:i24 v358
put t04:u4:i12 v868
put t10:u2:i14 v789
put t04:u4:i24 v581
put t07:u1:i12 v412
put t04:u2:i18 v900
put t07:u2:i01 v37
put t01:u4:i16 v741
put t11:u5:i12 v411
put t09:u2:i27 v982
put t08:u1:i15 v992
put t08:u5:i20 v458
put t02:u5:i16 v706
put t09:u1:i01 v727
put t08:u2:i07 v740
put t02:u1:i13 v718
put t09:u2:i14 v491
del t01:u3:i16
del t09:u2:i27
del t01:u4:i14
del t05:u2:i17
delrange t05:u2: t05:u3:
flush
get t11:u2:i02
get t11:u3:i13
get t04:u1:i04
get t03:u5:i24
get t04:u1:i07
get t01:u1:i19
get t03:u8:i02
get t05:u6:i22
get t08:u6:i21
get t08:u6:i19
get t04:u6:i14
get t02:u6:i23
get t05:u2:i01
scan_prefix t10:
scan_prefix t02:u4:
scan_prefix t09
scan_prefix t0
scan_prefix t45:
scan_prefix t04:u9:
scan_prefix t02:u1:i13
scan t01: t01:u3
reopen policies="bloom(bits=10,prefix=capped:6,whole_key=0)" rocksdb.memtable_prefix_bloom=0.1
put t07:u5:i06 v736
put t08:u3:i04 v458
put t11:u5:i20 v785
put t03:u2:i26 v246
put t10:u5:i25 v719
put t10:u1:i16 v739
put t07:u5:i25 v173
put t07:u5:i13 v251
put t05:u3:i14 v789
put t01:u1:i24 v453
put t08:u2:i22 v687
put t03:u3:i00 v737
put t08:u2:i17 v282
put t10:u5:i29 v826
put t10:u1:i21 v800
put t10:u2:i13 v338
put t04:u4:i00 v708
put t07:u3:i03 v141
put t01:u3:i14 v28
put t02:u1:i03 v959
put t06:u1:i19 v783
put t11:u2:i23 v583
put t08:u5:i14 v589
put t01:u4:i16 v733
put t01:u5:i10 v566
put t06:u1:i28 v416
put t07:u1:i19 v214
put t06:u2:i03 v587
put t03:u1:i12 v597
put t05:u4:i09 v762
put t11:u4:i26 v202
put t08:u2:i03 v591
put t09:u4:i09 v47
put t02:u3:i14 v997
put t04:u4:i00 v699
put t01:u4:i16 v72
put t08:u5:i09 v215
put t11:u1:i19 v631
put t11:u3:i00 v308
put t08:u1:i20 v169
del t09:u4:i09
del t07:u1:i11
del t01:u3:i06
del t06:u3:i11
delrange t07:u2: t07:u3:
flush
get t01:u1:i03
get t08:u2:i22
get t03:u3:i00
get t08:u2:i22
get t01:u4:i25
get t07:u3:i13
get t03:u6:i24
get t06:u8:i12
get t04:u7:i27
get t09:u7:i06
get t01:u6:i10
get t03:u6:i07
get t07:u2:i01
scan_prefix t04:
scan_prefix t05:u3:
scan_prefix t10
scan_prefix t0
scan_prefix t52:
scan_prefix t09:u9:
scan_prefix t11:u3:i00
scan t05: t05:u3
reopen policies="bloom(bits=10,prefix=delim::)"
put t01:u1:i23 v938
put t04:u3:i29 v67
put t09:u2:i04 v106
put t07:u4:i14 v834
put t05:u3:i17 v261
put t02:u4:i09 v665
put t04:u4:i03 v493
put t04:u1:i02 v211
put t02:u3:i06 v172
put t11:u1:i20 v354
put t07:u2:i06 v606
put t09:u3:i03 v80
put t11:u3:i13 v478
put t07:u4:i12 v77
put t06:u5:i13 v520
put t03:u3:i09 v800
put t07:u4:i17 v69
put t09:u2:i29 v861
put t02:u3:i20 v849
put t10:u1:i20 v340
put t06:u4:i18 v904
put t07:u5:i12 v967
put t03:u1:i20 v218
put t07:u5:i03 v621
put t04:u1:i21 v868
put t11:u4:i13 v500
put t11:u5:i27 v210
put t07:u5:i02 v882
put t05:u4:i22 v449
put t01:u3:i26 v195
put t05:u4:i26 v281
put t03:u3:i21 v294
put t06:u3:i26 v186
put t01:u3:i29 v88
put t03:u2:i24 v666
put t05:u3:i27 v601
put t06:u1:i15 v91
put t03:u5:i12 v475
put t07:u3:i13 v100
put t01:u3:i05 v244
del t11:u5:i12
del t01:u4:i26
del t01:u1:i08
del t01:u1:i23
delrange t02:u2: t02:u3:
flush
get t07:u2:i01
get t04:u3:i29
get t03:u4:i23
get t04:u1:i02
get t07:u4:i14
get t11:u3:i18
get t03:u8:i10
get t02:u8:i25
get t07:u8:i02
get t02:u7:i18
get t10:u7:i26
get t01:u7:i29
get t02:u2:i01
scan_prefix t05:
scan_prefix t02:u5:
scan_prefix t05
scan_prefix t0
scan_prefix t48:
scan_prefix t04:u9:
scan_prefix t02:u5:i16
scan t08: t08:u3
compact
reopen policies="bloom(bits=10,prefix=delim::,whole_key=0)" rocksdb.memtable_whole_key_filtering=1
put t10:u1:i14 v37
put t05:u4:i05 v374
put t08:u2:i19 v265
put t08:u5:i29 v424
put t06:u3:i12 v156
put t06:u5:i01 v85
put t08:u2:i26 v434
put t09:u3:i11 v437
put t10:u2:i12 v581
put t11:u1:i24 v491
put t07:u5:i28 v931
put t10:u1:i24 v724
put t06:u3:i27 v952
put t05:u1:i19 v434
put t02:u5:i01 v312
put t04:u2:i02 v566
put t08:u1:i04 v472
put t08:u2:i00 v12
put t02:u2:i29 v38
put t09:u2:i09 v875
put t05:u1:i23 v827
put t10:u4:i22 v455
put t02:u3:i12 v238
put t01:u1:i15 v281
put t11:u4:i16 v188
put t03:u2:i03 v31
put t11:u3:i17 v539
put t01:u1:i08 v970
put t03:u3:i10 v649
put t11:u5:i12 v364
put t04:u2:i09 v575
put t04:u3:i10 v78
put t07:u2:i27 v40
put t03:u5:i06 v983
put t11:u5:i14 v979
put t08:u3:i01 v86
put t01:u5:i21 v711
put t02:u3:i29 v484
put t02:u4:i20 v923
put t10:u3:i08 v484
del t11:u5:i27
del t08:u2:i07
del t01:u1:i24
del t10:u2:i14
delrange t10:u2: t10:u3:
flush
get t02:u4:i29
get t05:u2:i05
get t11:u4:i16
get t07:u4:i00
get t04:u4:i03
get t03:u2:i24
get t05:u7:i08
get t06:u7:i14
get t09:u7:i05
get t04:u6:i05
get t08:u6:i16
get t07:u6:i26
get t10:u2:i01
scan_prefix t11:
scan_prefix t10:u2:
scan_prefix t01
scan_prefix t0
scan_prefix t50:
scan_prefix t03:u9:
scan_prefix t08:u5:i12
scan t06: t06:u3
reopen policies="bloom(bits=10,prefix=lastdelim::)"
put t02:u5:i28 v601
put t09:u4:i10 v525
put t10:u3:i00 v213
put t01:u5:i16 v761
put t07:u5:i09 v399
put t03:u3:i16 v865
put t01:u1:i18 v423
put t04:u3:i26 v161
put t02:u1:i03 v631
put t08:u2:i21 v128
put t07:u2:i13 v591
put t05:u2:i22 v763
put t09:u5:i24 v671
put t01:u1:i13 v224
put t11:u4:i22 v742
put t04:u4:i08 v679
put t09:u3:i06 v685
put t08:u1:i26 v422
put t11:u3:i16 v115
put t11:u3:i21 v329
put t11:u4:i14 v241
put t06:u2:i10 v908
put t04:u3:i24 v199
put t06:u4:i05 v350
put t09:u3:i14 v898
put t11:u1:i27 v474
put t07:u3:i29 v721
put t07:u5:i03 v608
put t08:u1:i03 v997
put t02:u5:i17 v715
put t08:u1:i07 v877
put t01:u1:i20 v467
put t02:u4:i13 v555
put t05:u1:i00 v875
put t09:u2:i10 v511
put t11:u1:i17 v315
put t06:u1:i25 v621
put t05:u2:i18 v129
put t09:u5:i26 v911
put t07:u2:i04 v180
del t05:u1:i22
del t06:u5:i13
del t11:u3:i18
del t11:u5:i00
delrange t08:u2: t08:u3:
flush
get t05:u4:i00
get t07:u5:i28
get t07:u1:i24
get t10:u2:i23
get t03:u3:i10
get t08:u5:i08
get t02:u7:i01
get t04:u7:i07
get t01:u8:i18
get t02:u7:i28
get t04:u6:i16
get t09:u8:i29
get t08:u2:i01
scan_prefix t01:
scan_prefix t05:u1:
scan_prefix t02
scan_prefix t0
scan_prefix t47:
scan_prefix t03:u9:
scan_prefix t01:u5:i21
scan t08: t08:u3
reopen policies="bloom(bits=10,prefix=fixed:4,whole_key=0)" rocksdb.extractor=wrapped
put t03:u3:i21 v67
put t09:u1:i23 v663
put t07:u3:i18 v221
put t09:u3:i13 v165
put t09:u1:i09 v360
put t04:u4:i00 v970
put t10:u1:i04 v906
put t08:u1:i20 v95
put t02:u3:i06 v379
put t11:u4:i15 v976
put t05:u2:i10 v662
put t09:u2:i24 v680
put t11:u3:i17 v891
put t02:u4:i21 v111
put t08:u1:i11 v548
put t01:u4:i18 v496
put t05:u5:i21 v16
put t04:u3:i01 v493
put t08:u4:i22 v304
put t04:u3:i16 v750
put t01:u3:i14 v153
put t06:u5:i26 v358
put t10:u2:i28 v810
put t01:u3:i16 v955
put t04:u2:i21 v214
put t09:u1:i03 v286
put t10:u5:i25 v213
put t02:u5:i15 v863
put t05:u5:i09 v148
put t07:u4:i19 v730
put t07:u3:i26 v847
put t03:u1:i10 v77
put t05:u1:i05 v569
put t08:u5:i17 v126
put t08:u2:i28 v523
put t04:u4:i04 v374
put t04:u2:i25 v990
put t02:u4:i00 v393
put t06:u4:i08 v253
put t09:u2:i01 v267
del t10:u2:i28
del t04:u3:i16
del t01:u5:i10
del t05:u3:i27
delrange t03:u2: t03:u3:
flush
get t08:u3:i04
get t11:u4:i15
get t07:u4:i17
get t10:u1:i14
get t09:u3:i13
get t11:u1:i17
get t09:u6:i14
get t05:u8:i26
get t03:u6:i25
get t05:u7:i18
get t09:u6:i29
get t02:u6:i16
get t03:u2:i01
scan_prefix t03:
scan_prefix t10:u3:
scan_prefix t05
scan_prefix t0
scan_prefix t59:
scan_prefix t05:u9:
scan_prefix t07:u3:i01
scan t09: t09:u3
compact
reopen policies="bloom(bits=10,prefix=fixed:3)" rocksdb.extractor=native rocksdb.memtable_prefix_bloom=0
put t08:u5:i12 v159
put t01:u5:i24 v905
put t06:u1:i14 v571
put t06:u4:i04 v295
put t10:u3:i12 v322
put t09:u5:i12 v746
put t11:u1:i14 v294
put t11:u5:i29 v449
put t11:u5:i27 v449
put t04:u1:i19 v833
put t10:u1:i05 v623
put t02:u3:i22 v166
put t03:u2:i05 v696
put t02:u1:i06 v49
put t07:u5:i14 v674
put t06:u3:i12 v887
put t01:u2:i12 v402
put t10:u2:i20 v889
put t07:u3:i27 v656
put t02:u2:i02 v376
put t11:u4:i13 v614
put t07:u5:i18 v141
put t04:u2:i13 v336
put t02:u1:i24 v868
put t05:u1:i07 v513
put t10:u5:i01 v73
put t04:u5:i08 v23
put t10:u2:i18 v385
put t09:u2:i29 v514
put t07:u4:i11 v338
put t08:u1:i22 v618
put t08:u1:i25 v823
put t10:u1:i02 v692
put t01:u3:i18 v769
put t10:u4:i27 v101
put t01:u3:i12 v437
put t10:u1:i28 v293
put t08:u3:i16 v793
put t09:u4:i13 v914
put t10:u3:i16 v55
del t06:u3:i12
del t05:u3:i14
del t11:u1:i16
del t07:u2:i06
delrange t06:u2: t06:u3:
flush
get t09:u5:i13
get t04:u2:i13
get t09:u3:i14
get t08:u2:i28
get t01:u2:i17
get t11:u1:i27
get t06:u8:i06
get t04:u6:i11
get t08:u6:i14
get t03:u7:i22
get t06:u7:i29
get t09:u6:i26
get t06:u2:i01
scan_prefix t09:
scan_prefix t04:u3:
scan_prefix t02
scan_prefix t0
scan_prefix t58:
scan_prefix t08:u9:
scan_prefix t09:u4:i29
scan t10: t10:u3
reopen policies=none
put t09:u5:i26 v62
put t07:u2:i08 v614
put t08:u5:i23 v494
put t08:u3:i26 v831
put t02:u3:i01 v72
put t07:u5:i25 v658
put t04:u4:i16 v661
put t06:u4:i23 v571
put t02:u2:i07 v590
put t02:u4:i08 v812
put t04:u3:i24 v156
put t09:u1:i21 v375
put t05:u5:i25 v789
put t02:u3:i13 v714
put t07:u4:i22 v215
put t04:u5:i21 v190
put t02:u2:i17 v82
put t11:u3:i23 v14
put t09:u2:i08 v618
put t06:u1:i28 v162
put t08:u5:i05 v978
put t03:u4:i09 v833
put t11:u5:i05 v849
put t03:u5:i17 v137
put t04:u3:i12 v226
put t01:u5:i11 v428
put t06:u3:i00 v799
put t07:u4:i06 v213
put t06:u1:i18 v149
put t03:u4:i11 v375
put t03:u2:i23 v997
put t04:u3:i10 v281
put t05:u2:i20 v55
put t01:u5:i16 v761
put t03:u3:i02 v950
put t09:u2:i17 v156
put t11:u1:i09 v109
put t02:u2:i04 v716
put t01:u1:i05 v575
put t05:u3:i12 v748
del t11:u3:i00
del t05:u4:i00
del t01:u4:i04
del t08:u5:i08
delrange t06:u2: t06:u3:
flush
get t01:u3:i12
get t11:u4:i14
get t11:u1:i24
get t07:u4:i11
get t08:u3:i26
get t11:u3:i13
get t06:u8:i29
get t05:u7:i05
get t01:u6:i25
get t09:u7:i13
get t06:u7:i09
get t07:u8:i04
get t06:u2:i01
scan_prefix t07:
scan_prefix t02:u1:
scan_prefix t05
scan_prefix t0
scan_prefix t41:
scan_prefix t08:u9:
scan_prefix t03:u5:i01
scan t02: t02:u3
compact full
scan_prefix t01:
scan_prefix t05:u1:
scan_prefix t0
scan_prefix t77:
