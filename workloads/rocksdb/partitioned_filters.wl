# RocksDB (SPEC 15) and filterlab's engine alike: partitioned filters
# (rocksdb.partition_filters=1 with RocksDB's two-level index) with 64- and
# 256-byte metadata blocks, so that every SST's filter has many partitions,
# under whole-key and prefix-only blooms, format_version 4 (RocksDB's older
# bloom) and 5, a Ribbon filter, optimize_filters_for_hits (no filters on
# the last level) and cache_index_and_filter_blocks; then back to
# unpartitioned filters over SSTs that have partitions.  filterlab's engine
# ignores the rocksdb.* options.  Keys tNN:uN:iNN in 128-byte blocks.
filterlab-workload 1
open policies="bloom(bits=10)" memtable_bytes=6000 sst_bytes=4000 block_bytes=128 l0_trigger=4 rocksdb.partition_filters=1 rocksdb.metadata_block_size=64
put t18:u1:i11 v612
put t10:u1:i16 v949
put t12:u4:i13 v19
put t02:u1:i27 v455
put t08:u3:i02 v509
put t11:u5:i17 v429
put t07:u4:i05 v224
put t14:u4:i21 v811
put t19:u5:i06 v556
put t14:u3:i08 v524
put t08:u4:i25 v483
put t17:u2:i24 v314
put t10:u5:i22 v660
put t16:u4:i26 v632
put t04:u3:i27 v142
put t09:u2:i22 v348
put t03:u5:i12 v167
put t14:u4:i14 v288
put t05:u3:i23 v895
put t07:u3:i00 v995
put t01:u4:i29 v424
put t18:u2:i13 v154
put t10:u1:i27 v890
put t02:u1:i24 v661
put t10:u1:i00 v963
put t17:u1:i01 v527
put t01:u2:i05 v732
put t15:u3:i07 v67
put t01:u2:i08 v511
put t01:u2:i06 v115
put t06:u1:i20 v802
put t13:u2:i06 v208
put t18:u2:i10 v232
put t01:u5:i03 v812
put t19:u3:i10 v236
put t14:u1:i28 v329
put t14:u3:i18 v907
put t06:u3:i13 v689
put t04:u4:i01 v387
put t14:u4:i25 v916
put t01:u3:i12 v140
put t05:u2:i11 v635
put t16:u4:i20 v525
put t03:u3:i06 v962
put t16:u1:i14 v849
put t08:u5:i07 v835
put t15:u2:i27 v663
put t17:u3:i05 v180
put t02:u4:i01 v645
put t18:u4:i22 v319
put t02:u1:i29 v309
put t08:u3:i07 v119
put t07:u5:i05 v735
put t07:u1:i25 v256
put t11:u3:i00 v153
put t12:u2:i26 v842
put t08:u4:i07 v956
put t09:u3:i17 v344
put t11:u4:i14 v305
put t07:u1:i23 v166
put t19:u5:i02 v671
put t09:u1:i25 v817
put t04:u2:i06 v131
put t02:u3:i28 v847
put t12:u3:i23 v69
put t10:u1:i20 v830
put t11:u4:i11 v126
put t12:u3:i28 v867
put t04:u5:i22 v550
put t12:u2:i29 v540
put t06:u5:i00 v452
put t08:u3:i06 v786
put t14:u2:i29 v217
put t13:u4:i12 v545
put t17:u5:i26 v61
put t07:u2:i14 v731
put t12:u3:i16 v303
put t17:u5:i06 v260
put t17:u2:i26 v234
put t07:u2:i07 v642
put t07:u4:i20 v311
put t02:u1:i28 v834
put t14:u2:i00 v277
put t19:u5:i20 v347
put t13:u5:i18 v315
put t03:u2:i02 v693
put t02:u1:i19 v306
put t06:u2:i12 v803
put t11:u2:i17 v472
put t06:u1:i11 v983
put t05:u1:i01 v521
put t13:u2:i13 v2
put t03:u5:i21 v406
put t14:u2:i25 v648
put t11:u2:i03 v992
put t09:u3:i23 v16
put t19:u1:i10 v662
put t09:u1:i24 v891
put t01:u5:i08 v574
put t18:u5:i27 v798
put t05:u4:i23 v684
put t07:u3:i11 v700
put t08:u2:i24 v330
put t07:u3:i19 v247
put t07:u1:i12 v972
put t06:u3:i08 v516
put t04:u3:i18 v759
put t01:u2:i24 v457
put t16:u5:i19 v184
put t04:u3:i25 v987
put t08:u1:i06 v589
put t17:u5:i09 v22
put t10:u4:i16 v554
put t18:u5:i01 v733
put t14:u1:i07 v744
put t11:u2:i04 v30
put t12:u4:i07 v634
put t01:u1:i26 v952
put t07:u5:i08 v950
put t17:u2:i07 v64
del t16:u1:i14
del t13:u2:i06
del t11:u2:i17
del t02:u4:i01
delrange t09:u2: t09:u3:
flush
get t19:u1:i10
get t07:u2:i14
get t06:u2:i12
get t01:u2:i06
get t14:u4:i14
get t02:u1:i27
get t11:u8:i27
get t11:u6:i10
get t03:u7:i07
get t16:u6:i06
get t05:u7:i05
get t01:u7:i08
get t09:u2:i01
scan_prefix t12:
scan_prefix t15:u5:
scan_prefix t16
scan_prefix t0
scan_prefix t58:
scan_prefix t09:u9:
scan_prefix t06:u5:i00
scan t11: t11:u3
reopen policies="bloom(bits=10,prefix=fixed:4,whole_key=0)"
put t12:u1:i10 v688
put t17:u2:i00 v872
put t08:u5:i07 v499
put t01:u2:i29 v663
put t12:u2:i00 v0
put t14:u3:i00 v877
put t08:u5:i23 v626
put t06:u2:i01 v428
put t11:u4:i09 v38
put t05:u3:i20 v366
put t16:u4:i20 v693
put t09:u4:i11 v453
put t11:u5:i12 v43
put t03:u5:i01 v286
put t18:u3:i14 v714
put t17:u3:i00 v333
put t02:u3:i05 v942
put t15:u2:i20 v20
put t15:u3:i08 v307
put t16:u5:i29 v337
put t05:u5:i22 v253
put t01:u3:i24 v533
put t02:u3:i02 v45
put t06:u2:i14 v871
put t08:u2:i21 v948
put t02:u2:i11 v992
put t07:u2:i00 v943
put t12:u1:i20 v431
put t10:u1:i18 v62
put t11:u4:i01 v53
put t18:u3:i10 v427
put t02:u1:i26 v251
put t05:u2:i09 v466
put t05:u4:i12 v612
put t17:u3:i00 v66
put t17:u4:i22 v679
put t06:u3:i24 v960
put t18:u3:i28 v787
put t07:u5:i24 v773
put t12:u2:i22 v548
put t18:u1:i25 v522
put t01:u2:i09 v60
put t18:u5:i25 v56
put t19:u2:i08 v577
put t11:u4:i12 v377
put t03:u5:i29 v762
put t09:u1:i01 v433
put t18:u4:i25 v335
put t11:u1:i27 v706
put t12:u4:i08 v388
put t08:u1:i15 v556
put t09:u5:i06 v386
put t02:u4:i10 v568
put t05:u3:i27 v520
put t19:u3:i28 v118
put t15:u2:i18 v273
put t10:u5:i23 v763
put t11:u1:i11 v975
put t14:u5:i09 v893
put t02:u4:i00 v73
put t05:u3:i00 v148
put t15:u1:i07 v316
put t10:u4:i16 v171
put t16:u3:i17 v82
put t17:u5:i20 v83
put t11:u2:i08 v371
put t19:u2:i11 v433
put t07:u3:i19 v132
put t04:u3:i08 v319
put t13:u2:i08 v475
put t01:u1:i28 v504
put t05:u2:i07 v827
put t13:u5:i19 v57
put t09:u1:i21 v29
put t07:u1:i29 v698
put t01:u3:i06 v15
put t01:u4:i17 v617
put t04:u3:i06 v478
put t08:u1:i18 v177
put t07:u4:i08 v682
put t03:u3:i03 v798
put t13:u4:i15 v242
put t15:u2:i11 v168
put t15:u2:i18 v221
put t07:u4:i01 v467
put t09:u2:i16 v998
put t11:u5:i09 v278
put t10:u4:i12 v441
put t09:u3:i15 v733
put t07:u3:i12 v158
put t14:u2:i07 v137
put t14:u4:i15 v182
put t12:u5:i13 v280
put t06:u1:i18 v15
put t10:u3:i22 v217
put t08:u1:i12 v968
put t08:u1:i07 v252
put t07:u4:i24 v781
put t15:u3:i13 v351
put t02:u3:i03 v330
put t14:u5:i05 v26
put t11:u1:i10 v333
put t12:u1:i27 v61
put t11:u5:i26 v530
put t15:u5:i07 v905
put t13:u5:i04 v433
put t19:u5:i14 v190
put t14:u1:i12 v806
put t17:u1:i07 v912
put t15:u2:i04 v251
put t14:u5:i24 v622
put t17:u4:i20 v561
put t09:u2:i25 v314
put t09:u1:i14 v995
put t11:u5:i24 v939
put t15:u1:i27 v867
put t07:u1:i05 v338
put t14:u5:i20 v680
put t01:u5:i26 v29
put t06:u5:i09 v413
del t09:u1:i24
del t02:u2:i11
del t17:u2:i07
del t01:u1:i28
delrange t01:u2: t01:u3:
flush
get t06:u2:i01
get t04:u2:i06
get t15:u2:i20
get t10:u1:i27
get t04:u3:i06
get t18:u3:i14
get t07:u6:i22
get t05:u7:i12
get t03:u8:i01
get t11:u6:i02
get t04:u8:i19
get t06:u8:i05
get t01:u2:i01
scan_prefix t05:
scan_prefix t02:u5:
scan_prefix t18
scan_prefix t0
scan_prefix t57:
scan_prefix t10:u9:
scan_prefix t11:u1:i10
scan t19: t19:u3
compact
reopen policies="bloom(bits=10,prefix=fixed:4)" rocksdb.metadata_block_size=256 rocksdb.cache_index_and_filter_blocks=1
put t17:u4:i10 v998
put t03:u3:i10 v191
put t18:u1:i08 v306
put t16:u4:i11 v582
put t12:u5:i08 v102
put t16:u4:i27 v98
put t04:u5:i29 v304
put t11:u3:i06 v763
put t13:u3:i01 v112
put t09:u1:i02 v163
put t14:u5:i01 v244
put t10:u2:i08 v788
put t06:u4:i02 v503
put t13:u4:i21 v855
put t06:u2:i14 v28
put t16:u3:i17 v452
put t03:u2:i21 v557
put t15:u5:i27 v514
put t01:u3:i22 v472
put t07:u1:i29 v444
put t09:u1:i12 v491
put t01:u4:i19 v677
put t05:u4:i26 v535
put t04:u4:i27 v997
put t03:u2:i20 v916
put t09:u1:i18 v333
put t09:u2:i27 v964
put t14:u3:i00 v866
put t02:u2:i25 v290
put t05:u2:i13 v266
put t18:u3:i15 v64
put t17:u5:i22 v536
put t01:u1:i16 v582
put t18:u4:i24 v653
put t12:u4:i09 v608
put t19:u3:i19 v917
put t01:u4:i17 v780
put t07:u5:i17 v78
put t04:u1:i09 v851
put t09:u2:i08 v208
put t19:u1:i23 v374
put t19:u5:i16 v10
put t16:u5:i04 v727
put t18:u2:i16 v745
put t08:u2:i24 v190
put t02:u2:i11 v902
put t08:u4:i07 v119
put t08:u1:i03 v967
put t18:u3:i23 v627
put t14:u4:i23 v443
put t08:u4:i27 v537
put t05:u1:i21 v824
put t04:u5:i07 v826
put t06:u2:i15 v637
put t04:u2:i14 v158
put t09:u4:i07 v53
put t13:u5:i28 v568
put t03:u1:i26 v531
put t08:u5:i08 v175
put t12:u2:i00 v292
put t06:u1:i23 v555
put t07:u2:i08 v145
put t13:u5:i13 v587
put t05:u5:i09 v795
put t07:u3:i08 v958
put t14:u4:i27 v426
put t17:u4:i23 v560
put t18:u3:i09 v792
put t19:u2:i09 v463
put t12:u3:i21 v367
put t02:u4:i15 v908
put t05:u3:i10 v835
put t10:u2:i23 v952
put t11:u2:i28 v301
put t04:u3:i10 v954
put t02:u1:i02 v472
put t05:u3:i16 v145
put t09:u5:i20 v571
put t07:u5:i27 v730
put t17:u4:i01 v319
put t09:u3:i04 v610
put t16:u4:i28 v174
put t13:u5:i18 v856
put t05:u3:i12 v961
put t14:u1:i14 v952
put t01:u3:i11 v504
put t13:u1:i28 v452
put t04:u5:i27 v833
put t18:u5:i10 v822
put t19:u3:i21 v725
put t13:u1:i01 v513
put t09:u3:i13 v944
put t03:u4:i22 v865
put t01:u4:i15 v654
put t07:u5:i21 v523
put t05:u3:i06 v43
put t04:u4:i13 v94
put t05:u3:i27 v923
put t05:u4:i25 v204
put t07:u1:i23 v83
put t19:u3:i19 v28
put t19:u4:i10 v597
put t19:u2:i27 v33
put t09:u2:i00 v6
put t04:u5:i21 v785
put t19:u2:i14 v134
put t03:u5:i20 v207
put t07:u4:i26 v99
put t19:u1:i29 v209
put t10:u4:i26 v576
put t17:u5:i23 v52
put t18:u4:i09 v485
put t15:u3:i19 v695
put t08:u5:i16 v373
put t03:u2:i28 v434
put t02:u4:i17 v206
put t13:u3:i08 v728
put t06:u2:i27 v53
put t11:u4:i25 v693
put t18:u3:i15 v467
del t18:u4:i09
del t04:u3:i27
del t04:u5:i21
del t17:u4:i22
delrange t09:u2: t09:u3:
flush
get t17:u1:i01
get t12:u2:i00
get t06:u5:i09
get t06:u5:i00
get t13:u4:i12
get t16:u3:i17
get t02:u7:i23
get t06:u6:i10
get t03:u7:i14
get t13:u7:i06
get t19:u8:i26
get t02:u8:i00
get t09:u2:i01
scan_prefix t14:
scan_prefix t17:u4:
scan_prefix t05
scan_prefix t0
scan_prefix t45:
scan_prefix t09:u9:
scan_prefix t17:u4:i20
scan t18: t18:u3
reopen policies="bloom(bits=6,prefix=delim::,whole_key=0)" rocksdb.format_version=4
put t06:u2:i20 v591
put t08:u2:i09 v573
put t12:u5:i24 v341
put t02:u5:i29 v561
put t12:u4:i16 v441
put t07:u5:i27 v975
put t14:u1:i09 v980
put t07:u2:i10 v89
put t17:u5:i03 v927
put t05:u5:i14 v481
put t10:u1:i05 v175
put t11:u4:i05 v795
put t05:u4:i23 v643
put t16:u3:i06 v539
put t05:u1:i21 v319
put t12:u3:i24 v924
put t09:u3:i21 v555
put t05:u3:i03 v773
put t04:u5:i22 v920
put t06:u4:i24 v788
put t03:u4:i16 v326
put t10:u1:i24 v988
put t08:u3:i06 v937
put t11:u5:i07 v95
put t08:u5:i16 v801
put t11:u4:i18 v110
put t12:u1:i26 v525
put t07:u3:i01 v208
put t06:u5:i17 v678
put t05:u3:i06 v51
put t01:u2:i19 v99
put t07:u1:i27 v654
put t13:u5:i05 v905
put t06:u2:i29 v836
put t12:u1:i06 v504
put t05:u1:i16 v734
put t13:u4:i24 v905
put t03:u3:i11 v862
put t06:u5:i25 v178
put t13:u2:i01 v745
put t06:u1:i14 v215
put t17:u3:i09 v985
put t17:u5:i05 v195
put t03:u4:i00 v71
put t12:u2:i08 v844
put t18:u3:i29 v722
put t05:u5:i26 v976
put t19:u1:i08 v519
put t12:u3:i25 v570
put t16:u1:i26 v266
put t13:u1:i08 v708
put t11:u2:i06 v674
put t01:u2:i08 v994
put t02:u1:i23 v63
put t12:u2:i06 v275
put t12:u1:i22 v887
put t04:u5:i06 v311
put t12:u4:i25 v510
put t13:u2:i00 v211
put t03:u1:i17 v570
put t18:u3:i12 v113
put t08:u2:i27 v720
put t18:u1:i05 v709
put t08:u4:i22 v637
put t02:u2:i09 v85
put t02:u2:i03 v215
put t10:u2:i18 v904
put t02:u5:i10 v11
put t13:u3:i00 v159
put t13:u2:i21 v416
put t03:u2:i09 v76
put t17:u2:i23 v356
put t06:u1:i12 v547
put t13:u4:i17 v944
put t13:u5:i02 v603
put t14:u3:i04 v96
put t17:u3:i13 v265
put t12:u3:i22 v183
put t10:u1:i26 v614
put t18:u3:i21 v944
put t14:u1:i23 v797
put t05:u1:i18 v199
put t18:u4:i15 v671
put t05:u5:i17 v79
put t05:u2:i25 v948
put t11:u1:i18 v959
put t19:u5:i12 v107
put t12:u5:i17 v84
put t08:u3:i05 v874
put t16:u4:i19 v30
put t19:u3:i26 v496
put t13:u1:i04 v976
put t06:u4:i27 v263
put t04:u1:i13 v386
put t08:u4:i13 v931
put t12:u3:i07 v187
put t13:u4:i02 v419
put t16:u1:i18 v197
put t11:u5:i12 v862
put t02:u5:i14 v54
put t11:u3:i29 v662
put t16:u4:i20 v773
put t11:u4:i23 v819
put t17:u2:i13 v830
put t11:u4:i26 v702
put t09:u2:i29 v985
put t04:u5:i23 v556
put t06:u3:i18 v337
put t15:u3:i09 v897
put t10:u3:i28 v955
put t09:u5:i05 v933
put t06:u5:i14 v553
put t18:u2:i14 v906
put t12:u5:i16 v500
put t04:u3:i17 v650
put t08:u1:i02 v877
put t17:u2:i01 v896
put t07:u3:i02 v14
put t11:u5:i06 v198
put t11:u2:i16 v893
del t18:u3:i14
del t06:u5:i17
del t17:u5:i22
del t01:u2:i06
delrange t12:u2: t12:u3:
flush
get t03:u3:i06
get t04:u1:i09
get t03:u3:i10
get t12:u4:i09
get t16:u4:i26
get t06:u1:i18
get t15:u7:i04
get t14:u7:i14
get t05:u6:i20
get t17:u7:i27
get t19:u6:i17
get t17:u8:i12
get t12:u2:i01
scan_prefix t13:
scan_prefix t02:u3:
scan_prefix t03
scan_prefix t0
scan_prefix t43:
scan_prefix t07:u9:
scan_prefix t03:u5:i21
scan t03: t03:u3
compact
reopen policies="bloom(bits=10,prefix=delim::)" rocksdb.format_version=5 rocksdb.filter=ribbon
put t13:u1:i21 v284
put t02:u2:i17 v196
put t14:u5:i15 v608
put t16:u3:i11 v136
put t10:u2:i28 v399
put t18:u5:i05 v531
put t15:u4:i10 v583
put t19:u1:i15 v897
put t19:u5:i05 v599
put t12:u5:i04 v66
put t13:u1:i17 v272
put t03:u4:i18 v72
put t04:u2:i06 v442
put t03:u5:i07 v218
put t15:u1:i05 v213
put t18:u1:i24 v742
put t07:u1:i20 v736
put t13:u3:i23 v515
put t15:u3:i20 v290
put t14:u5:i18 v317
put t07:u3:i15 v361
put t03:u2:i20 v391
put t11:u4:i11 v489
put t12:u5:i10 v304
put t14:u4:i18 v66
put t09:u5:i20 v952
put t14:u3:i20 v484
put t05:u3:i02 v874
put t16:u1:i12 v320
put t06:u1:i26 v395
put t02:u1:i13 v537
put t19:u1:i25 v215
put t13:u3:i16 v28
put t05:u2:i21 v540
put t05:u2:i07 v189
put t07:u1:i02 v466
put t17:u5:i07 v575
put t18:u2:i21 v683
put t19:u1:i01 v787
put t08:u4:i19 v407
put t04:u2:i12 v424
put t09:u5:i22 v990
put t07:u2:i14 v942
put t01:u5:i23 v328
put t10:u2:i17 v28
put t18:u5:i00 v723
put t15:u5:i06 v320
put t10:u3:i00 v846
put t18:u1:i13 v650
put t11:u1:i24 v366
put t08:u1:i10 v102
put t16:u1:i28 v450
put t19:u2:i15 v797
put t17:u4:i18 v849
put t10:u1:i02 v185
put t19:u5:i26 v246
put t02:u4:i08 v576
put t14:u2:i08 v443
put t06:u2:i24 v742
put t07:u4:i08 v584
put t03:u1:i03 v586
put t03:u2:i14 v900
put t07:u1:i16 v774
put t09:u4:i21 v501
put t11:u2:i01 v769
put t06:u4:i15 v723
put t13:u5:i20 v683
put t05:u1:i21 v190
put t19:u2:i16 v863
put t03:u4:i13 v909
put t03:u3:i19 v485
put t02:u2:i09 v239
put t12:u1:i29 v481
put t07:u5:i18 v623
put t10:u4:i26 v261
put t11:u5:i21 v980
put t01:u3:i12 v725
put t13:u2:i10 v549
put t14:u1:i18 v817
put t18:u4:i15 v903
put t07:u3:i04 v63
put t10:u3:i14 v719
put t02:u4:i20 v947
put t17:u3:i01 v370
put t17:u3:i17 v672
put t14:u3:i02 v251
put t12:u5:i18 v713
put t08:u3:i27 v143
put t04:u4:i17 v819
put t12:u3:i12 v165
put t03:u3:i26 v364
put t13:u1:i15 v744
put t14:u3:i22 v364
put t04:u2:i22 v486
put t04:u4:i23 v987
put t02:u1:i08 v615
put t14:u3:i08 v356
put t02:u4:i01 v580
put t02:u5:i09 v783
put t14:u4:i04 v175
put t04:u5:i19 v875
put t04:u3:i21 v542
put t13:u1:i09 v217
put t15:u1:i20 v671
put t03:u2:i22 v80
put t15:u4:i22 v325
put t13:u3:i05 v708
put t12:u1:i22 v605
put t07:u1:i13 v747
put t19:u5:i19 v394
put t01:u1:i20 v964
put t07:u4:i29 v734
put t12:u1:i04 v941
put t03:u1:i17 v437
put t05:u2:i03 v353
put t12:u5:i13 v918
put t15:u2:i27 v578
put t08:u1:i27 v705
put t09:u2:i08 v765
put t18:u4:i12 v199
del t08:u5:i08
del t02:u2:i09
del t01:u1:i26
del t01:u4:i17
delrange t07:u2: t07:u3:
flush
get t07:u2:i00
get t18:u5:i10
get t06:u3:i13
get t15:u5:i06
get t18:u5:i10
get t02:u1:i23
get t05:u6:i09
get t02:u6:i17
get t16:u8:i08
get t01:u6:i05
get t11:u8:i21
get t13:u7:i02
get t07:u2:i01
scan_prefix t18:
scan_prefix t17:u1:
scan_prefix t01
scan_prefix t0
scan_prefix t46:
scan_prefix t19:u9:
scan_prefix t12:u4:i16
scan t08: t08:u3
reopen policies="bloom(bits=10,prefix=fixed:4)" rocksdb.filter=bloom rocksdb.optimize_filters_for_hits=1
put t05:u5:i23 v855
put t17:u1:i25 v271
put t06:u1:i04 v763
put t10:u2:i16 v441
put t08:u4:i18 v670
put t02:u5:i21 v234
put t05:u4:i23 v968
put t07:u3:i17 v205
put t11:u5:i07 v678
put t08:u5:i07 v589
put t12:u2:i24 v737
put t08:u2:i18 v589
put t10:u5:i06 v435
put t18:u3:i17 v829
put t04:u2:i16 v846
put t07:u1:i19 v397
put t02:u5:i21 v187
put t16:u4:i19 v917
put t08:u1:i23 v923
put t01:u5:i15 v424
put t08:u5:i27 v13
put t08:u1:i11 v860
put t16:u4:i10 v920
put t07:u4:i27 v558
put t14:u1:i16 v387
put t12:u3:i18 v411
put t10:u3:i28 v947
put t05:u1:i25 v663
put t07:u4:i07 v7
put t07:u3:i01 v268
put t01:u1:i19 v621
put t01:u3:i27 v876
put t12:u5:i25 v664
put t14:u5:i20 v540
put t10:u3:i05 v567
put t11:u2:i27 v225
put t11:u2:i13 v940
put t01:u1:i17 v311
put t07:u3:i22 v942
put t10:u1:i11 v126
put t05:u2:i13 v454
put t07:u2:i19 v921
put t18:u3:i05 v393
put t01:u3:i15 v257
put t05:u4:i13 v683
put t17:u2:i02 v92
put t03:u4:i22 v818
put t15:u5:i26 v144
put t06:u1:i07 v944
put t03:u5:i13 v989
put t11:u4:i21 v705
put t11:u4:i13 v419
put t08:u5:i28 v759
put t03:u1:i27 v715
put t19:u5:i18 v145
put t12:u1:i24 v1
put t17:u2:i07 v416
put t02:u1:i06 v751
put t19:u2:i12 v603
put t19:u4:i08 v424
put t07:u1:i17 v857
put t10:u2:i28 v572
put t03:u4:i05 v588
put t09:u3:i10 v3
put t15:u4:i12 v413
put t14:u4:i14 v185
put t10:u4:i23 v671
put t09:u4:i24 v566
put t06:u4:i22 v830
put t18:u3:i12 v897
put t05:u5:i16 v180
put t10:u3:i09 v227
put t06:u2:i19 v270
put t06:u4:i02 v594
put t07:u1:i20 v429
put t09:u4:i24 v831
put t02:u1:i02 v788
put t10:u2:i28 v879
put t10:u4:i19 v597
put t16:u5:i24 v89
put t18:u2:i15 v841
put t01:u3:i05 v196
put t16:u2:i07 v637
put t03:u3:i06 v358
put t06:u2:i02 v726
put t11:u3:i22 v537
put t15:u5:i11 v306
put t12:u4:i11 v174
put t17:u5:i02 v366
put t17:u2:i05 v391
put t09:u4:i04 v107
put t11:u3:i11 v586
put t17:u4:i21 v423
put t02:u4:i24 v788
put t08:u4:i21 v493
put t04:u5:i13 v958
put t02:u5:i07 v72
put t11:u3:i19 v253
put t12:u1:i11 v568
put t05:u5:i12 v631
put t15:u5:i17 v467
put t05:u3:i29 v12
put t05:u4:i00 v673
put t12:u3:i02 v178
put t09:u1:i27 v156
put t17:u1:i01 v996
put t03:u2:i09 v978
put t13:u4:i09 v807
put t18:u1:i29 v760
put t17:u1:i15 v333
put t12:u1:i15 v80
put t02:u3:i22 v836
put t14:u4:i01 v352
put t16:u5:i05 v762
put t05:u2:i17 v340
put t17:u3:i02 v297
put t08:u5:i04 v424
put t01:u5:i26 v616
put t03:u5:i22 v37
put t06:u3:i07 v536
del t07:u2:i14
del t08:u1:i07
del t05:u3:i27
del t06:u5:i00
delrange t06:u2: t06:u3:
flush
get t13:u3:i00
get t04:u5:i07
get t13:u4:i24
get t15:u3:i07
get t11:u5:i17
get t18:u3:i17
get t14:u7:i03
get t03:u8:i05
get t07:u7:i04
get t05:u8:i26
get t13:u8:i26
get t07:u6:i29
get t06:u2:i01
scan_prefix t12:
scan_prefix t16:u1:
scan_prefix t09
scan_prefix t0
scan_prefix t46:
scan_prefix t17:u9:
scan_prefix t02:u4:i10
scan t08: t08:u3
compact
reopen policies="bloom(bits=10,prefix=fixed:4,whole_key=0)" rocksdb.partition_filters=0 rocksdb.optimize_filters_for_hits=0
put t08:u5:i29 v797
put t19:u1:i11 v595
put t19:u3:i03 v124
put t16:u4:i16 v111
put t11:u3:i02 v451
put t05:u4:i13 v51
put t07:u1:i00 v618
put t09:u5:i08 v475
put t16:u4:i07 v879
put t06:u5:i02 v901
put t12:u4:i09 v154
put t03:u5:i05 v219
put t16:u4:i09 v566
put t11:u2:i01 v249
put t11:u1:i18 v769
put t02:u2:i26 v390
put t05:u3:i14 v757
put t10:u3:i27 v358
put t05:u3:i21 v263
put t18:u1:i08 v951
put t13:u1:i02 v860
put t06:u3:i23 v739
put t12:u5:i07 v953
put t07:u3:i22 v691
put t09:u4:i24 v184
put t09:u5:i02 v386
put t03:u1:i01 v789
put t19:u2:i08 v779
put t16:u5:i13 v48
put t17:u1:i03 v679
put t17:u4:i03 v666
put t12:u1:i13 v843
put t18:u5:i29 v791
put t04:u2:i03 v66
put t12:u3:i29 v102
put t17:u2:i02 v345
put t05:u1:i19 v629
put t12:u4:i24 v265
put t08:u1:i24 v226
put t10:u2:i27 v138
put t12:u5:i15 v667
put t02:u4:i10 v818
put t18:u2:i25 v149
put t12:u4:i18 v391
put t15:u4:i00 v771
put t10:u2:i22 v781
put t12:u5:i17 v478
put t19:u2:i24 v272
put t01:u4:i06 v360
put t15:u2:i27 v635
put t09:u1:i26 v613
put t12:u1:i22 v458
put t17:u1:i24 v746
put t17:u5:i17 v785
put t15:u2:i22 v486
put t14:u2:i11 v88
put t18:u4:i19 v267
put t09:u3:i25 v642
put t14:u2:i01 v323
put t15:u1:i27 v723
put t04:u1:i20 v900
put t17:u3:i21 v143
put t15:u2:i06 v464
put t19:u4:i28 v442
put t16:u4:i12 v940
put t16:u5:i07 v783
put t18:u4:i24 v761
put t14:u3:i03 v781
put t07:u3:i20 v162
put t16:u5:i05 v120
put t19:u1:i13 v176
put t16:u3:i05 v233
put t14:u4:i27 v164
put t06:u5:i05 v408
put t10:u3:i03 v306
put t03:u4:i16 v5
put t08:u2:i03 v133
put t03:u1:i05 v112
put t15:u3:i01 v6
put t07:u2:i28 v199
put t02:u2:i25 v27
put t07:u5:i14 v165
put t15:u2:i16 v307
put t18:u2:i28 v915
put t18:u5:i19 v135
put t02:u3:i23 v525
put t18:u4:i12 v168
put t07:u3:i28 v111
put t10:u4:i23 v694
put t19:u4:i09 v647
put t15:u4:i10 v40
put t09:u5:i13 v472
put t07:u2:i00 v788
put t03:u3:i10 v200
put t12:u5:i20 v879
put t17:u2:i27 v721
put t09:u3:i25 v200
put t06:u5:i03 v961
put t14:u1:i26 v604
put t15:u2:i29 v594
put t12:u5:i09 v411
put t06:u4:i23 v761
put t16:u1:i07 v487
put t09:u3:i17 v581
put t16:u2:i13 v694
put t13:u2:i04 v425
put t01:u1:i26 v414
put t05:u5:i04 v582
put t19:u4:i13 v359
put t06:u2:i10 v222
put t01:u2:i18 v573
put t19:u1:i00 v57
put t09:u1:i06 v990
put t03:u4:i17 v316
put t18:u2:i22 v675
put t16:u4:i16 v664
put t14:u1:i27 v429
put t14:u4:i05 v927
put t09:u4:i08 v271
put t13:u1:i23 v413
del t07:u4:i05
del t06:u3:i24
del t17:u2:i02
del t15:u5:i27
delrange t05:u2: t05:u3:
flush
get t18:u5:i10
get t09:u4:i04
get t13:u1:i02
get t13:u5:i13
get t05:u3:i16
get t16:u1:i07
get t04:u6:i26
get t11:u6:i12
get t17:u7:i25
get t05:u6:i12
get t03:u8:i25
get t12:u8:i09
get t05:u2:i01
scan_prefix t09:
scan_prefix t05:u3:
scan_prefix t14
scan_prefix t0
scan_prefix t41:
scan_prefix t19:u9:
scan_prefix t07:u1:i23
scan t10: t10:u3
compact full
scan_prefix t01:
scan_prefix t05:u1:
scan_prefix t0
scan_prefix t77:
scan_prefix t19:u5:
