#!/bin/sh
# symbols.sh -- the binary exports what plugins resolve against (it is
# linked with -rdynamic: fl_buf_append, fl_registry_*, ...), and none of the
# checker's internal ck_* names: each *_internal.h of properties/ hides its
# declarations, and a new one that forgets shows up here.
. "${FL_SRCDIR:-.}/tests/cli/common.inc"

command -v nm > /dev/null || fail "nm (binutils) is needed"
nm -D --defined-only "$FILTERLAB" > "$T/syms" || fail "nm $FILTERLAB"
grep -q ' fl_registry_add_policy$' "$T/syms" || fail "fl_registry_add_policy is not exported: plugins cannot load"
if grep ' ck_' "$T/syms" > "$T/ck"; then
    fail "internal names exported: $(awk '{print $3}' "$T/ck" | tr '\n' ' ')"
fi
exit 0
