#!/bin/sh
# report.sh -- `filterlab report` (SPEC 12) end to end on a tiny workload
# and a reduced sweep: exit 0; results.csv has the header, one row per
# (mode, bits, kind) with every column; every plot exists as a valid PNG
# (magic bytes) and SVG; index.html links only files that exist and fetches
# nothing from elsewhere.  Then: bad usage is exit 2, prefix modes are
# skipped (with a note) for a workload without an extractor, a violation
# (a mutant extractor plugin, --plugin) is exit 1 with the violation at the
# top of the page and a replayable workload.  Also checks that the shipped
# report workload is still what its generator writes.
. "${FL_SRCDIR:-.}/tests/cli/common.inc"

gen="$FL_SRCDIR/workloads/gen/group_suffix.sh"

# ---- the shipped workload is its generator's default output ----------------
sh "$gen" | cmp -s - "$FL_SRCDIR/reports/workloads/group_suffix.wl" ||
    fail "reports/workloads/group_suffix.wl differs from 'sh workloads/gen/group_suffix.sh'"

# ---- a tiny report ------------------------------------------------------------
sh "$gen" 24 7 > "$T/tiny.wl" || fail "the generator failed"
"$FILTERLAB" report "$T/tiny.wl" --bits 10,4 --modes none,whole,prefix-only -o "$T/out" --jobs 2 \
    > "$T/stdout" 2> "$T/stderr"
rc=$?
[ $rc -eq 0 ] || { cat "$T/stderr"; fail "report exited $rc, expected 0"; }
grep -q "^report: $T/out/index.html\$" "$T/stdout" || { cat "$T/stdout"; fail "no 'report: DIR/index.html' line"; }

cat > "$T/check.py" <<'PY'
import csv, os, re, sys
out = sys.argv[1]
def fail(msg):
    sys.exit("FAIL: " + msg)

header = ("workload,mode,bits_per_key,kind,ops,considered,unfiltered,positive,negative,"
          "false_positive,eligible,fp_rate,fp_rate_lo95,fp_rate_hi95,expected_fp_rate,"
          "expected_probes,p9_sigmas,standard_fp_rate,bound_fp_rate,ssts_read,ssts_read_per_op,"
          "ssts_considered_per_op,filter_bytes,keys,filter_bytes_per_key,live_ssts,"
          "violations,theory_fp_rate,engine,policies")
lines = open(os.path.join(out, "results.csv")).read().splitlines()
if lines[0] != header:
    fail("results.csv header:\n  got  %s\n  want %s" % (lines[0], header))
rows = list(csv.DictReader(lines))
ncol = len(header.split(","))
for raw in csv.reader(lines):
    if len(raw) != ncol:
        fail("a row with %d fields, not %d: %s" % (len(raw), ncol, raw))
got = sorted((r["mode"], float(r["bits_per_key"]), r["kind"]) for r in rows)
want = sorted((m, b, k) for m in ("whole", "prefix-only", "none") for b in (4.0, 10.0)
              for k in ("point", "prefix"))
if got != want:
    fail("rows (mode, bits, kind):\n  got  %s\n  want %s" % (got, want))
for r in rows:
    if r["workload"] != "tiny":
        fail("workload column %r, expected 'tiny'" % r["workload"])
    n = lambda c: int(r[c])
    if n("considered") != n("unfiltered") + n("positive") + n("negative"):
        fail("considered != unfiltered + positive + negative in %s" % r)
    if n("eligible") != n("negative") + n("false_positive"):
        fail("eligible != negative + false_positive in %s" % r)
    if n("ssts_read") != n("considered") - n("negative"):
        fail("ssts_read != considered - negative in %s" % r)
    if n("violations") != 0:
        fail("violations in %s" % r)
    if r["mode"] == "none":
        if r["policies"] != "none" or n("filter_bytes") != 0 or n("unfiltered") != n("considered"):
            fail("mode none row: %s" % r)
        if r["fp_rate"] != "" or r["expected_fp_rate"] != "" or r["theory_fp_rate"] != "":
            fail("mode none has no FP rate, got %s" % r)
    else:
        if n("filter_bytes") <= 0:
            fail("no filter bytes: %s" % r)
        if n("eligible") > 0:
            lo, rate, hi = float(r["fp_rate_lo95"]), float(r["fp_rate"]), float(r["fp_rate_hi95"])
            if not (0 <= lo <= rate <= hi <= 1):
                fail("interval does not hold the rate: %s" % r)
    if n("ops") <= 0:
        fail("no ops of the kind: %s" % r)
# the theory curve: the SPEC 5 formula, a little under 1% at 10 bits/key
theory = {float(r["bits_per_key"]): float(r["theory_fp_rate"]) for r in rows if r["mode"] == "whole"}
if not (0.009 < theory[10.0] < 0.0097 and theory[4.0] > theory[10.0]):
    fail("theory_fp_rate %s" % theory)
# a prefix filter reads fewer SSTs per prefix scan than none
reads = {(r["mode"], float(r["bits_per_key"])): float(r["ssts_read_per_op"])
         for r in rows if r["kind"] == "prefix"}
if not reads[("prefix-only", 10.0)] < reads[("none", 10.0)]:
    fail("prefix-only reads %s per scan, none %s" % (reads[("prefix-only", 10.0)], reads[("none", 10.0)]))

