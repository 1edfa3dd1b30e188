# basic.wl -- the everyday ops on a small tree: puts, overwrites, point
# deletes and gets, across explicit and automatic flushes, compactions and
# a reopen.  Also the empty key and binary keys holding \x00 and \xff,
# which sort around their neighbours bytewise ("a" < "a\x00" < "a\xff").
# Small sizes (memtable_bytes=4096, sst_bytes=8192, l0_trigger=4) so that
# flushes and compactions really happen.  Reads are checked against the
# model: the newest version of a key wins; a deleted key reads as none.
filterlab-workload 1
open policies="bloom(bits=10)" memtable_bytes=4096 sst_bytes=8192 l0_trigger=4

# -- special keys, read from the memtable
put apple red
put banana yellow
put cherry dark-red
put "" the-empty-key
put a plain-a
put "a\x00" a-then-nul
put "a\xff" a-then-ff
put "bin\x00key" "nul inside"
put "\x00" just-nul
put "\xff\xff" two-ff
put "key with spaces" "value with \"quotes\" and \\"
get apple
get ""
get "a\x00"
get "a\x00\x00"
get "\xff\xff"
get "\xff"
get durian
scan "" "\xff\xff\xff"
scan a b
flush

# -- the same reads, now from the first SST
get apple
get ""
get a
get "a\x00"
get "a\xff"
get "bin\x00key"
get "bin\x00kez"
get "\x00"
get "\x00\x00"
get "\xff\xff"
get "key with spaces"
get durian
scan "" "\xff\xff\xff"

# -- overwrites and deletes in a second SST shadow the first
put apple green
del banana
del "a\x00"
put "" empty-key-again
get apple
get banana
get "a\x00"
get ""
flush
get apple
get banana
get "a\x00"
get "a\xff"
get ""
scan a "a\xff\x00"

