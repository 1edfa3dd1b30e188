#!/bin/sh
# install.sh -- `make install` (into a DESTDIR): the binary, filter.h,
# libfilterlab.a, filterlab.pc and the bundled report workload (which the
# installed `filterlab report` runs without arguments), and a plugin built the way docs/plugins.md
# says, with `pkg-config --cflags filterlab` alone, loads into the installed
# binary.  Once, with the plain build (the ASan run has nothing to add).
. "${FL_SRCDIR:-.}/tests/cli/common.inc"

case $FILTERLAB in */asan/*) exit 0 ;; esac
command -v pkg-config > /dev/null || { echo "skipped: no pkg-config"; exit 0; }
make -s -C "$FL_SRCDIR" install DESTDIR="$T/root" PREFIX=/opt/fl > "$T/make.out" 2>&1 ||
    { cat "$T/make.out" >&2; fail "make install"; }
for f in bin/filterlab include/filterlab/filter.h lib/libfilterlab.a lib/pkgconfig/filterlab.pc \
         share/filterlab/group_suffix.wl; do
    [ -f "$T/root/opt/fl/$f" ] || fail "make install did not install $f"
done
# the installed binary's `report` without a workload finds the installed one
"$T/root/opt/fl/bin/filterlab" report -o "$T/rep" --bits 10 --modes none > /dev/null 2> "$T/rep.err" ||
    { cat "$T/rep.err" >&2; fail "the installed filterlab report without a workload"; }
grep -q "bundled report workload $T/root/opt/fl/bin/../share/filterlab/group_suffix.wl" "$T/rep.err" ||
    fail "the installed binary ran another workload: $(cat "$T/rep.err")"
export PKG_CONFIG_PATH="$T/root/opt/fl/lib/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$T/root"
[ "$(pkg-config --modversion filterlab)" = "$("$T/root/opt/fl/bin/filterlab" --version | sed 's/^filterlab \([^ ]*\) .*/\1/')" ] ||
    fail "filterlab.pc's version is not the binary's"
cflags=$(pkg-config --cflags filterlab) || fail "pkg-config --cflags filterlab"
# the example plugin, built outside the source tree with the installed header
cp "$FL_SRCDIR/examples/plugins/tenant_extractor.c" "$T/my.c"
${CC:-cc} -std=c11 -Wall -Wextra -Werror -shared -fPIC $cflags "$T/my.c" -o "$T/my.so" ||
    fail "a plugin does not build with \$(pkg-config --cflags filterlab): $cflags"
printf 'filterlab-workload 1\nopen policies="bloom(bits=10,prefix=tenant:2)"\nput acme:u:1 a\nflush\nget acme:u:1\nscan_prefix acme:\n' > "$T/t.wl"
"$T/root/opt/fl/bin/filterlab" replay "$T/t.wl" --plugin "$T/my.so" > /dev/null 2> "$T/err" ||
    { cat "$T/err" >&2; fail "the installed filterlab does not run the installed-header plugin"; }
exit 0