# plots
for plot in ("point-fp", "prefix-fp", "prefix-reads", "filter-bytes"):
    base = os.path.join(out, "tiny-" + plot)
    png = open(base + ".png", "rb").read(8)
    if png != b"\x89PNG\r\n\x1a\n":
        fail("%s.png is not a PNG (starts %r)" % (base, png))
    svg = open(base + ".svg", "rb").read(200).lstrip()
    if not (svg.startswith(b"<?xml") or svg.startswith(b"<svg")):
        fail("%s.svg is not an SVG (starts %r)" % (base, svg[:20]))
    if not os.path.getsize(base + ".gp"):
        fail("%s.gp is empty" % base)

# the page
html = open(os.path.join(out, "index.html")).read()
refs = re.findall(r'(?:src|href)="([^"]*)"', html)
if not refs:
    fail("index.html references nothing")
for ref in refs:
    if ref.startswith("#"):
        continue
    if re.match(r"[a-z]+:", ref) or ref.startswith("//"):
        fail("index.html fetches %s from elsewhere" % ref)
    if not os.path.isfile(os.path.join(out, ref)):
        fail("index.html references %s, which does not exist" % ref)
for plot in ("point-fp", "prefix-fp", "prefix-reads", "filter-bytes"):
    if 'src="tiny-%s.png"' % plot not in html:
        fail("index.html does not show tiny-%s.png" % plot)
if "violation found" in html or "violations found" in html:
    fail("index.html shows a violation")
if "group_suffix: GroupId||Suffix keys" not in html:
    fail("index.html lacks the workload's description")
if html.count("<table>") != 2:
    fail("index.html should have 2 tables, has %d" % html.count("<table>"))
PY
python3 "$T/check.py" "$T/out" || fail "the report's outputs are wrong (above)"

# ---- bad usage: exit 2, nothing run -------------------------------------------
expect2() {
    what=$1
    shift
    "$FILTERLAB" report "$@" > "$T/u.out" 2> "$T/u.err"
    rc=$?
    [ $rc -eq 2 ] || { cat "$T/u.err"; fail "$what: exit $rc, expected 2"; }
    [ -s "$T/u.err" ] || fail "$what: no message on stderr"
}
# (no workload at all runs the bundled one: tests/cli/report_engines.sh)
expect2 "unknown mode" "$T/tiny.wl" --modes whole,bogus
grep -q "unknown mode 'bogus'" "$T/u.err" || fail "unknown mode: message does not name it"
expect2 "bad bits" "$T/tiny.wl" --bits 4,x
expect2 "bad jobs" "$T/tiny.wl" --jobs 0
expect2 "missing file" "$T/nonexistent.wl"
expect2 "unknown extractor" "$T/tiny.wl" --extractor nope:3 --modes prefix-only -o "$T/x"
grep -q "nope" "$T/u.err" || fail "unknown extractor: message does not name it"
expect2 "stdin" - --bits 4

# ---- no extractor: the prefix modes are skipped, with a note -------------------
printf 'filterlab-workload 1\nopen policies="bloom(bits=10)"\nput a 1\nput c 1\nflush\nget b\n' > "$T/plain.wl"
"$FILTERLAB" report "$T/plain.wl" --bits 10 --modes whole,prefix-only -o "$T/plain" > "$T/p.out" 2> "$T/p.err" ||
    { cat "$T/p.err"; fail "report of a workload without an extractor failed"; }
grep -q "prefix-only skipped" "$T/p.err" || fail "no note that the prefix modes were skipped"
grep -q "prefix-only skipped" "$T/plain/index.html" || fail "the page has no note of the skipped modes"
grep -c ',prefix-only,' "$T/plain/results.csv" | grep -qx 0 || fail "prefix-only rows without an extractor"

# ---- a violation: exit 1, at the top of the page, replayable ------------------
build_plugin "$FL_SRCDIR/tests/mutants/prefix_truncates.c" "$T/trunc.so"
"$FILTERLAB" report "$FL_SRCDIR/tests/mutants/prefix_truncates.wl" --plugin "$T/trunc.so" \
    --bits 10 --modes whole+prefix -o "$T/viol" > "$T/v.out" 2> "$T/v.err"
rc=$?
[ $rc -eq 1 ] || { cat "$T/v.err"; fail "a report with a violation exited $rc, expected 1"; }
grep -q '^P[17] ' "$T/v.err" || { cat "$T/v.err"; fail "the violation is not on stderr"; }
first_div=$(grep -o '<div class="[a-z]*">' "$T/viol/index.html" | head -n 1)
[ "$first_div" = '<div class="violations">' ] || fail "the violation is not at the top of the page"
wl=$(ls "$T"/viol/violations/*.wl 2> /dev/null | head -n 1)
[ -n "$wl" ] || fail "no replayable workload under violations/"
"$FILTERLAB" replay "$wl" --plugin "$T/trunc.so" > /dev/null 2>&1
[ $? -eq 1 ] || fail "replaying $wl does not show the violation"
# the printed and the listed replay commands carry the plugin
grep -q "; replay: filterlab replay $wl --plugin $T/trunc.so\$" "$T/v.err" ||
    fail "the replay command on stderr lacks --plugin: $(grep 'replay:' "$T/v.err")"
grep -q "replay: <code>filterlab replay $wl --plugin $T/trunc.so</code>" "$T/viol/index.html" ||
    fail "the replay command on the page lacks --plugin"
exit 0