# -- a bulk load: about 60 bytes an entry, so the memtable flushes by itself
# and the fourth L0 SST triggers a compaction into a sorted run
put fruit:0000 first-version-of-fruit-0000
put fruit:0001 first-version-of-fruit-0001
put fruit:0002 first-version-of-fruit-0002
put fruit:0003 first-version-of-fruit-0003
put fruit:0004 first-version-of-fruit-0004
put fruit:0005 first-version-of-fruit-0005
put fruit:0006 first-version-of-fruit-0006
put fruit:0007 first-version-of-fruit-0007
put fruit:0008 first-version-of-fruit-0008
put fruit:0009 first-version-of-fruit-0009
put fruit:0010 first-version-of-fruit-0010
put fruit:0011 first-version-of-fruit-0011
put fruit:0012 first-version-of-fruit-0012
put fruit:0013 first-version-of-fruit-0013
put fruit:0014 first-version-of-fruit-0014
put fruit:0015 first-version-of-fruit-0015
put fruit:0016 first-version-of-fruit-0016
put fruit:0017 first-version-of-fruit-0017
put fruit:0018 first-version-of-fruit-0018
put fruit:0019 first-version-of-fruit-0019
put fruit:0020 first-version-of-fruit-0020
put fruit:0021 first-version-of-fruit-0021
put fruit:0022 first-version-of-fruit-0022
put fruit:0023 first-version-of-fruit-0023
put fruit:0024 first-version-of-fruit-0024
put fruit:0025 first-version-of-fruit-0025
put fruit:0026 first-version-of-fruit-0026
put fruit:0027 first-version-of-fruit-0027
put fruit:0028 first-version-of-fruit-0028
put fruit:0029 first-version-of-fruit-0029
put fruit:0030 first-version-of-fruit-0030
put fruit:0031 first-version-of-fruit-0031
put fruit:0032 first-version-of-fruit-0032
put fruit:0033 first-version-of-fruit-0033
put fruit:0034 first-version-of-fruit-0034
put fruit:0035 first-version-of-fruit-0035
put fruit:0036 first-version-of-fruit-0036
put fruit:0037 first-version-of-fruit-0037
put fruit:0038 first-version-of-fruit-0038
put fruit:0039 first-version-of-fruit-0039
put fruit:0040 first-version-of-fruit-0040
put fruit:0041 first-version-of-fruit-0041
put fruit:0042 first-version-of-fruit-0042
put fruit:0043 first-version-of-fruit-0043
put fruit:0044 first-version-of-fruit-0044
put fruit:0045 first-version-of-fruit-0045
put fruit:0046 first-version-of-fruit-0046
put fruit:0047 first-version-of-fruit-0047
put fruit:0048 first-version-of-fruit-0048
put fruit:0049 first-version-of-fruit-0049
put fruit:0050 first-version-of-fruit-0050
put fruit:0051 first-version-of-fruit-0051
put fruit:0052 first-version-of-fruit-0052
put fruit:0053 first-version-of-fruit-0053
put fruit:0054 first-version-of-fruit-0054
put fruit:0055 first-version-of-fruit-0055
put fruit:0056 first-version-of-fruit-0056
put fruit:0057 first-version-of-fruit-0057
put fruit:0058 first-version-of-fruit-0058
put fruit:0059 first-version-of-fruit-0059
put fruit:0060 first-version-of-fruit-0060
put fruit:0061 first-version-of-fruit-0061
put fruit:0062 first-version-of-fruit-0062
put fruit:0063 first-version-of-fruit-0063
put fruit:0064 first-version-of-fruit-0064
put fruit:0065 first-version-of-fruit-0065
put fruit:0066 first-version-of-fruit-0066
put fruit:0067 first-version-of-fruit-0067
put fruit:0068 first-version-of-fruit-0068
put fruit:0069 first-version-of-fruit-0069
put fruit:0070 first-version-of-fruit-0070
put fruit:0071 first-version-of-fruit-0071
put fruit:0072 first-version-of-fruit-0072
put fruit:0073 first-version-of-fruit-0073
put fruit:0074 first-version-of-fruit-0074
put fruit:0075 first-version-of-fruit-0075
put fruit:0076 first-version-of-fruit-0076
put fruit:0077 first-version-of-fruit-0077
put fruit:0078 first-version-of-fruit-0078
put fruit:0079 first-version-of-fruit-0079
put fruit:0080 first-version-of-fruit-0080
put fruit:0081 first-version-of-fruit-0081
put fruit:0082 first-version-of-fruit-0082
put fruit:0083 first-version-of-fruit-0083
put fruit:0084 first-version-of-fruit-0084
put fruit:0085 first-version-of-fruit-0085
put fruit:0086 first-version-of-fruit-0086
put fruit:0087 first-version-of-fruit-0087
put fruit:0088 first-version-of-fruit-0088
put fruit:0089 first-version-of-fruit-0089
put fruit:0090 first-version-of-fruit-0090
put fruit:0091 first-version-of-fruit-0091
put fruit:0092 first-version-of-fruit-0092
put fruit:0093 first-version-of-fruit-0093
put fruit:0094 first-version-of-fruit-0094
put fruit:0095 first-version-of-fruit-0095
put fruit:0096 first-version-of-fruit-0096
put fruit:0097 first-version-of-fruit-0097
put fruit:0098 first-version-of-fruit-0098
put fruit:0099 first-version-of-fruit-0099
put fruit:0100 first-version-of-fruit-0100
put fruit:0101 first-version-of-fruit-0101
put fruit:0102 first-version-of-fruit-0102
put fruit:0103 first-version-of-fruit-0103
put fruit:0104 first-version-of-fruit-0104
put fruit:0105 first-version-of-fruit-0105
put fruit:0106 first-version-of-fruit-0106
put fruit:0107 first-version-of-fruit-0107
put fruit:0108 first-version-of-fruit-0108
put fruit:0109 first-version-of-fruit-0109
put fruit:0110 first-version-of-fruit-0110
put fruit:0111 first-version-of-fruit-0111
put fruit:0112 first-version-of-fruit-0112
put fruit:0113 first-version-of-fruit-0113
put fruit:0114 first-version-of-fruit-0114
put fruit:0115 first-version-of-fruit-0115
put fruit:0116 first-version-of-fruit-0116
put fruit:0117 first-version-of-fruit-0117
put fruit:0118 first-version-of-fruit-0118
put fruit:0119 first-version-of-fruit-0119
put fruit:0120 first-version-of-fruit-0120
put fruit:0121 first-version-of-fruit-0121
put fruit:0122 first-version-of-fruit-0122
put fruit:0123 first-version-of-fruit-0123
put fruit:0124 first-version-of-fruit-0124
put fruit:0125 first-version-of-fruit-0125
put fruit:0126 first-version-of-fruit-0126
put fruit:0127 first-version-of-fruit-0127
put fruit:0128 first-version-of-fruit-0128
put fruit:0129 first-version-of-fruit-0129
put fruit:0130 first-version-of-fruit-0130
put fruit:0131 first-version-of-fruit-0131
put fruit:0132 first-version-of-fruit-0132
put fruit:0133 first-version-of-fruit-0133
put fruit:0134 first-version-of-fruit-0134
put fruit:0135 first-version-of-fruit-0135
put fruit:0136 first-version-of-fruit-0136
put fruit:0137 first-version-of-fruit-0137
put fruit:0138 first-version-of-fruit-0138
put fruit:0139 first-version-of-fruit-0139
put fruit:0140 first-version-of-fruit-0140
put fruit:0141 first-version-of-fruit-0141
put fruit:0142 first-version-of-fruit-0142
put fruit:0143 first-version-of-fruit-0143
put fruit:0144 first-version-of-fruit-0144
put fruit:0145 first-version-of-fruit-0145
put fruit:0146 first-version-of-fruit-0146
put fruit:0147 first-version-of-fruit-0147
put fruit:0148 first-version-of-fruit-0148
put fruit:0149 first-version-of-fruit-0149
put fruit:0150 first-version-of-fruit-0150
put fruit:0151 first-version-of-fruit-0151
put fruit:0152 first-version-of-fruit-0152
put fruit:0153 first-version-of-fruit-0153
put fruit:0154 first-version-of-fruit-0154
put fruit:0155 first-version-of-fruit-0155
put fruit:0156 first-version-of-fruit-0156
put fruit:0157 first-version-of-fruit-0157
put fruit:0158 first-version-of-fruit-0158
put fruit:0159 first-version-of-fruit-0159
put fruit:0160 first-version-of-fruit-0160
put fruit:0161 first-version-of-fruit-0161
put fruit:0162 first-version-of-fruit-0162
put fruit:0163 first-version-of-fruit-0163
put fruit:0164 first-version-of-fruit-0164
put fruit:0165 first-version-of-fruit-0165
put fruit:0166 first-version-of-fruit-0166
put fruit:0167 first-version-of-fruit-0167
put fruit:0168 first-version-of-fruit-0168
put fruit:0169 first-version-of-fruit-0169
put fruit:0170 first-version-of-fruit-0170
put fruit:0171 first-version-of-fruit-0171
put fruit:0172 first-version-of-fruit-0172
put fruit:0173 first-version-of-fruit-0173
put fruit:0174 first-version-of-fruit-0174
put fruit:0175 first-version-of-fruit-0175
put fruit:0176 first-version-of-fruit-0176
put fruit:0177 first-version-of-fruit-0177
put fruit:0178 first-version-of-fruit-0178
put fruit:0179 first-version-of-fruit-0179
put fruit:0180 first-version-of-fruit-0180
put fruit:0181 first-version-of-fruit-0181
put fruit:0182 first-version-of-fruit-0182
put fruit:0183 first-version-of-fruit-0183
put fruit:0184 first-version-of-fruit-0184
put fruit:0185 first-version-of-fruit-0185
put fruit:0186 first-version-of-fruit-0186
put fruit:0187 first-version-of-fruit-0187
put fruit:0188 first-version-of-fruit-0188
put fruit:0189 first-version-of-fruit-0189
put fruit:0190 first-version-of-fruit-0190
put fruit:0191 first-version-of-fruit-0191
put fruit:0192 first-version-of-fruit-0192
put fruit:0193 first-version-of-fruit-0193
put fruit:0194 first-version-of-fruit-0194
put fruit:0195 first-version-of-fruit-0195
put fruit:0196 first-version-of-fruit-0196
put fruit:0197 first-version-of-fruit-0197
put fruit:0198 first-version-of-fruit-0198
put fruit:0199 first-version-of-fruit-0199
put fruit:0200 first-version-of-fruit-0200
put fruit:0201 first-version-of-fruit-0201
put fruit:0202 first-version-of-fruit-0202
put fruit:0203 first-version-of-fruit-0203
put fruit:0204 first-version-of-fruit-0204
put fruit:0205 first-version-of-fruit-0205
put fruit:0206 first-version-of-fruit-0206
put fruit:0207 first-version-of-fruit-0207
put fruit:0208 first-version-of-fruit-0208
put fruit:0209 first-version-of-fruit-0209
put fruit:0210 first-version-of-fruit-0210
put fruit:0211 first-version-of-fruit-0211
put fruit:0212 first-version-of-fruit-0212
put fruit:0213 first-version-of-fruit-0213
put fruit:0214 first-version-of-fruit-0214
put fruit:0215 first-version-of-fruit-0215
put fruit:0216 first-version-of-fruit-0216
put fruit:0217 first-version-of-fruit-0217
put fruit:0218 first-version-of-fruit-0218
put fruit:0219 first-version-of-fruit-0219
put fruit:0220 first-version-of-fruit-0220
put fruit:0221 first-version-of-fruit-0221
put fruit:0222 first-version-of-fruit-0222
put fruit:0223 first-version-of-fruit-0223
put fruit:0224 first-version-of-fruit-0224
put fruit:0225 first-version-of-fruit-0225
put fruit:0226 first-version-of-fruit-0226
put fruit:0227 first-version-of-fruit-0227
put fruit:0228 first-version-of-fruit-0228
put fruit:0229 first-version-of-fruit-0229
put fruit:0230 first-version-of-fruit-0230
put fruit:0231 first-version-of-fruit-0231
put fruit:0232 first-version-of-fruit-0232
put fruit:0233 first-version-of-fruit-0233
put fruit:0234 first-version-of-fruit-0234
put fruit:0235 first-version-of-fruit-0235
put fruit:0236 first-version-of-fruit-0236
put fruit:0237 first-version-of-fruit-0237
put fruit:0238 first-version-of-fruit-0238
put fruit:0239 first-version-of-fruit-0239
get fruit:0000
get fruit:0001
get fruit:0059
get fruit:0060
get fruit:0119
get fruit:0120
get fruit:0199
get fruit:0239
get fruit:0240
get fruit:
get fruit:00
get fruit:0100x
get fruits
scan fruit:0100 fruit:0110
scan_prefix fruit:023
flush
compact

