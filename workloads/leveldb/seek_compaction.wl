# seek_compaction.wl -- a LevelDB seek compaction, caused by reads alone.
# Two overlapping L0 tables: every get of a key that only the older table
# holds first looks in the newer one (its range covers the key, its filter
# probed), and each such miss uses one of the newer table's 100 allowed
# seeks (LevelDB's minimum).  At the 100th LevelDB schedules a compaction
# of that table; filterlab's LevelDB engine runs LevelDB's background work
# inside the call that scheduled it, so the tables change during the same
# get every run, and the checker sees the new shape at the next read.
filterlab-workload 1
open policies="bloom(bits=10)" memtable_bytes=1000000
put key0000 old0
put key0002 old2
put key0004 old4
put key0006 old6
put key0008 old8
put key0010 old10
put key0012 old12
put key0014 old14
put key0016 old16
put key0018 old18
put key0020 old20
put key0022 old22
put key0024 old24
put key0026 old26
put key0028 old28
put key0030 old30
put key0032 old32
put key0034 old34
put key0036 old36
put key0038 old38
put key0040 old40
put key0042 old42
put key0044 old44
put key0046 old46
put key0048 old48
put key0050 old50
put key0052 old52
put key0054 old54
put key0056 old56
put key0058 old58
put key0060 old60
put key0062 old62
put key0064 old64
put key0066 old66
put key0068 old68
put key0070 old70
put key0072 old72
put key0074 old74
put key0076 old76
put key0078 old78
put key0080 old80
put key0082 old82
put key0084 old84
put key0086 old86
put key0088 old88
put key0090 old90
put key0092 old92
put key0094 old94
put key0096 old96
put key0098 old98
put key0100 old100
put key0102 old102
put key0104 old104
put key0106 old106
put key0108 old108
put key0110 old110
put key0112 old112
put key0114 old114
put key0116 old116
put key0118 old118
put key0120 old120
put key0122 old122
put key0124 old124
put key0126 old126
put key0128 old128
put key0130 old130
put key0132 old132
put key0134 old134
put key0136 old136
put key0138 old138
put key0140 old140
put key0142 old142
put key0144 old144
put key0146 old146
put key0148 old148
put key0150 old150
put key0152 old152
put key0154 old154
put key0156 old156
put key0158 old158
put key0160 old160
put key0162 old162
put key0164 old164
put key0166 old166
put key0168 old168
put key0170 old170
put key0172 old172
put key0174 old174
put key0176 old176
put key0178 old178
put key0180 old180
put key0182 old182
put key0184 old184
put key0186 old186
put key0188 old188
put key0190 old190
put key0192 old192
put key0194 old194
put key0196 old196
put key0198 old198
flush
put key0001 new1
put key0003 new3
put key0005 new5
put key0007 new7
put key0009 new9
put key0011 new11
put key0013 new13
put key0015 new15
put key0017 new17
put key0019 new19
put key0021 new21
put key0023 new23
put key0025 new25
put key0027 new27
put key0029 new29
put key0031 new31
put key0033 new33
put key0035 new35
put key0037 new37
put key0039 new39
put key0041 new41
put key0043 new43
put key0045 new45
put key0047 new47
put key0049 new49
put key0051 new51
put key0053 new53
put key0055 new55
put key0057 new57
put key0059 new59
put key0061 new61
put key0063 new63
put key0065 new65
put key0067 new67
put key0069 new69
put key0071 new71
put key0073 new73
put key0075 new75
put key0077 new77
put key0079 new79
put key0081 new81
put key0083 new83
put key0085 new85
put key0087 new87
put key0089 new89
put key0091 new91
put key0093 new93
put key0095 new95
put key0097 new97
put key0099 new99
put key0101 new101
put key0103 new103
put key0105 new105
put key0107 new107
put key0109 new109
put key0111 new111
put key0113 new113
put key0115 new115
put key0117 new117
put key0119 new119
put key0121 new121
put key0123 new123
put key0125 new125
put key0127 new127
put key0129 new129
put key0131 new131
put key0133 new133
put key0135 new135
put key0137 new137
put key0139 new139
put key0141 new141
put key0143 new143
put key0145 new145
put key0147 new147
put key0149 new149
put key0151 new151
put key0153 new153
put key0155 new155
put key0157 new157
put key0159 new159
put key0161 new161
put key0163 new163
put key0165 new165
put key0167 new167
put key0169 new169
put key0171 new171
put key0173 new173
put key0175 new175
put key0177 new177
put key0179 new179
put key0181 new181
put key0183 new183
put key0185 new185
put key0187 new187
put key0189 new189
put key0191 new191
put key0193 new193
put key0195 new195
put key0197 new197
put key0199 new199
put key0000 new0
put key0198 new198
flush
get key0002
get key0004
get key0006
get key0008
get key0010
get key0012
get key0014
get key0016
get key0018
get key0020
get key0022
get key0024
get key0026
get key0028
get key0030
get key0032
get key0034
get key0036
get key0038
get key0040
get key0042
get key0044
get key0046
get key0048
get key0050
get key0052
get key0054
get key0056
get key0058
get key0060
get key0062
get key0064
get key0066
get key0068
get key0070
get key0072
get key0074
get key0076
get key0078
get key0080
get key0082
get key0084
get key0086
get key0088
get key0090
get key0092
get key0094
get key0096
get key0098
get key0100
get key0102
get key0104
get key0106
get key0108
get key0110
get key0112
get key0114
get key0116
get key0118
get key0120
get key0122
get key0124
get key0126
get key0128
get key0130
get key0132
get key0134
get key0136
get key0138
get key0140
get key0142
get key0144
get key0146
get key0148
get key0150
get key0152
get key0154
get key0156
get key0158
get key0160
get key0162
get key0164
get key0166
get key0168
get key0170
get key0172
get key0174
get key0176
get key0178
get key0180
get key0182
get key0184
get key0186
get key0188
get key0190
get key0192
get key0194
get key0196
get key0002
get key0004
get key0006
get key0008
get key0010
get key0012
get key0014
get key0016
get key0018
get key0020
get key0022
get key0024
get key0026
get key0028
get key0030
get key0032
get key0034
get key0036
get key0038
get key0040
get key0042
get key0044
get key0046
get key0048
get key0050
get key0052
get key0054
get key0056
get key0058
get key0060
get key0062
get key0064
get key0066
get key0068
get key0070
get key0072
get key0074
get key0076
get key0078
get key0080
get key0082
get key0084
get key0086
get key0088
get key0090
get key0092
get key0094
get key0096
get key0098
get key0100
get key0102
get key0104
get key0106
get key0108
get key0110
get key0112
get key0114
get key0116
get key0118
get key0120
get key0122
get key0124
get key0126
get key0128
get key0130
get key0132
get key0134
get key0136
get key0138
get key0140
get key0142
get key0144
get key0146
get key0148
get key0150
get key0152
get key0154
get key0156
get key0158
get key0160
get key0162
get key0164
get key0166
get key0168
get key0170
get key0172
get key0174
get key0176
get key0178
get key0180
get key0182
get key0184
get key0186
get key0188
get key0190
get key0192
get key0194
get key0196
get key0001
get key0100
get key0101
scan key0090 key0110
