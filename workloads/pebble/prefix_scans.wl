# pebble/prefix_scans.wl -- prefix_scans.wl with Pebble's one filter: a
# bloom over key[:Split(key)], Split = capped:4 (bloom(bits=10,
# prefix=capped:4,whole_key=0)), the group id of every key here; a get
# probes its key's group.  Keys are a 4-byte group id (g000..g239) then
# ":item-NN".  Each flush writes one key (item-NN, NN = the flush number)
# in every third group, offset by one per flush: one SST per flush (under
# memtable_bytes), all spanning the whole range and overlapping (Pebble
# compacts only when asked).  A scan_prefix of a group must consider each
# of them, and the prefix filter lets it skip those without the group.
# Groups g015, g035, g055, ... (odd tens, units 5) are never written:
# absent prefixes inside every range; g240 and above lie outside them all.
# Reads: scan_prefix of present and absent groups, of prefixes shorter than
# 4 bytes (no prefix of theirs is every extension's: a total-order read, no
# filter) and longer (probed by their first 4 bytes), and gets.  Then a
# reopen with 7 bits per key (older tables keep their 10-bit filters: one
# name, rocksdb.BuiltinBloomFilter, for both), and one with no policy (no
# filter is read), and a full compaction.
filterlab-workload 1
open policies="bloom(bits=10,prefix=capped:4,whole_key=0)" memtable_bytes=4096 sst_bytes=8192 l0_trigger=4
# -- flush 1: every third group starting at g000
put g000:item-00 f0
put g003:item-00 f0
put g006:item-00 f0
put g009:item-00 f0
put g012:item-00 f0
put g018:item-00 f0
put g021:item-00 f0
put g024:item-00 f0
put g027:item-00 f0
put g030:item-00 f0
put g033:item-00 f0
put g036:item-00 f0
put g039:item-00 f0
put g042:item-00 f0
put g045:item-00 f0
put g048:item-00 f0
put g051:item-00 f0
put g054:item-00 f0
put g057:item-00 f0
put g060:item-00 f0
put g063:item-00 f0
put g066:item-00 f0
put g069:item-00 f0
put g072:item-00 f0
put g078:item-00 f0
put g081:item-00 f0
put g084:item-00 f0
put g087:item-00 f0
put g090:item-00 f0
put g093:item-00 f0
put g096:item-00 f0
put g099:item-00 f0
put g102:item-00 f0
put g105:item-00 f0
put g108:item-00 f0
put g111:item-00 f0
put g114:item-00 f0
put g117:item-00 f0
put g120:item-00 f0
put g123:item-00 f0
put g126:item-00 f0
put g129:item-00 f0
put g132:item-00 f0
put g138:item-00 f0
put g141:item-00 f0
put g144:item-00 f0
put g147:item-00 f0
put g150:item-00 f0
put g153:item-00 f0
put g156:item-00 f0
put g159:item-00 f0
put g162:item-00 f0
put g165:item-00 f0
put g168:item-00 f0
put g171:item-00 f0
put g174:item-00 f0
put g177:item-00 f0
put g180:item-00 f0
put g183:item-00 f0
put g186:item-00 f0
put g189:item-00 f0
put g192:item-00 f0
put g198:item-00 f0
put g201:item-00 f0
put g204:item-00 f0
put g207:item-00 f0
put g210:item-00 f0
put g213:item-00 f0
put g216:item-00 f0
put g219:item-00 f0
put g222:item-00 f0
put g225:item-00 f0
put g228:item-00 f0
put g231:item-00 f0
put g234:item-00 f0
put g237:item-00 f0
flush
# -- flush 2: every third group starting at g001
put g001:item-01 f1
put g004:item-01 f1
put g007:item-01 f1
put g010:item-01 f1
put g013:item-01 f1
put g016:item-01 f1
put g019:item-01 f1
put g022:item-01 f1
put g025:item-01 f1
put g028:item-01 f1
put g031:item-01 f1
put g034:item-01 f1
put g037:item-01 f1
put g040:item-01 f1
put g043:item-01 f1
put g046:item-01 f1
put g049:item-01 f1
put g052:item-01 f1
put g058:item-01 f1
put g061:item-01 f1
put g064:item-01 f1
put g067:item-01 f1
put g070:item-01 f1
put g073:item-01 f1
put g076:item-01 f1
put g079:item-01 f1
put g082:item-01 f1
put g085:item-01 f1
put g088:item-01 f1
put g091:item-01 f1
put g094:item-01 f1
put g097:item-01 f1
put g100:item-01 f1
put g103:item-01 f1
put g106:item-01 f1
put g109:item-01 f1
put g112:item-01 f1
put g118:item-01 f1
put g121:item-01 f1
put g124:item-01 f1
put g127:item-01 f1
put g130:item-01 f1
put g133:item-01 f1
put g136:item-01 f1
put g139:item-01 f1
put g142:item-01 f1
put g145:item-01 f1
put g148:item-01 f1
put g151:item-01 f1
put g154:item-01 f1
put g157:item-01 f1
put g160:item-01 f1
put g163:item-01 f1
put g166:item-01 f1
put g169:item-01 f1
put g172:item-01 f1
put g178:item-01 f1
put g181:item-01 f1
put g184:item-01 f1
put g187:item-01 f1
put g190:item-01 f1
put g193:item-01 f1
put g196:item-01 f1
put g199:item-01 f1
put g202:item-01 f1
put g205:item-01 f1
put g208:item-01 f1
put g211:item-01 f1
put g214:item-01 f1
put g217:item-01 f1
put g220:item-01 f1
put g223:item-01 f1
put g226:item-01 f1
put g229:item-01 f1
put g232:item-01 f1
put g238:item-01 f1
flush
# -- flush 3: every third group starting at g002
put g002:item-02 f2
put g005:item-02 f2
put g008:item-02 f2
put g011:item-02 f2
put g014:item-02 f2
put g017:item-02 f2
put g020:item-02 f2
put g023:item-02 f2
put g026:item-02 f2
put g029:item-02 f2
put g032:item-02 f2
put g038:item-02 f2
put g041:item-02 f2
put g044:item-02 f2
put g047:item-02 f2
put g050:item-02 f2
put g053:item-02 f2
put g056:item-02 f2
put g059:item-02 f2
put g062:item-02 f2
put g065:item-02 f2
put g068:item-02 f2
put g071:item-02 f2
put g074:item-02 f2
put g077:item-02 f2
put g080:item-02 f2
put g083:item-02 f2
put g086:item-02 f2
put g089:item-02 f2
put g092:item-02 f2
put g098:item-02 f2
put g101:item-02 f2
put g104:item-02 f2
put g107:item-02 f2
put g110:item-02 f2
put g113:item-02 f2
put g116:item-02 f2
put g119:item-02 f2
put g122:item-02 f2
put g125:item-02 f2
put g128:item-02 f2
put g131:item-02 f2
put g134:item-02 f2
put g137:item-02 f2
put g140:item-02 f2
put g143:item-02 f2
put g146:item-02 f2
put g149:item-02 f2
put g152:item-02 f2
put g158:item-02 f2
put g161:item-02 f2
put g164:item-02 f2
put g167:item-02 f2
put g170:item-02 f2
put g173:item-02 f2
put g176:item-02 f2
put g179:item-02 f2
put g182:item-02 f2
put g185:item-02 f2
put g188:item-02 f2
put g191:item-02 f2
put g194:item-02 f2
put g197:item-02 f2
put g200:item-02 f2
put g203:item-02 f2
put g206:item-02 f2
put g209:item-02 f2
put g212:item-02 f2
put g218:item-02 f2
put g221:item-02 f2
put g224:item-02 f2
put g227:item-02 f2
put g230:item-02 f2
put g233:item-02 f2
put g236:item-02 f2
put g239:item-02 f2
flush
# -- reads (three overlapping L0 SSTs)
scan_prefix g000
scan_prefix g001
scan_prefix g002
scan_prefix g003
scan_prefix g100
scan_prefix g101
scan_prefix g239
scan_prefix g015
scan_prefix g035
scan_prefix g055
scan_prefix g075
scan_prefix g250
scan_prefix g299
scan_prefix zzzz
scan_prefix g01
scan_prefix g
scan_prefix ""
scan_prefix g100:item-0
scan_prefix g100:item-01
scan_prefix g015:item
get g100:item-00
get g100:item-01
get g101:item-02
get g100:item-99
get g015:item-00
get g250:item-00
get g10
scan g100 g101
scan_prefix g100
# -- a fourth flush triggers the compaction into a sorted run
put g000:item-03 f3
put g003:item-03 f3
put g006:item-03 f3
put g009:item-03 f3
put g012:item-03 f3
put g018:item-03 f3
put g021:item-03 f3
put g024:item-03 f3
put g027:item-03 f3
put g030:item-03 f3
put g033:item-03 f3
put g036:item-03 f3
put g039:item-03 f3
put g042:item-03 f3
put g045:item-03 f3
put g048:item-03 f3
put g051:item-03 f3
put g054:item-03 f3
put g057:item-03 f3
put g060:item-03 f3
put g063:item-03 f3
put g066:item-03 f3
put g069:item-03 f3
put g072:item-03 f3
put g078:item-03 f3
put g081:item-03 f3
put g084:item-03 f3
put g087:item-03 f3
put g090:item-03 f3
put g093:item-03 f3
put g096:item-03 f3
put g099:item-03 f3
put g102:item-03 f3
put g105:item-03 f3
put g108:item-03 f3
put g111:item-03 f3
put g114:item-03 f3
put g117:item-03 f3
put g120:item-03 f3
put g123:item-03 f3
put g126:item-03 f3
put g129:item-03 f3
put g132:item-03 f3
put g138:item-03 f3
put g141:item-03 f3
put g144:item-03 f3
put g147:item-03 f3
put g150:item-03 f3
put g153:item-03 f3
put g156:item-03 f3
put g159:item-03 f3
put g162:item-03 f3
put g165:item-03 f3
put g168:item-03 f3
put g171:item-03 f3
put g174:item-03 f3
put g177:item-03 f3
put g180:item-03 f3
put g183:item-03 f3
put g186:item-03 f3
put g189:item-03 f3
put g192:item-03 f3
put g198:item-03 f3
put g201:item-03 f3
put g204:item-03 f3
put g207:item-03 f3
put g210:item-03 f3
put g213:item-03 f3
put g216:item-03 f3
put g219:item-03 f3
put g222:item-03 f3
put g225:item-03 f3
put g228:item-03 f3
put g231:item-03 f3
put g234:item-03 f3
put g237:item-03 f3
flush
# -- reads (one sorted run)
scan_prefix g000
scan_prefix g001
scan_prefix g002
scan_prefix g003
scan_prefix g100
scan_prefix g101
scan_prefix g239
scan_prefix g015
scan_prefix g035
scan_prefix g055
scan_prefix g075
scan_prefix g250
scan_prefix g299
scan_prefix zzzz
scan_prefix g01
scan_prefix g
scan_prefix ""
scan_prefix g100:item-0
scan_prefix g100:item-01
scan_prefix g015:item
get g100:item-00
get g100:item-01
get g101:item-02
get g100:item-99
get g015:item-00
get g250:item-00
get g10
scan g100 g101
scan_prefix g100
# -- flush 5: L0 again, over the run
put g001:item-04 f4
put g004:item-04 f4
put g007:item-04 f4
put g010:item-04 f4
put g013:item-04 f4
put g016:item-04 f4
put g019:item-04 f4
put g022:item-04 f4
put g025:item-04 f4
put g028:item-04 f4
put g031:item-04 f4
put g034:item-04 f4
put g037:item-04 f4
put g040:item-04 f4
put g043:item-04 f4
put g046:item-04 f4
put g049:item-04 f4
put g052:item-04 f4
put g058:item-04 f4
put g061:item-04 f4
put g064:item-04 f4
put g067:item-04 f4
put g070:item-04 f4
put g073:item-04 f4
put g076:item-04 f4
put g079:item-04 f4
put g082:item-04 f4
put g085:item-04 f4
put g088:item-04 f4
put g091:item-04 f4
put g094:item-04 f4
put g097:item-04 f4
put g100:item-04 f4
put g103:item-04 f4
put g106:item-04 f4
put g109:item-04 f4
put g112:item-04 f4
put g118:item-04 f4
put g121:item-04 f4
put g124:item-04 f4
put g127:item-04 f4
put g130:item-04 f4
put g133:item-04 f4
put g136:item-04 f4
put g139:item-04 f4
put g142:item-04 f4
put g145:item-04 f4
put g148:item-04 f4
put g151:item-04 f4
put g154:item-04 f4
put g157:item-04 f4
put g160:item-04 f4
put g163:item-04 f4
put g166:item-04 f4
put g169:item-04 f4
put g172:item-04 f4
put g178:item-04 f4
put g181:item-04 f4
put g184:item-04 f4
put g187:item-04 f4
put g190:item-04 f4
put g193:item-04 f4
put g196:item-04 f4
put g199:item-04 f4
put g202:item-04 f4
put g205:item-04 f4
put g208:item-04 f4
put g211:item-04 f4
put g214:item-04 f4
put g217:item-04 f4
put g220:item-04 f4
put g223:item-04 f4
put g226:item-04 f4
put g229:item-04 f4
put g232:item-04 f4
put g238:item-04 f4
flush
# -- flush 6: L0 again, over the run
put g002:item-05 f5
put g005:item-05 f5
put g008:item-05 f5
put g011:item-05 f5
put g014:item-05 f5
put g017:item-05 f5
put g020:item-05 f5
put g023:item-05 f5
put g026:item-05 f5
put g029:item-05 f5
put g032:item-05 f5
put g038:item-05 f5
put g041:item-05 f5
put g044:item-05 f5
put g047:item-05 f5
put g050:item-05 f5
put g053:item-05 f5
put g056:item-05 f5
put g059:item-05 f5
put g062:item-05 f5
put g065:item-05 f5
put g068:item-05 f5
put g071:item-05 f5
put g074:item-05 f5
put g077:item-05 f5
put g080:item-05 f5
put g083:item-05 f5
put g086:item-05 f5
put g089:item-05 f5
put g092:item-05 f5
put g098:item-05 f5
put g101:item-05 f5
put g104:item-05 f5
put g107:item-05 f5
put g110:item-05 f5
put g113:item-05 f5
put g116:item-05 f5
put g119:item-05 f5
put g122:item-05 f5
put g125:item-05 f5
put g128:item-05 f5
put g131:item-05 f5
put g134:item-05 f5
put g137:item-05 f5
put g140:item-05 f5
put g143:item-05 f5
put g146:item-05 f5
put g149:item-05 f5
put g152:item-05 f5
put g158:item-05 f5
put g161:item-05 f5
put g164:item-05 f5
put g167:item-05 f5
put g170:item-05 f5
put g173:item-05 f5
put g176:item-05 f5
put g179:item-05 f5
put g182:item-05 f5
put g185:item-05 f5
put g188:item-05 f5
put g191:item-05 f5
put g194:item-05 f5
put g197:item-05 f5
put g200:item-05 f5
put g203:item-05 f5
put g206:item-05 f5
put g209:item-05 f5
put g212:item-05 f5
put g218:item-05 f5
put g221:item-05 f5
put g224:item-05 f5
put g227:item-05 f5
put g230:item-05 f5
put g233:item-05 f5
put g236:item-05 f5
put g239:item-05 f5
flush
# -- reads (two L0 SSTs over the run)
scan_prefix g000
scan_prefix g001
scan_prefix g002
scan_prefix g003
scan_prefix g100
scan_prefix g101
scan_prefix g239
scan_prefix g015
scan_prefix g035
scan_prefix g055
scan_prefix g075
scan_prefix g250
scan_prefix g299
scan_prefix zzzz
scan_prefix g01
scan_prefix g
scan_prefix ""
scan_prefix g100:item-0
scan_prefix g100:item-01
scan_prefix g015:item
get g100:item-00
get g100:item-01
get g101:item-02
get g100:item-99
get g015:item-00
get g250:item-00
get g10
scan g100 g101
scan_prefix g100
# -- migrate to the prefix-only policy: old SSTs become unfiltered
reopen policies="bloom(bits=7,prefix=capped:4,whole_key=0)"
# -- reads (old SSTs unfiltered)
scan_prefix g000
scan_prefix g001
scan_prefix g002
scan_prefix g003
scan_prefix g100
scan_prefix g101
scan_prefix g239
scan_prefix g015
scan_prefix g035
scan_prefix g055
scan_prefix g075
scan_prefix g250
scan_prefix g299
scan_prefix zzzz
scan_prefix g01
scan_prefix g
scan_prefix ""
scan_prefix g100:item-0
scan_prefix g100:item-01
scan_prefix g015:item
get g100:item-00
get g100:item-01
get g101:item-02
get g100:item-99
get g015:item-00
get g250:item-00
get g10
scan g100 g101
scan_prefix g100
# -- flush 7 with the prefix-only policy
put g000:item-06 f6
put g003:item-06 f6
put g006:item-06 f6
put g009:item-06 f6
put g012:item-06 f6
put g018:item-06 f6
put g021:item-06 f6
put g024:item-06 f6
put g027:item-06 f6
put g030:item-06 f6
put g033:item-06 f6
put g036:item-06 f6
put g039:item-06 f6
put g042:item-06 f6
put g045:item-06 f6
put g048:item-06 f6
put g051:item-06 f6
put g054:item-06 f6
put g057:item-06 f6
put g060:item-06 f6
put g063:item-06 f6
put g066:item-06 f6
put g069:item-06 f6
put g072:item-06 f6
put g078:item-06 f6
put g081:item-06 f6
put g084:item-06 f6
put g087:item-06 f6
put g090:item-06 f6
put g093:item-06 f6
put g096:item-06 f6
put g099:item-06 f6
put g102:item-06 f6
put g105:item-06 f6
put g108:item-06 f6
put g111:item-06 f6
put g114:item-06 f6
put g117:item-06 f6
put g120:item-06 f6
put g123:item-06 f6
put g126:item-06 f6
put g129:item-06 f6
put g132:item-06 f6
put g138:item-06 f6
put g141:item-06 f6
put g144:item-06 f6
put g147:item-06 f6
put g150:item-06 f6
put g153:item-06 f6
put g156:item-06 f6
put g159:item-06 f6
put g162:item-06 f6
put g165:item-06 f6
put g168:item-06 f6
put g171:item-06 f6
put g174:item-06 f6
put g177:item-06 f6
put g180:item-06 f6
put g183:item-06 f6
put g186:item-06 f6
put g189:item-06 f6
put g192:item-06 f6
put g198:item-06 f6
put g201:item-06 f6
put g204:item-06 f6
put g207:item-06 f6
put g210:item-06 f6
put g213:item-06 f6
put g216:item-06 f6
put g219:item-06 f6
put g222:item-06 f6
put g225:item-06 f6
put g228:item-06 f6
put g231:item-06 f6
put g234:item-06 f6
put g237:item-06 f6
flush
# -- flush 8 with the prefix-only policy
put g001:item-07 f7
put g004:item-07 f7
put g007:item-07 f7
put g010:item-07 f7
put g013:item-07 f7
put g016:item-07 f7
put g019:item-07 f7
put g022:item-07 f7
put g025:item-07 f7
put g028:item-07 f7
put g031:item-07 f7
put g034:item-07 f7
put g037:item-07 f7
put g040:item-07 f7
put g043:item-07 f7
put g046:item-07 f7
put g049:item-07 f7
put g052:item-07 f7
put g058:item-07 f7
put g061:item-07 f7
put g064:item-07 f7
put g067:item-07 f7
put g070:item-07 f7
put g073:item-07 f7
put g076:item-07 f7
put g079:item-07 f7
put g082:item-07 f7
put g085:item-07 f7
put g088:item-07 f7
put g091:item-07 f7
put g094:item-07 f7
put g097:item-07 f7
put g100:item-07 f7
put g103:item-07 f7
put g106:item-07 f7
put g109:item-07 f7
put g112:item-07 f7
put g118:item-07 f7
put g121:item-07 f7
put g124:item-07 f7
put g127:item-07 f7
put g130:item-07 f7
put g133:item-07 f7
put g136:item-07 f7
put g139:item-07 f7
put g142:item-07 f7
put g145:item-07 f7
put g148:item-07 f7
put g151:item-07 f7
put g154:item-07 f7
put g157:item-07 f7
put g160:item-07 f7
put g163:item-07 f7
put g166:item-07 f7
put g169:item-07 f7
put g172:item-07 f7
put g178:item-07 f7
put g181:item-07 f7
put g184:item-07 f7
put g187:item-07 f7
put g190:item-07 f7
put g193:item-07 f7
put g196:item-07 f7
put g199:item-07 f7
put g202:item-07 f7
put g205:item-07 f7
put g208:item-07 f7
put g211:item-07 f7
put g214:item-07 f7
put g217:item-07 f7
put g220:item-07 f7
put g223:item-07 f7
put g226:item-07 f7
put g229:item-07 f7
put g232:item-07 f7
put g238:item-07 f7
flush
# -- reads (prefix-only SSTs and older ones)
scan_prefix g000
scan_prefix g001
scan_prefix g002
scan_prefix g003
scan_prefix g100
scan_prefix g101
scan_prefix g239
scan_prefix g015
scan_prefix g035
scan_prefix g055
scan_prefix g075
scan_prefix g250
scan_prefix g299
scan_prefix zzzz
scan_prefix g01
scan_prefix g
scan_prefix ""
scan_prefix g100:item-0
scan_prefix g100:item-01
scan_prefix g015:item
get g100:item-00
get g100:item-01
get g101:item-02
get g100:item-99
get g015:item-00
get g250:item-00
get g10
scan g100 g101
scan_prefix g100
# -- both policies: every SST has one usable sub-filter or two
reopen policies=none
put g002:item-08 f8
put g005:item-08 f8
put g008:item-08 f8
put g011:item-08 f8
put g014:item-08 f8
put g017:item-08 f8
put g020:item-08 f8
put g023:item-08 f8
put g026:item-08 f8
put g029:item-08 f8
put g032:item-08 f8
put g038:item-08 f8
put g041:item-08 f8
put g044:item-08 f8
put g047:item-08 f8
put g050:item-08 f8
put g053:item-08 f8
put g056:item-08 f8
put g059:item-08 f8
put g062:item-08 f8
put g065:item-08 f8
put g068:item-08 f8
put g071:item-08 f8
put g074:item-08 f8
put g077:item-08 f8
put g080:item-08 f8
put g083:item-08 f8
put g086:item-08 f8
put g089:item-08 f8
put g092:item-08 f8
put g098:item-08 f8
put g101:item-08 f8
put g104:item-08 f8
put g107:item-08 f8
put g110:item-08 f8
put g113:item-08 f8
put g116:item-08 f8
put g119:item-08 f8
put g122:item-08 f8
put g125:item-08 f8
put g128:item-08 f8
put g131:item-08 f8
put g134:item-08 f8
put g137:item-08 f8
put g140:item-08 f8
put g143:item-08 f8
put g146:item-08 f8
put g149:item-08 f8
put g152:item-08 f8
put g158:item-08 f8
put g161:item-08 f8
put g164:item-08 f8
put g167:item-08 f8
put g170:item-08 f8
put g173:item-08 f8
put g176:item-08 f8
put g179:item-08 f8
put g182:item-08 f8
put g185:item-08 f8
put g188:item-08 f8
put g191:item-08 f8
put g194:item-08 f8
put g197:item-08 f8
put g200:item-08 f8
put g203:item-08 f8
put g206:item-08 f8
put g209:item-08 f8
put g212:item-08 f8
put g218:item-08 f8
put g221:item-08 f8
put g224:item-08 f8
put g227:item-08 f8
put g230:item-08 f8
put g233:item-08 f8
put g236:item-08 f8
put g239:item-08 f8
flush
# -- reads (both policies)
scan_prefix g000
scan_prefix g001
scan_prefix g002
scan_prefix g003
scan_prefix g100
scan_prefix g101
scan_prefix g239
scan_prefix g015
scan_prefix g035
scan_prefix g055
scan_prefix g075
scan_prefix g250
scan_prefix g299
scan_prefix zzzz
scan_prefix g01
scan_prefix g
scan_prefix ""
scan_prefix g100:item-0
scan_prefix g100:item-01
scan_prefix g015:item
get g100:item-00
get g100:item-01
get g101:item-02
get g100:item-99
get g015:item-00
get g250:item-00
get g10
scan g100 g101
scan_prefix g100
compact full
# -- reads (after compact full)
scan_prefix g000
scan_prefix g001
scan_prefix g002
scan_prefix g003
scan_prefix g100
scan_prefix g101
scan_prefix g239
scan_prefix g015
scan_prefix g035
scan_prefix g055
scan_prefix g075
scan_prefix g250
scan_prefix g299
scan_prefix zzzz
scan_prefix g01
scan_prefix g
scan_prefix ""
scan_prefix g100:item-0
scan_prefix g100:item-01
scan_prefix g015:item
get g100:item-00
get g100:item-01
get g101:item-02
get g100:item-99
get g015:item-00
get g250:item-00
get g10
scan g100 g101
scan_prefix g100
