#!/bin/sh
# replay_json.sh -- `filterlab replay --json` (SPEC 11): stdout is exactly one
# JSON object with every required key in order; counters are consistent
# (considered = unfiltered + positive + negative, false_positive <= positive),
# fp_rate = fp / (fp + negative) or null, expected_fp_rate near the bloom's
# ~1% at 10 bits/key, p9_point (checks on) with probes, items, measured,
# expected, sd and z; with policies=none everything is unfiltered and both
# rates are null.
. "${FL_SRCDIR:-.}/tests/cli/common.inc"

# 8 flushes of 50 keys k<i>x<j>, then gets of present keys and of absent keys
# inside the SSTs' key ranges (so filters are asked), and prefix scans.
gen() {
    echo "filterlab-workload 1"
    echo "open policies=\"$1\""
    i=0
    while [ $i -lt 8 ]; do
        j=0
        while [ $j -lt 50 ]; do echo "put k${i}x$j v$j"; j=$((j + 1)); done
        echo flush
        i=$((i + 1))
    done
    i=0
    while [ $i -lt 8 ]; do
        j=0
        while [ $j -lt 50 ]; do echo "get k${i}x${j}z"; echo "get k${i}x$j"; j=$((j + 5)); done
        echo "scan_prefix k${i}x1"
        echo "scan_prefix k${i}y"
        i=$((i + 1))
    done
}

# check.py FILE OPS MODE: MODE is "bloom" or "none".
cat > "$T/check.py" <<'PY'
import json, sys
path, ops, mode, checked = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
text = open(path).read()
try:
    d = json.loads(text)
except ValueError as e:
    sys.exit("stdout is not exactly one JSON object: %s\n%s" % (e, text))
top = ["ops", "violations", "ssts", "filter_errors", "contract_violations", "elapsed_s", "peak_rss_mib",
       "point", "prefix"]
kind = ["considered", "unfiltered", "positive", "negative", "false_positive", "fp_rate", "expected_fp_rate"]
def req(cond, what):
    if not cond:
        sys.exit("%s\n%s" % (what, text))
req(isinstance(d, dict), "not an object")
req(list(d.keys())[:len(top)] == top, "top-level keys not %s in order" % top)
for k in top[:5]:
    req(type(d[k]) is int and d[k] >= 0, "%s is not a count" % k)
req(isinstance(d["elapsed_s"], (int, float)) and d["elapsed_s"] >= 0, "elapsed_s not a time")
req(isinstance(d["peak_rss_mib"], (int, float)) and 1 <= d["peak_rss_mib"] < 100000, "peak_rss_mib not a size in MiB")
req(d["ops"] == ops, "ops %d != %d" % (d["ops"], ops))
req(d["violations"] == 0, "violations")
req(d["ssts"] >= 1, "no live SST")
req(d["filter_errors"] == 0 and d["contract_violations"] == 0, "filter errors / contract violations")
for name in ("point", "prefix"):
    c = d[name]
    req(isinstance(c, dict) and list(c.keys())[:len(kind)] == kind, "%s keys not %s" % (name, kind))
    for k in kind[:5]:
        req(type(c[k]) is int and c[k] >= 0, "%s.%s is not a count" % (name, k))
    req(c["considered"] == c["unfiltered"] + c["positive"] + c["negative"], name + ": considered != sum")
    req(c["false_positive"] <= c["positive"], name + ": false_positive > positive")
    elig = c["false_positive"] + c["negative"]
    if elig == 0:
        req(c["fp_rate"] is None, name + ": fp_rate should be null")
    else:
        req(isinstance(c["fp_rate"], (int, float)) and abs(c["fp_rate"] - c["false_positive"] / elig) < 1e-6,
            name + ": fp_rate != false_positive / (false_positive + negative)")
    e = c["expected_fp_rate"]
    req(e is None or (isinstance(e, (int, float)) and 0 <= e <= 1), name + ": expected_fp_rate out of [0,1]")
