#!/bin/sh
# report.sh -- the interim `make report`: replays every shipped workload
# (workloads/*.wl) with `build/filterlab replay --json` and prints one line
# per workload: ops, live SSTs, the point FP rate beside the cache-local
# expectation, the prefix FP rate, and the negatives (SSTs skipped by
# filters).  The full report -- sweeps over bits per key and policy modes,
# CSV, gnuplot plots and an HTML page (SPEC 12) -- arrives with the reports
# issue.  Exits non-zero if any replay fails.
set -u
cd "$(dirname "$0")/.." || exit 2
FILTERLAB=${FILTERLAB:-build/filterlab}
[ -x "$FILTERLAB" ] || { echo "report: $FILTERLAB is missing: run make" >&2; exit 2; }

OUT=$(mktemp "${TMPDIR:-/tmp}/fl-report.XXXXXX") || exit 2
trap 'rm -f "$OUT"' EXIT
trap 'exit 130' INT TERM

# summarize NAME < JSON: one line from replay's JSON object (SPEC 11).
summarize() {
    awk -v name="$1" '
    function field(obj, key,    m) {
        if (match(obj, "\"" key "\":[^,}]*")) {
            m = substr(obj, RSTART, RLENGTH)
            sub(/^"[^"]*":/, "", m)
            return m
        }
        return "?"
    }
    function kind(s, k,    m) {
        if (match(s, "\"" k "\":\\{[^}]*\\}")) return substr(s, RSTART, RLENGTH)
        return ""
    }
    function pct(x) { return (x == "null" || x == "?") ? "n/a" : sprintf("%.3f%%", 100 * x) }
    {
        p = kind($0, "point"); q = kind($0, "prefix")
        printf "%s: %s ops, %s ssts; point fp %s (expected %s), %s negatives; prefix fp %s (expected %s), %s negatives\n",
            name, field($0, "ops"), field($0, "ssts"),
            pct(field(p, "fp_rate")), pct(field(p, "expected_fp_rate")), field(p, "negative"),
            pct(field(q, "fp_rate")), pct(field(q, "expected_fp_rate")), field(q, "negative")
    }'
}

failed=0
count=0
for wl in workloads/*.wl; do
    [ -f "$wl" ] || continue
    count=$((count + 1))
    if "$FILTERLAB" replay "$wl" --json > "$OUT"; then
        summarize "$(basename "$wl")" < "$OUT"
    else
        echo "report: replay of $wl failed; rerun: $FILTERLAB replay $wl" >&2
        failed=$((failed + 1))
    fi
done
[ $count -gt 0 ] || echo "report: no shipped workloads (workloads/*.wl) to replay"
echo
echo "This is the interim summary.  The full report (bits-per-key and policy-mode"
echo "sweeps, CSV, gnuplot plots and an HTML page) arrives with the reports issue."
[ $failed -eq 0 ]
