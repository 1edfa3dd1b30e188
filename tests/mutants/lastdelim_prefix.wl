# expect: P1 P7
# check: --extractor lastsep:/
# check-expect: P1 P7
# lastdelim_prefix: bloom(bits=10,prefix=lastsep:/) with the extractor of
# lastdelim_prefix.c, which answers PREFIX queries like POINT ones.  The
# filters stored hash("a/b/"), hash("a/c/"), hash("d/e/"); scan prefixes
# that end before the last / of the keys under them probe something never
# stored:
#   right (model):  20 scan_prefix a/ -> a/b/1=1 a/b/2=2 a/c/3=3
#   wrong (mutant): 20 scan_prefix a/ ->
#   right (model):  21 scan_prefix a/b -> a/b/1=1 a/b/2=2
#   wrong (mutant): 21 scan_prefix a/b ->
# scan_prefix a/b/ (its own last /) and the gets stay right.
filterlab-workload 1
open policies="bloom(bits=10,prefix=lastsep:/)" memtable_bytes=1024 sst_bytes=1024 l0_trigger=8
put a/b/1 1
put a/c/3 3
put d/e/4 4
flush
put a/b/2 2
flush
scan_prefix a/
scan_prefix a/b
scan_prefix a/b/
get a/c/3