p = d["point"]
req(p["considered"] > 0, "point: nothing considered")
if mode == "bloom":
    req(p["negative"] > 0, "point: no negative with a bloom filter")
    req(p["positive"] > 0, "point: no positive (present keys must be read)")
    req(p["expected_fp_rate"] is not None and 0.001 < p["expected_fp_rate"] < 0.05,
        "point: expected_fp_rate not near 1%% at 10 bits/key: %r" % p["expected_fp_rate"])
    req(d["prefix"]["considered"] > 0, "prefix: nothing considered")
    # P9's view (with checks on): probes, distinct items, rates, sd and z
    if "p9_point" in d:
        q = d["p9_point"]
        req(list(q.keys()) == ["probes", "items", "measured", "expected", "sd", "z"],
            "p9_point keys: %r" % list(q.keys()))
        req(0 < q["items"] <= q["probes"] <= p["false_positive"] + p["negative"], "p9_point counts")
        req(q["sd"] > 0 and abs(q["z"] - (q["measured"] - q["expected"]) / q["sd"]) < 1e-4, "p9_point z")
    else:
        req(checked == "0", "no p9_point with checks on")
else:
    for name in ("point", "prefix"):
        c = d[name]
        req(c["considered"] == c["unfiltered"] and c["positive"] == 0 and c["negative"] == 0,
            name + ": policies=none must leave every SST unfiltered")
        req(c["fp_rate"] is None and c["expected_fp_rate"] is None, name + ": rates must be null")
PY

for mode in bloom none; do
    if [ $mode = bloom ]; then spec="bloom(bits=10,prefix=fixed:4)"; else spec=none; fi
    gen "$spec" > "$T/$mode.wl"
    ops=$(grep -c . "$T/$mode.wl")
    ops=$((ops - 1))
    "$FILTERLAB" replay "$T/$mode.wl" --json > "$T/$mode.json" 2> "$T/$mode.err"
    rc=$?
    [ $rc -eq 0 ] || { cat "$T/$mode.err" >&2; fail "$mode: replay --json exited $rc"; }
    python3 "$T/check.py" "$T/$mode.json" "$ops" "$mode" 1 || fail "$mode: JSON check failed"
done

# A P7 warning (SPEC 8: the RFC's literal POINT invariant broken where no
# PREFIX answer relies on it) is printed on stderr, counted in "warnings",
# and fails nothing: capped:3 gives POINT(ab) = 2 but POINT(ab + a byte) = 3
# (a checker that dropped its warnings passed every test: mutate.sh --checker).
printf 'filterlab-workload 1\nopen policies="bloom(bits=10,prefix=capped:3)"\nput ab 1\nget ab\n' > "$T/warn.wl"
"$FILTERLAB" replay "$T/warn.wl" --json > "$T/warn.json" 2> "$T/warn.err"
rc=$?
[ $rc -eq 0 ] || { cat "$T/warn.err" >&2; fail "a P7 warning: exit $rc, not 0"; }
grep -q '^warning: P7 extractor-contract: line 3 put ab: extractor "capped3": POINT(ab) = 2 but POINT(.*) = 3: the RFC.s literal POINT invariant does not hold' \
    "$T/warn.err" || { cat "$T/warn.err" >&2; fail "the P7 warning is not printed"; }
grep -q '"warnings":1,' "$T/warn.json" || fail "the P7 warning is not counted: $(cat "$T/warn.json")"
grep -q '"violations":0,' "$T/warn.json" || fail "the P7 warning counts as a violation: $(cat "$T/warn.json")"

# --no-check still prints the same object shape.
"$FILTERLAB" replay "$T/bloom.wl" --json --no-check > "$T/nc.json" || fail "--no-check run failed"
python3 "$T/check.py" "$T/nc.json" "$ops" bloom 0 || fail "--no-check: JSON check failed"
exit 0