# -- after the compaction: one sorted run, split at sst_bytes
get fruit:0000
get fruit:0007
get fruit:0100
get fruit:0239
get fruit:0240
get apple
get banana
get ""
scan_prefix fruit:010

# -- second versions of every third fruit, deletes of every seventh
put fruit:0000 second-version-0000
put fruit:0003 second-version-0003
put fruit:0006 second-version-0006
put fruit:0009 second-version-0009
put fruit:0012 second-version-0012
put fruit:0015 second-version-0015
put fruit:0018 second-version-0018
put fruit:0021 second-version-0021
put fruit:0024 second-version-0024
put fruit:0027 second-version-0027
put fruit:0030 second-version-0030
put fruit:0033 second-version-0033
put fruit:0036 second-version-0036
put fruit:0039 second-version-0039
put fruit:0042 second-version-0042
put fruit:0045 second-version-0045
put fruit:0048 second-version-0048
put fruit:0051 second-version-0051
put fruit:0054 second-version-0054
put fruit:0057 second-version-0057
put fruit:0060 second-version-0060
put fruit:0063 second-version-0063
put fruit:0066 second-version-0066
put fruit:0069 second-version-0069
put fruit:0072 second-version-0072
put fruit:0075 second-version-0075
put fruit:0078 second-version-0078
put fruit:0081 second-version-0081
put fruit:0084 second-version-0084
put fruit:0087 second-version-0087
put fruit:0090 second-version-0090
put fruit:0093 second-version-0093
put fruit:0096 second-version-0096
put fruit:0099 second-version-0099
put fruit:0102 second-version-0102
put fruit:0105 second-version-0105
put fruit:0108 second-version-0108
put fruit:0111 second-version-0111
put fruit:0114 second-version-0114
put fruit:0117 second-version-0117
put fruit:0120 second-version-0120
put fruit:0123 second-version-0123
put fruit:0126 second-version-0126
put fruit:0129 second-version-0129
put fruit:0132 second-version-0132
put fruit:0135 second-version-0135
put fruit:0138 second-version-0138
put fruit:0141 second-version-0141
put fruit:0144 second-version-0144
put fruit:0147 second-version-0147
put fruit:0150 second-version-0150
put fruit:0153 second-version-0153
put fruit:0156 second-version-0156
put fruit:0159 second-version-0159
put fruit:0162 second-version-0162
put fruit:0165 second-version-0165
put fruit:0168 second-version-0168
put fruit:0171 second-version-0171
put fruit:0174 second-version-0174
put fruit:0177 second-version-0177
put fruit:0180 second-version-0180
put fruit:0183 second-version-0183
put fruit:0186 second-version-0186
put fruit:0189 second-version-0189
put fruit:0192 second-version-0192
put fruit:0195 second-version-0195
put fruit:0198 second-version-0198
put fruit:0201 second-version-0201
put fruit:0204 second-version-0204
put fruit:0207 second-version-0207
put fruit:0210 second-version-0210
put fruit:0213 second-version-0213
put fruit:0216 second-version-0216
put fruit:0219 second-version-0219
put fruit:0222 second-version-0222
put fruit:0225 second-version-0225
put fruit:0228 second-version-0228
put fruit:0231 second-version-0231
put fruit:0234 second-version-0234
put fruit:0237 second-version-0237
del fruit:0000
del fruit:0007
del fruit:0014
del fruit:0021
del fruit:0028
del fruit:0035
del fruit:0042
del fruit:0049
del fruit:0056
del fruit:0063
del fruit:0070
del fruit:0077
del fruit:0084
del fruit:0091
del fruit:0098
del fruit:0105
del fruit:0112
del fruit:0119
del fruit:0126
del fruit:0133
del fruit:0140
del fruit:0147
del fruit:0154
del fruit:0161
del fruit:0168
del fruit:0175
del fruit:0182
del fruit:0189
del fruit:0196
del fruit:0203
del fruit:0210
del fruit:0217
del fruit:0224
del fruit:0231
del fruit:0238
flush
get fruit:0000
get fruit:0003
get fruit:0006
get fruit:0007
get fruit:0014
get fruit:0021
get fruit:0022
get fruit:0100
get fruit:0105
get fruit:0231
get fruit:0238
get fruit:0239
scan fruit:0000 fruit:0030

# -- everything into one run: shadowed versions and tombstones go
compact full
get fruit:0000
get fruit:0003
get fruit:0006
get fruit:0007
get fruit:0014
get fruit:0021
get fruit:0022
get fruit:0100
get fruit:0105
get fruit:0231
get fruit:0238
get fruit:0239
get apple
get "a\x00"
get "a\xff"
get ""
get "\xff\xff"
scan_prefix fruit:02

# -- close and open again (same options): the tree and the sequence numbers
# survive; the memtable was flushed by the close
put late-key written-before-reopen
reopen memtable_bytes=4096
get late-key
get apple
get banana
get ""
get "bin\x00key"
get "\x00"
get fruit:0003
get fruit:0007
get fruit:0239
scan "" fruit:0002
put apple after-reopen
get apple
flush
get apple
scan_prefix a
scan_prefix fruit:0
