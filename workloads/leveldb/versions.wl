# versions.wl -- several versions of each key and deletions in one table,
# with LevelDB's smallest blocks (block_bytes=1024), so that a table has
# many data blocks and a filter per 2 KiB window of them.  LevelDB's filter
# holds every entry's user key, all versions and deletions included; a get
# of a deleted key stops at the table holding its deletion.  A flush here
# is LevelDB's CompactRange(NULL, ""), which writes the memtable to a table
# at the level LevelDB picks; the empty key is written too, so that some
# flushes also compact the tables holding it.
filterlab-workload 1
open policies="bloom(bits=12)" memtable_bytes=1000000 block_bytes=1024
put "" empty-1
put user0159 v0-0-xxxxxxxxxxxxxxxxxxxxxx
put user0176 v0-1-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0007 v0-2-xxxxxxxxxxxxxxx
del user0166
del user0040
put user0120 v0-5-xxxxxxxxxxxxxxxxxxxxxxxx
del user0139
del user0063
put user0055 v0-8-xxxxxxxxxxx
put user0196 v0-9-xxxx
put user0035 v0-10-xxxxxxxxxxxxxxxxxxxxxxxxxxxx
del user0032
put user0001 v0-12-xxxxxxxxxxxxx
put user0042 v0-13-xxxxxxxxxxxxxxxxxx
put user0080 v0-14-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0173 v0-15-xxxxxxxxxxx
put user0176 v0-16-xxxxxxxxxxxxxxxxxxxxxxxx
del user0076
put user0106 v0-18-xxxxxxxxx
del user0067
put user0077 v0-20-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0000 v0-21-xxxxxxxxxxxxxxxxxxxxx
put user0016 v0-22-xxxxxxxxxxxxxxxxxxx
put user0123 v0-23-xxxxxxxxxxx
put user0123 v0-24-xxxxxxxxxxx
put user0014 v0-25-x
put user0191 v0-26-xxxxxxxxxxxxxxxxxxxxxxxxx
put user0004 v0-27-xxxxxxxxxxxxxxxxxxxxxxxxxx
put user0093 v0-28-
del user0115
put user0046 v0-30-xxxxxxxxxxxx
put user0030 v0-31-xxxxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0088 v0-32-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0064 v0-33-xxxxxx
put user0150 v0-34-xxxxxxxxxxxxxxxxxxxxxxx
del user0075
put user0023 v0-36-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0156 v0-37-xxxxxxxxx
put user0087 v0-38-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0023 v0-39-xxxxxxxxxxxxxxxxxxxx
put user0078 v0-40-xxxxx
del user0160
put user0176 v0-42-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0041 v0-43-xxxxx
put user0153 v0-44-xxxxxxxxxxxxxxxxxxxxxxxxx
put user0008 v0-45-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0088 v0-46-xxxxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0166 v0-47-xxx
del user0163
put user0126 v0-49-xxxxxxxxxxxxx
put user0033 v0-50-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0033 v0-51-xxxxxxxxxxxxxxxxxxxxxxxxxx
put user0027 v0-52-xxxxxxxxxxxxxxxxxxxxxxx
del user0038
put user0107 v0-54-xxxxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0158 v0-55-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0116 v0-56-xxxxxxxxxxxxxxxxxxxx
put user0122 v0-57-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0103 v0-58-xxxxxxx
put user0096 v0-59-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0045 v0-60-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0086 v0-61-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0069 v0-62-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0128 v0-63-xxxxxxxxxxxxxxxxxxxxxx
put user0177 v0-64-xx
put user0194 v0-65-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0180 v0-66-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0067 v0-67-xxxxxxxxxxxxxxxxxx
put user0087 v0-68-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0002 v0-69-xxxxxxxxxxxxxxxx
put user0083 v0-70-xxxxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0073 v0-71-xxxxxxxxxxxxxxxxxxxxxx
put user0089 v0-72-xxxxxxxxxxxxxxxxxxxxxx
put user0188 v0-73-xxxxxxxxxxxxxxxxxxxxxxxxxx
put user0089 v0-74-xxxxxxxxxxx
put user0176 v0-75-xxxxxxxxxxxxxxxxxxxxxxx
put user0085 v0-76-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0042 v0-77-xxxxxxxxxxxxxxxxxxxxxxx
put user0122 v0-78-xxxxx
put user0184 v0-79-xxxxxxxxxxxxxxxxxxxxxxxxxx
put user0043 v0-80-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0132 v0-81-xxxxxxxxxxxxxxxxxxxxxxxxxx
put user0077 v0-82-xxxxxxxxxxxxxxxxx
put user0184 v0-83-xxxxxxxxxxxx
put user0040 v0-84-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0166 v0-85-xxxxxxxxxxx
put user0161 v0-86-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0057 v0-87-xxxxxxxx
put user0028 v0-88-xxxxxxxxxxx
put user0123 v0-89-xx
put user0106 v0-90-xxxxxxxxxxxxxxxxxxxxxxxx
put user0169 v0-91-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0052 v0-92-xxxxxxxxxxxxxxxxxxxxxxx
put user0000 v0-93-xxxxxxxxxxxxxxxxx
put user0104 v0-94-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0095 v0-95-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0157 v0-96-xxxxxxxxxxxxxxxxxx
put user0139 v0-97-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0075 v0-98-xxxxxxxx
put user0107 v0-99-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0164 v0-100-xxxxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0036 v0-101-xxxxxxxxxxxxxxxxxxxxxxxx
put user0144 v0-102-xxxxxxxxxxxx
put user0034 v0-103-xxxxxxxxxxxxxxxxxxxxxx
del user0169
put user0027 v0-105-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
del user0138
put user0161 v0-107-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0096 v0-108-xxxxxxxxxxxxxx
put user0126 v0-109-xxxxxxxxxxxxxxxxxxxxxxxx
put user0098 v0-110-xxxxxxxxxx
put user0152 v0-111-xxxxxxxxxxxxxxxxxxx
put user0127 v0-112-x
put user0081 v0-113-xxxxxxxxxxxxxxxxxxx
put user0125 v0-114-xxxxxxxxx
del user0122
put user0168 v0-116-xxxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0062 v0-117-xxxxxxxx
del user0100
put user0136 v0-119-xxxxxxxxxxxxxxx
put user0121 v0-120-xxxxxxxxxxxxxxx
put user0125 v0-121-xxxxxxxxx
put user0184 v0-122-xxxxxxxxxxxxxxxxxx
put user0126 v0-123-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0132 v0-124-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0190 v0-125-x
del user0194
put user0072 v0-127-xxxxxxxxxxxxxxxxxxxxx
put user0157 v0-128-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0006 v0-129-xxxxxxxxxxxxxxxxxxxxxxx
put user0174 v0-130-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
del user0033
put user0064 v0-132-xxxxxx
put user0175 v0-133-
put user0109 v0-134-xxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0152 v0-135-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0098 v0-136-xxxxxxxxxxxx
put user0075 v0-137-xxxx
put user0077 v0-138-xxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0149 v0-139-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
del user0079
put user0122 v0-141-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0084 v0-142-xxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0149 v0-143-xxx
put user0017 v0-144-xxxxxxxxxxxxxxxxx
put user0021 v0-145-x
put user0085 v0-146-xxxx
put user0103 v0-147-xxx
put user0031 v0-148-xxxxxxxxxxxxxx
put user0157 v0-149-xxxxxxx
flush
get user0182
get user0034
get user0074
get user0180
get user0112
get user0038
get user0046
get user0156
get user0047
get user0105
get user0041
get user0017
get user0159
get user0054
get user0011
get user0142
get user0027
get user0169
get user0097
get user0190
get user0018
get user0071
get user0014
get user0146
get user0147
get user0030zz
get user0190zz
get user0102zz
get user0159zz
get user0034zz
get user0002zz
get user0110zz
get user0023zz
get user0080zz
get user0175zz
get ""
put user0153 v1-0-xxxxxxxxxxxxxxxxxxxxxx
put user0167 v1-1-xxx
put user0035 v1-2-xxxxxxxxx
put user0145 v1-3-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0074 v1-4-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0140 v1-5-xxxxxxxxxxxxxxxx
put user0016 v1-6-xxxxxxxxxxxxxxxx
put user0192 v1-7-xxxxxxxx
put user0060 v1-8-xxxxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0188 v1-9-xxxxxxxx
del user0182
del user0087
del user0170
put user0031 v1-13-xxxxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0061 v1-14-xxxxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0122 v1-15-xxxxxx
del user0135
put user0185 v1-17-xxxxxxxxx
put user0109 v1-18-xxxxxxxxxxxxxx
del user0191
put user0170 v1-20-xxxxxxxxxxxxx
put user0035 v1-21-xxxxxxxxxxxxxxxxxxxxxxxx
put user0090 v1-22-xxxxxxxxxxxxxxxxxx
put user0085 v1-23-xxxxxxxxxxxxxxxxxxxxxx
put user0098 v1-24-xxxxxxxxxxxxxxxxxxxxxx
put user0165 v1-25-xxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0092 v1-26-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0146 v1-27-xxxxxxxxxxx
del user0101
del user0009
put user0051 v1-30-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0123 v1-31-xxxxxxxxxxxxxxxxxxxxxx
put user0000 v1-32-xxxxxxxxxxxxxxxxxxx
put user0158 v1-33-xxxxxxxxxxxxxxxxxxxx
put user0119 v1-34-xxxxxxxxxxxx
put user0039 v1-35-xxxx
put user0095 v1-36-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0038 v1-37-xxxxxxx
put user0071 v1-38-xxxxxxxxxxxxxxxxxx
put user0172 v1-39-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0008 v1-40-xxxxxxxxxxxxxxxxxxxxxxx
put user0080 v1-41-x
put user0172 v1-42-xxxxxxxxx
put user0030 v1-43-xxxxxxxxxxxxxxxxxxxx
put user0074 v1-44-xxxxxxxxxxxxxxx
put user0186 v1-45-xx
put user0051 v1-46-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0059 v1-47-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0102 v1-48-xxxxxxxxxxxxxxxxxxxxxxx
put user0174 v1-49-xxxxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0092 v1-50-xxxxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0041 v1-51-xxxxxxxxxxx
put user0172 v1-52-xx
put user0165 v1-53-xxxxxxxxxxxxxxxxx
put user0001 v1-54-xxxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0199 v1-55-xxxxxxxxxx
del user0011
put user0132 v1-57-xxxxxx
del user0183
del user0125
del user0120
put user0062 v1-61-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0101 v1-62-xxx
put user0065 v1-63-xxxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0078 v1-64-xx
put user0049 v1-65-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0163 v1-66-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
del user0059
put user0080 v1-68-xxxxx
put user0138 v1-69-xxxxxxxxxx
del user0153
put user0186 v1-71-x
put user0112 v1-72-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0108 v1-73-xxxxxxxxxxxxxxxxxxxxxxxx
put user0133 v1-74-
put user0193 v1-75-xxxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0057 v1-76-xxxxxxxx
put user0079 v1-77-xxxxxxxxxxxxxxxx
put user0103 v1-78-xxxxxxxx
del user0137
put user0062 v1-80-xxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0147 v1-81-xxxxxxxxxxxxxxxxx
put user0015 v1-82-xxxxxxxxxxxxxxx
put user0012 v1-83-xxxxxxxxxxxxxxxxxx
put user0095 v1-84-xxxx
put user0107 v1-85-xxxxxxxxxxxxxxxxxxxxxxxx
put user0192 v1-86-
put user0073 v1-87-xxxxxxxx
del user0147
put user0036 v1-89-x
del user0186
put user0109 v1-91-xxxxxxxxxxxxxxxxxxxxxxxx
del user0143
put user0016 v1-93-xxxxxxxx
put user0067 v1-94-xxxxxxxxxxxxxxxxxxxx
del user0073
put user0138 v1-96-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
del user0007
put user0012 v1-98-xxxxxxxxxxxxxxxxxxxxxx
put user0111 v1-99-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0004 v1-100-xxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0032 v1-101-xxxxxxxxxxxxxxxxxxxxx
del user0091
put user0149 v1-103-xxxxxxxxxx
put user0186 v1-104-xxxxxxxxxxxxxxxxx
put user0135 v1-105-xxxxxxxxx
put user0114 v1-106-xxxxxxxxxxxxxxxxxxxxxxxxxxx
del user0109
put user0081 v1-108-xxxxxxxxxxxxxx
put user0118 v1-109-xxxxxxxxxx
del user0113
put user0171 v1-111-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0121 v1-112-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
del user0000
put user0107 v1-114-xxxxxxxxxxxxx
del user0000
put user0147 v1-116-xxxxxxxxxxxxxxxxxxxxxx
put user0100 v1-117-xxxxxxxxxxxx
put user0070 v1-118-xxxxxxxxxxxxxxxxxxx
put user0143 v1-119-xxxxxxxxxxxxxxx
put user0093 v1-120-xxxxxxxxxxxxxxx
put user0169 v1-121-xxx
put user0158 v1-122-xxxxxxxxxxxxxxxxxxxxxx
del user0036
put user0061 v1-124-xx
put user0024 v1-125-xxxxxx
put user0192 v1-126-xxxxxxxxxxxx
put user0193 v1-127-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0136 v1-128-xxxxxxxxxxxx
put user0096 v1-129-xxxxxx
put user0131 v1-130-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0047 v1-131-x
put user0081 v1-132-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0079 v1-133-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0121 v1-134-xxxxxxxxxxxxxxxxxxxxxxxxx
put user0115 v1-135-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0177 v1-136-xxx
del user0137
put user0106 v1-138-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0005 v1-139-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0052 v1-140-xxxx
del user0006
put user0091 v1-142-xxxxxxxxxxxxxxxxxxxxxxxxxx
put user0078 v1-143-
put user0070 v1-144-xxxxxxxxxxxxxxx
del user0018
put user0022 v1-146-xxxxxxxxxxxxxxxxxxx
put user0089 v1-147-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0156 v1-148-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
del user0132
flush
get user0030
get user0061
get user0087
get user0139
get user0108
get user0100
get user0000
get user0171
get user0099
get user0096
get user0045
get user0192
get user0167
get user0135
get user0053
get user0173
get user0157
get user0082
get user0098
get user0082
get user0027
get user0176
get user0141
get user0176
get user0183
get user0095zz
get user0063zz
get user0025zz
get user0054zz
get user0075zz
get user0078zz
get user0068zz
get user0159zz
get user0019zz
get user0042zz
get ""
put user0019 v2-0-xxxxxxxxxxx
put user0057 v2-1-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0144 v2-2-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0186 v2-3-xxxxxxxxxxxxxx
put user0108 v2-4-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0062 v2-5-xxxxxxxxxxxxxxxxx
put user0021 v2-6-xxxxxxxxxxxxxxxxxxxxx
put user0047 v2-7-xxxxxxxxx
put user0029 v2-8-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0154 v2-9-xxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0048 v2-10-xxxxxx
put user0165 v2-11-xxxxxxxxxxxxxxxxxxxxx
del user0186
del user0124
put user0132 v2-14-xxxxxxxxxxxxxxxxxxxx
put user0048 v2-15-xxxxxxxxxxxxxxxxxxxxxxxx
put user0058 v2-16-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0122 v2-17-
put user0049 v2-18-xxxxxxx
put user0023 v2-19-xxxxxxxxxxxxxxxxxxxxxxx
put user0157 v2-20-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0194 v2-21-xxxxxxxxxxxxxxxxxxxx
put user0197 v2-22-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0148 v2-23-xxxxxx
del user0093
put user0016 v2-25-xxxxxxxxxxxxxxxxxxxx
put user0095 v2-26-xxxxx
put user0062 v2-27-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0119 v2-28-xxxxxxx
put user0152 v2-29-xxxxxxxx
del user0175
put user0097 v2-31-xxxx
put user0125 v2-32-xxxxxxxxxxxxxxxxxx
del user0004
put user0122 v2-34-xxxxxxxxxxxx
put user0087 v2-35-xxxxxxxxxxxxxxxxxx
put user0127 v2-36-xxxxx
del user0147
put user0104 v2-38-xxxx
put user0132 v2-39-xxxxxxxxxxxxxx
put user0107 v2-40-xxxxxxxxxxxxxxxxx
put user0170 v2-41-xxxxxxxxx
put user0069 v2-42-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0122 v2-43-xxxxxxxxxxx
put user0138 v2-44-xxxxxxxxxxxxxxx
put user0023 v2-45-xxxxxxxx
del user0021
del user0196
del user0004
put user0143 v2-49-xxxxxxxxxxxxxxxxxxxxxxxx
del user0132
put user0055 v2-51-xxxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0003 v2-52-xxxxx
put user0071 v2-53-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
del user0130
put user0040 v2-55-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0111 v2-56-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0162 v2-57-xxxxxxxxxxxxx
put user0006 v2-58-xxxxxxxxxxxxxxxxxxxxxxxxxx
put user0110 v2-59-xxxxxxxxxxxxxxxxxxxxxxxx
put user0003 v2-60-xxxxxxxxxx
del user0086
put user0199 v2-62-xxxx
put user0094 v2-63-xxxxxxxxxxxxxxxxxxxxxxxxxx
put user0048 v2-64-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0093 v2-65-xxxxxxx
put user0196 v2-66-xxxxxxxxxxxxxxxxxxxxxxxxxxxxx
del user0019
del user0097
put user0104 v2-69-xxxxxxxxxxxx
del user0165
put user0126 v2-71-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
del user0117
del user0060
put user0093 v2-74-x
put user0003 v2-75-xxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0021 v2-76-xxxxxxxxxxxxxxxxxxxxxxx
put user0085 v2-77-xxxxxxxxx
put user0075 v2-78-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0023 v2-79-xxxxxx
put user0164 v2-80-xxxxxxxxxxxxxxxxxxx
put user0094 v2-81-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0148 v2-82-xxxxxxxxxxxxxxx
del user0145
put user0004 v2-84-xxxxxxxxxxxxxxxxxxxxxxxx
put user0034 v2-85-xxx
del user0002
put user0054 v2-87-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0183 v2-88-xxxxxxxxxxxxxxxxxxx
put user0014 v2-89-xxxxxxxxxxxxxxx
put user0009 v2-90-xxxxxxxxxxxxxxxxxxxxxx
del user0198
put user0076 v2-92-xxxxxx
del user0167
put user0094 v2-94-xxxxxxxxxxxxxxxxx
put user0182 v2-95-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0099 v2-96-xxxxxxxxxxxxxxxxxxx
put user0042 v2-97-xxxx
put user0165 v2-98-xxxxxxxxxxxxx
put user0135 v2-99-xxxxxx
put user0131 v2-100-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0095 v2-101-xxxxxxxx
put user0116 v2-102-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0000 v2-103-xxxxxxxxxxxxx
put user0145 v2-104-xxx
del user0189
put user0087 v2-106-xxxxxxxxxxxxxxxxxxxxxxx
put user0087 v2-107-xxxxxxxxxxxxxxxxx
put user0123 v2-108-xxxxxxx
put user0067 v2-109-x
put user0160 v2-110-xxxxxxxxxx
put user0160 v2-111-xxxxxxxxxxxxxxxx
put user0151 v2-112-xxxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0045 v2-113-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0013 v2-114-xxxxxxxxxxxxxxxxxxxxxx
del user0143
del user0116
put user0156 v2-117-xx
put user0006 v2-118-xxxxxxx
put user0105 v2-119-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0113 v2-120-xxxxxxxxxxxxxx
put user0137 v2-121-xxxxxxx
del user0180
put user0175 v2-123-xx
put user0017 v2-124-xxxxxxxxxxxxxxxxxxx
put user0166 v2-125-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0184 v2-126-xxxxxxxxxxxxxxxxx
put user0030 v2-127-xxxxxxxxxxxxxxxxxxx
put user0066 v2-128-xxxxxxxxxxxxxxxxxxx
put user0000 v2-129-xxxxxxxxxxxxxxxxxxxx
put user0132 v2-130-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0119 v2-131-xxxxxxxxxxxxx
put user0067 v2-132-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0052 v2-133-xxxxxxxxx
put user0090 v2-134-xxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0112 v2-135-xxxxxxxxxxxxxxxxxxxxxxxxx
put user0044 v2-136-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0043 v2-137-xxxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0146 v2-138-x
put user0037 v2-139-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0126 v2-140-xxxxxxxxxxxxx
put user0142 v2-141-xxxxxxxxxx
put user0107 v2-142-xxxxxxxxxxxxxxxx
put user0080 v2-143-xxxxxx
put user0050 v2-144-xxxxxxxxxxxxxxxxxxxxxx
put user0132 v2-145-xxxxx
put user0029 v2-146-xxxxxxx
del user0086
put user0161 v2-148-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
del user0045
put "" empty-2
flush
get user0139
get user0098
get user0044
get user0162
get user0085
get user0185
get user0196
get user0066
get user0025
get user0104
get user0084
get user0024
get user0079
get user0016
get user0074
get user0183
get user0086
get user0105
get user0104
get user0016
get user0016
get user0077
get user0017
get user0046
get user0010
get user0024zz
get user0188zz
get user0129zz
get user0104zz
get user0026zz
get user0118zz
get user0106zz
get user0018zz
get user0057zz
get user0107zz
get ""
put user0006 v3-0-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0074 v3-1-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0082 v3-2-xxxx
put user0119 v3-3-xxxxxxxxxx
put user0196 v3-4-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
del user0137
put user0167 v3-6-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0097 v3-7-xxxxxxxxxxxxxxxxx
put user0078 v3-8-xxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0010 v3-9-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0034 v3-10-xxxxxxxxxxx
put user0049 v3-11-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
del user0018
put user0013 v3-13-xxxxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0078 v3-14-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0162 v3-15-xxxxxxxxxxxxxxxxxx
put user0042 v3-16-xxxxxxxxxxxxxxxx
put user0116 v3-17-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
del user0025
put user0051 v3-19-xxxxxx
put user0113 v3-20-xxxxxxxx
put user0063 v3-21-xxxxx
put user0184 v3-22-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0118 v3-23-xxxxxxxxxx
put user0178 v3-24-xxxxxxxxxxxxxxxxxxx
put user0148 v3-25-xxxxxxxxxxxxxxxxxxxxxx
del user0178
put user0184 v3-27-xxxxxxxxxxxxx
del user0195
put user0147 v3-29-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0133 v3-30-xxxxxxxxxxxxxxxxxx
put user0154 v3-31-xxxxxxxxxxxxxxxxxx
put user0034 v3-32-xxxxxxxxxxxxxxxxxx
put user0106 v3-33-xxxxxxxx
put user0074 v3-34-xx
put user0000 v3-35-xxxxxxxxxx
put user0079 v3-36-xxxxxxxxxxxxxxxxxxxxxxxxxx
put user0169 v3-37-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0172 v3-38-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0129 v3-39-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0003 v3-40-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
del user0166
put user0123 v3-42-xxxxxxxxxxxxxxxxxxxxxxx
put user0011 v3-43-
put user0122 v3-44-xxxxxxxxxxxx
put user0043 v3-45-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0060 v3-46-xxxxxxxxxxxxxxxxxxxxxxxxx
del user0166
put user0106 v3-48-xxxxxxxxxxxxxx
put user0165 v3-49-
put user0052 v3-50-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0017 v3-51-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0095 v3-52-xxxxxxxxxxxxxxxxxxx
put user0057 v3-53-xxxxxxxxxxxxxxxxxxxxxxx
put user0142 v3-54-xxxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0175 v3-55-xxxxxxxxxxxxxxxx
put user0135 v3-56-xxxxxxxxx
del user0108
put user0003 v3-58-xxxxxxxxxxxx
put user0027 v3-59-xxxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0120 v3-60-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
del user0019
put user0178 v3-62-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0119 v3-63-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0154 v3-64-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
del user0052
put user0113 v3-66-xxxxxxxxxxxx
put user0016 v3-67-xxxxxxxxxxxx
put user0025 v3-68-xxxxx
put user0044 v3-69-
put user0008 v3-70-xxxxxxxxxxxxxxxxxxx
put user0048 v3-71-xxxxxxxxxxxxxxxxxxxxxxxx
put user0100 v3-72-xxxxxxx
put user0098 v3-73-xxxxxxxxxxxxx
put user0033 v3-74-xxxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0037 v3-75-x
put user0070 v3-76-xxxxxxxxxxxx
put user0177 v3-77-xxxxxxxxxxxxxxxxx
del user0195
put user0059 v3-79-xxxxxxxxxxxxxxxxxxxxxxxxxx
put user0168 v3-80-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0182 v3-81-xxxxxxxxxxxx
put user0051 v3-82-xxxxxxxxxxxxxxxx
put user0183 v3-83-xx
put user0049 v3-84-xxxxxxxxxx
put user0093 v3-85-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0110 v3-86-xxxxxxxxx
put user0160 v3-87-
del user0139
put user0108 v3-89-
put user0179 v3-90-xxxxxxxxxxxxxxxxxxxx
put user0185 v3-91-xxxxx
put user0124 v3-92-
put user0014 v3-93-xxxxxxxxxxxxxxxxxxxxxxx
put user0193 v3-94-xxxxxxxxxxxxxxxx
put user0146 v3-95-xxxxxxxxxxxxxxxxxxxxx
put user0155 v3-96-xxxxxxxxxxxxxxxxxxxxxxxxxx
put user0043 v3-97-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0112 v3-98-x
put user0058 v3-99-xxxxxx
del user0131
put user0137 v3-101-xxxxx
put user0170 v3-102-xxxxxxxxxxxxxxxxxxxx
del user0024
put user0083 v3-104-xxxxxxxxxxxxxxxxxxxx
put user0089 v3-105-xx
put user0079 v3-106-xxxxxxx
put user0132 v3-107-xxxxx
put user0010 v3-108-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0055 v3-109-xxxxxxxxx
put user0108 v3-110-xxxxxxxxxxxxxxxxxxxxxxxxxxxx
del user0146
put user0172 v3-112-xxxxxxxxxxxxxxxxxx
put user0023 v3-113-xxxx
put user0096 v3-114-xxxxxx
put user0040 v3-115-xxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0022 v3-116-xxxxxxxxxxxxx
put user0091 v3-117-xxxxxxxxxxxxxxxxxxxxxxxxxxxxx
del user0083
put user0127 v3-119-xxxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0179 v3-120-xxx
put user0152 v3-121-xxxxxxxxxxxxxxxxxx
put user0079 v3-122-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0134 v3-123-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0023 v3-124-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0115 v3-125-xxxxxxxxxxxx
put user0157 v3-126-xxxxxxxxxxxxxxxxxxxxxxxxxxx
del user0031
put user0112 v3-128-xx
put user0078 v3-129-xxxxxxxxxxxxxxxxxxxxxxxxxx
put user0154 v3-130-xxxxxx
del user0044
put user0036 v3-132-xx
del user0145
put user0193 v3-134-xxx
put user0017 v3-135-xxxxxxxxxxxxxxxxxx
put user0160 v3-136-xxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0168 v3-137-xxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0116 v3-138-xxxxxxxxxxxxxxxxxxxxx
put user0135 v3-139-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0144 v3-140-xxxxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0158 v3-141-xx
put user0045 v3-142-xxxxxxxxxxxxxxxxxxxx
del user0159
put user0112 v3-144-xxxxxxxxxxxxxxxxxxxxxxx
put user0087 v3-145-xxxxxxx
put user0099 v3-146-xxxxxxxxxxxxxxxxxxxxxxxxxxxx
del user0067
put user0191 v3-148-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx
put user0117 v3-149-xxxxxxxxxxx
flush
get user0044
get user0105
get user0002
get user0174
get user0102
get user0080
get user0065
get user0049
get user0158
get user0039
get user0111
get user0157
get user0132
get user0116
get user0030
get user0073
get user0096
get user0009
get user0049
get user0049
get user0168
get user0103
get user0062
get user0176
get user0127
get user0148zz
get user0170zz
get user0128zz
get user0006zz
get user0029zz
get user0199zz
get user0141zz
get user0078zz
get user0025zz
get user0086zz
get ""
compact
get user0086
get user0156
get user0088
get user0041
get user0003
get user0011
get user0050
get user0127
get user0008
get user0069
get user0121
get user0134
get user0052
get user0011
get user0057
get user0084
get user0080
get user0056
get user0094
get user0116
get user0004
get user0008
get user0178
get user0031
get user0194
get user0049
get user0027
get user0177
get user0079
get user0030
get user0063
get user0016
get user0162
get user0028
get user0197
get user0189
get user0149
get user0089
get user0086
get user0065
scan_prefix user01
seek user0150 n=5
seek_for_prev user0100 n=5
