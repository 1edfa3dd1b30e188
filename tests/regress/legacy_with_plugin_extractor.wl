# Checker false alarm found by `filterlab check` with the example plugins
# (seed 1, trial 8): a Legacy SST read after a reopen whose only policy is a
# built-in bloom around a PLUGIN extractor.  The engine rightly uses the
# Legacy block (a built-in bloom is configured); the checker took "built-in
# bloom" to mean "a bloom the model can parse" and reported P8.  Needs
# examples/plugins/tenant_extractor.c (tests/cli/regress_plugins.sh).
filterlab-workload 1
open legacy_filters=1
put "" v
reopen policies="bloom(bits=13.7,prefix=tenant:2)"
get ""
