# pebble/l6_gets.wl -- gets beside an L6 table (docs/pebble.md, "Counters
# and what is checked"): 200 keys flushed and compacted to L6, 200 more
# between them flushed to L0, then 200 gets of absent keys among them.
# Each get meets both tables (the last, past the L0 table's largest key,
# only the L6 one) but asks only the L0 table's filter: a get never reads
# an L6 filter, which the checker works out from the files.  P3 holds
# each get to exactly that probe, and P9 judges the 199 probes against the
# L0 filter's bits.
filterlab-workload 1
open policies="bloom(bits=10)"
put k00000 v0
put k00004 v1
put k00008 v2
put k00012 v3
put k00016 v4
put k00020 v5
put k00024 v6
put k00028 v7
put k00032 v8
put k00036 v9
put k00040 v10
put k00044 v11
put k00048 v12
put k00052 v13
put k00056 v14
put k00060 v15
put k00064 v16
put k00068 v17
put k00072 v18
put k00076 v19
put k00080 v20
put k00084 v21
put k00088 v22
put k00092 v23
put k00096 v24
put k00100 v25
put k00104 v26
put k00108 v27
put k00112 v28
put k00116 v29
put k00120 v30
put k00124 v31
put k00128 v32
put k00132 v33
put k00136 v34
put k00140 v35
put k00144 v36
put k00148 v37
put k00152 v38
put k00156 v39
put k00160 v40
put k00164 v41
put k00168 v42
put k00172 v43
put k00176 v44
put k00180 v45
put k00184 v46
put k00188 v47
put k00192 v48
put k00196 v49
put k00200 v50
put k00204 v51
put k00208 v52
put k00212 v53
put k00216 v54
put k00220 v55
put k00224 v56
put k00228 v57
put k00232 v58
put k00236 v59
put k00240 v60
put k00244 v61
put k00248 v62
put k00252 v63
put k00256 v64
put k00260 v65
put k00264 v66
put k00268 v67
put k00272 v68
put k00276 v69
put k00280 v70
put k00284 v71
put k00288 v72
put k00292 v73
put k00296 v74
put k00300 v75
put k00304 v76
put k00308 v77
put k00312 v78
put k00316 v79
put k00320 v80
put k00324 v81
put k00328 v82
put k00332 v83
put k00336 v84
put k00340 v85
put k00344 v86
put k00348 v87
put k00352 v88
put k00356 v89
put k00360 v90
put k00364 v91
put k00368 v92
put k00372 v93
put k00376 v94
put k00380 v95
put k00384 v96
put k00388 v97
put k00392 v98
put k00396 v99
put k00400 v100
put k00404 v101
put k00408 v102
put k00412 v103
put k00416 v104
put k00420 v105
put k00424 v106
put k00428 v107
put k00432 v108
put k00436 v109
put k00440 v110
put k00444 v111
put k00448 v112
put k00452 v113
put k00456 v114
put k00460 v115
put k00464 v116
put k00468 v117
put k00472 v118
put k00476 v119
put k00480 v120
put k00484 v121
put k00488 v122
put k00492 v123
put k00496 v124
put k00500 v125
put k00504 v126
put k00508 v127
put k00512 v128
put k00516 v129
put k00520 v130
put k00524 v131
put k00528 v132
put k00532 v133
put k00536 v134
put k00540 v135
put k00544 v136
put k00548 v137
put k00552 v138
put k00556 v139
put k00560 v140
put k00564 v141
put k00568 v142
put k00572 v143
put k00576 v144
put k00580 v145
put k00584 v146
put k00588 v147
put k00592 v148
put k00596 v149
put k00600 v150
put k00604 v151
put k00608 v152
put k00612 v153
put k00616 v154
put k00620 v155
put k00624 v156
put k00628 v157
put k00632 v158
put k00636 v159
put k00640 v160
put k00644 v161
put k00648 v162
put k00652 v163
put k00656 v164
put k00660 v165
put k00664 v166
put k00668 v167
put k00672 v168
put k00676 v169
put k00680 v170
put k00684 v171
put k00688 v172
put k00692 v173
put k00696 v174
put k00700 v175
put k00704 v176
put k00708 v177
put k00712 v178
put k00716 v179
put k00720 v180
put k00724 v181
put k00728 v182
put k00732 v183
put k00736 v184
put k00740 v185
put k00744 v186
put k00748 v187
put k00752 v188
put k00756 v189
put k00760 v190
put k00764 v191
put k00768 v192
put k00772 v193
put k00776 v194
put k00780 v195
put k00784 v196
put k00788 v197
put k00792 v198
put k00796 v199
flush
compact
put k00001 w0
put k00005 w1
put k00009 w2
put k00013 w3
put k00017 w4
put k00021 w5
put k00025 w6
put k00029 w7
put k00033 w8
put k00037 w9
put k00041 w10
put k00045 w11
put k00049 w12
put k00053 w13
put k00057 w14
put k00061 w15
put k00065 w16
put k00069 w17
put k00073 w18
put k00077 w19
put k00081 w20
put k00085 w21
put k00089 w22
put k00093 w23
put k00097 w24
put k00101 w25
put k00105 w26
put k00109 w27
put k00113 w28
put k00117 w29
put k00121 w30
put k00125 w31
put k00129 w32
put k00133 w33
put k00137 w34
put k00141 w35
put k00145 w36
put k00149 w37
put k00153 w38
put k00157 w39
put k00161 w40
put k00165 w41
put k00169 w42
put k00173 w43
put k00177 w44
put k00181 w45
put k00185 w46
put k00189 w47
put k00193 w48
put k00197 w49
put k00201 w50
put k00205 w51
put k00209 w52
put k00213 w53
put k00217 w54
put k00221 w55
put k00225 w56
put k00229 w57
put k00233 w58
put k00237 w59
put k00241 w60
put k00245 w61
put k00249 w62
put k00253 w63
put k00257 w64
put k00261 w65
put k00265 w66
put k00269 w67
put k00273 w68
put k00277 w69
put k00281 w70
put k00285 w71
put k00289 w72
put k00293 w73
put k00297 w74
put k00301 w75
put k00305 w76
put k00309 w77
put k00313 w78
put k00317 w79
put k00321 w80
put k00325 w81
put k00329 w82
put k00333 w83
put k00337 w84
put k00341 w85
put k00345 w86
put k00349 w87
put k00353 w88
put k00357 w89
put k00361 w90
put k00365 w91
put k00369 w92
put k00373 w93
put k00377 w94
put k00381 w95
put k00385 w96
put k00389 w97
put k00393 w98
put k00397 w99
put k00401 w100
put k00405 w101
put k00409 w102
put k00413 w103
put k00417 w104
put k00421 w105
put k00425 w106
put k00429 w107
put k00433 w108
put k00437 w109
put k00441 w110
put k00445 w111
put k00449 w112
put k00453 w113
put k00457 w114
put k00461 w115
put k00465 w116
put k00469 w117
put k00473 w118
put k00477 w119
put k00481 w120
put k00485 w121
put k00489 w122
put k00493 w123
put k00497 w124
put k00501 w125
put k00505 w126
put k00509 w127
put k00513 w128
put k00517 w129
put k00521 w130
put k00525 w131
put k00529 w132
put k00533 w133
put k00537 w134
put k00541 w135
put k00545 w136
put k00549 w137
put k00553 w138
put k00557 w139
put k00561 w140
put k00565 w141
put k00569 w142
put k00573 w143
put k00577 w144
put k00581 w145
put k00585 w146
put k00589 w147
put k00593 w148
put k00597 w149
put k00601 w150
put k00605 w151
put k00609 w152
put k00613 w153
put k00617 w154
put k00621 w155
put k00625 w156
put k00629 w157
put k00633 w158
put k00637 w159
put k00641 w160
put k00645 w161
put k00649 w162
put k00653 w163
put k00657 w164
put k00661 w165
put k00665 w166
put k00669 w167
put k00673 w168
put k00677 w169
put k00681 w170
put k00685 w171
put k00689 w172
put k00693 w173
put k00697 w174
put k00701 w175
put k00705 w176
put k00709 w177
put k00713 w178
put k00717 w179
put k00721 w180
put k00725 w181
put k00729 w182
put k00733 w183
put k00737 w184
put k00741 w185
put k00745 w186
put k00749 w187
put k00753 w188
put k00757 w189
put k00761 w190
put k00765 w191
put k00769 w192
put k00773 w193
put k00777 w194
put k00781 w195
put k00785 w196
put k00789 w197
put k00793 w198
put k00797 w199
flush
get k00003
get k00007
get k00011
get k00015
get k00019
get k00023
get k00027
get k00031
get k00035
get k00039
get k00043
get k00047
get k00051
get k00055
get k00059
get k00063
get k00067
get k00071
get k00075
get k00079
get k00083
get k00087
get k00091
get k00095
get k00099
get k00103
get k00107
get k00111
get k00115
get k00119
get k00123
get k00127
get k00131
get k00135
get k00139
get k00143
get k00147
get k00151
get k00155
get k00159
get k00163
get k00167
get k00171
get k00175
get k00179
get k00183
get k00187
get k00191
get k00195
get k00199
get k00203
get k00207
get k00211
get k00215
get k00219
get k00223
get k00227
get k00231
get k00235
get k00239
get k00243
get k00247
get k00251
get k00255
get k00259
get k00263
get k00267
get k00271
get k00275
get k00279
get k00283
get k00287
get k00291
get k00295
get k00299
get k00303
get k00307
get k00311
get k00315
get k00319
get k00323
get k00327
get k00331
get k00335
get k00339
get k00343
get k00347
get k00351
get k00355
get k00359
get k00363
get k00367
get k00371
get k00375
get k00379
get k00383
get k00387
get k00391
get k00395
get k00399
get k00403
get k00407
get k00411
get k00415
get k00419
get k00423
get k00427
get k00431
get k00435
get k00439
get k00443
get k00447
get k00451
get k00455
get k00459
get k00463
get k00467
get k00471
get k00475
get k00479
get k00483
get k00487
get k00491
get k00495
get k00499
get k00503
get k00507
get k00511
get k00515
get k00519
get k00523
get k00527
get k00531
get k00535
get k00539
get k00543
get k00547
get k00551
get k00555
get k00559
get k00563
get k00567
get k00571
get k00575
get k00579
get k00583
get k00587
get k00591
get k00595
get k00599
get k00603
get k00607
get k00611
get k00615
get k00619
get k00623
get k00627
get k00631
get k00635
get k00639
get k00643
get k00647
get k00651
get k00655
get k00659
get k00663
get k00667
get k00671
get k00675
get k00679
get k00683
get k00687
get k00691
get k00695
get k00699
get k00703
get k00707
get k00711
get k00715
get k00719
get k00723
get k00727
get k00731
get k00735
get k00739
get k00743
get k00747
get k00751
get k00755
get k00759
get k00763
get k00767
get k00771
get k00775
get k00779
get k00783
get k00787
get k00791
get k00795
get k00799
