/*
 * html.c -- DIR/index.html: one self-contained page (inline style, no
 * script, nothing fetched from elsewhere) that shows, per workload, its
 * description, the headline numbers, the plots and the tables of every
 * measurement, with any violation at the very top.
 *
 * Invariant: the page links only files that exist in DIR -- results.csv,
 * the plots marked plotted (and their scripts), the violation workloads the
 * replays wrote -- and every byte of text from a workload or a message is
 * HTML-escaped.
 */
#include "report_internal.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ---- Text ---------------------------------------------------------------------- */

static void esc(FILE *f, const char *s) {
    for (; s && *s; s++) {
        switch (*s) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        default:  fputc(*s, f);
        }
    }
}

/* A rate as a percentage with 3 significant digits; "&ndash;" when undefined. */
static void pct(FILE *f, double v) {
    if (isnan(v)) fputs("&ndash;", f);
    else if (v == 0) fputs("0%", f);
    else fprintf(f, "%.3g%%", 100.0 * v);
}

static void num(FILE *f, double v, const char *fmt) {
    if (isnan(v)) fputs("&ndash;", f);
    else fprintf(f, fmt, v);
}

/* Where the expected rate lies against the measured interval; "" when the
 * comparison is not like for like (see the note under the tables). */
static const char *verdict(const fl_report_row *r) {
    bool comparable = r->mode != FL_MODE_NONE &&
        !(r->kind == FL_TARGET_POINT && r->mode == FL_MODE_PREFIX_ONLY) &&
        !(r->kind == FL_TARGET_PREFIX && r->mode == FL_MODE_WHOLE);
    if (!comparable || isnan(r->expected_fp_rate) || isnan(r->fp_lo)) return "";
    if (r->expected_fp_rate < r->fp_lo) return "below";
    if (r->expected_fp_rate > r->fp_hi) return "above";
    return "within";
}

/* ---- Page parts ---------------------------------------------------------------- */

static const char style[] =
    "body{font-family:system-ui,-apple-system,'Segoe UI',Roboto,'DejaVu Sans',sans-serif;"
    "margin:2em auto;max-width:1180px;padding:0 1em;color:#222;line-height:1.45}"
    "h1{font-size:1.6em;margin-bottom:.2em}h2{border-bottom:2px solid #1f4e9c;padding-bottom:.2em;margin-top:2em}"
    "h3{margin-top:1.6em}code,pre{font-family:'DejaVu Sans Mono',Menlo,Consolas,monospace;font-size:.9em}"
    "pre{background:#f6f7f9;border:1px solid #e1e4e8;padding:.7em;overflow-x:auto;white-space:pre-wrap}"
    ".meta{color:#555;font-size:.92em}"
    ".violations{border:2px solid #b3261e;background:#fdecea;padding:.6em 1em;margin:1em 0}"
    ".violations h2{color:#b3261e;border:none;margin-top:.3em}"
    ".ok{border:1px solid #2a9d3f;background:#eaf6ec;padding:.5em 1em;margin:1em 0}"
    ".note{background:#fff8e1;border-left:4px solid #d9730d;padding:.4em .8em}"
    ".headline{background:#eef3fb;border-left:4px solid #1f4e9c;padding:.5em 1em;margin:1em 0}"
    ".headline li{margin:.2em 0}"
    "figure{margin:1.2em 0}figure img{max-width:100%;height:auto;border:1px solid #e1e4e8}"
    "figcaption{color:#555;font-size:.9em}"
    "table{border-collapse:collapse;font-size:.85em;margin:.5em 0 1em}"
    "th,td{border:1px solid #d0d4da;padding:.25em .5em;text-align:right;white-space:nowrap}"
    "th{background:#f0f2f5;position:sticky;top:0}td.l,th.l{text-align:left}"
    "tr.none td{color:#666}td.within{background:#eaf6ec}td.above,td.below{background:#fff4d6}"
    ".scroll{overflow-x:auto}";

static void head(FILE *f, const fl_report_state *st) {
    const fl_report_config *cfg = st->cfg;
    char when[64] = "";
    time_t now = time(NULL);
    struct tm tm;
    if (gmtime_r(&now, &tm)) strftime(when, sizeof when, "%Y-%m-%d %H:%M UTC", &tm);
    fprintf(f, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
               "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
               "<title>filterlab report</title>\n<style>%s</style>\n</head>\n<body>\n", style);
    fprintf(f, "<h1>filterlab FP-rate report</h1>\n<p class=\"meta\">%s &middot; ", when);
    if (cfg->command) {
        fputs("<code>", f);
        esc(f, cfg->command);
        fputs("</code> &middot; ", f);
    }
    fprintf(f, "%zu replays with every check on, %u in parallel, %.1f s &middot; bits per key:",
            st->njobs, st->jobs_used, st->elapsed_s);
    for (size_t i = 0; i < cfg->nbits; i++) fprintf(f, "%s%g", i ? ", " : " ", cfg->bits[i]);
    fputs(" &middot; modes:", f);
    for (size_t i = 0; i < cfg->nmodes; i++)
        fprintf(f, "%s%s", i ? ", " : " ", fl_report_mode_name(cfg->modes[i]));
    fputs(" &middot; every number: <a href=\"results.csv\">results.csv</a></p>\n", f);
}

static void violations(FILE *f, const fl_report_state *st) {
    if (!st->violations) {
        fputs("<div class=\"ok\">No violation: every property the checker verifies held in "
              "every replay.</div>\n", f);
        return;
    }
    fprintf(f, "<div class=\"violations\">\n<h2>%" PRIu64 " violation%s found</h2>\n"
               "<p>The command exits with status 1.  Each replay below can be rerun alone.</p>\n<ul>\n",
            st->violations, st->violations == 1 ? "" : "s");
    for (size_t i = 0; i < st->njobs; i++) {
        const fl_report_job *j = &st->jobs[i];
        if (!j->m.sum.violations) continue;
        fputs("<li><b>", f);
        esc(f, st->wls[j->workload].name);
        fputs("</b>", f);
        if (st->nengines > 1) {
            fputs(" on <b>", f);
            esc(f, st->engines[j->engine]->name);
            fputs("</b>", f);
        }
        fprintf(f, ", mode %s", fl_report_mode_name(j->mode));
        if (j->mode != FL_MODE_NONE) fprintf(f, ", %g bits/key", j->bits);
        fputs(" (<code>policies=\"", f);
        esc(f, j->policies);
        fprintf(f, "\"</code>): %" PRIu64 " violation%s", j->m.sum.violations,
                j->m.sum.violations == 1 ? "" : "s");
        if (j->violation_wl[0]) {
            const char *base = strrchr(j->violation_wl, '/');
            base = base ? base + 1 : j->violation_wl;
            char replay[8192];
            fl_report_replay_command(st, j, replay, sizeof replay);
            fputs("; replay: <code>", f);
            esc(f, replay);
            fputs("</code> (<a href=\"violations/", f);
            esc(f, base);
            fputs("\">workload</a>)", f);
        }
        if (j->messages && *j->messages) {
            fputs("<pre>", f);
            esc(f, j->messages);
            fputs("</pre>", f);
        }
        fputs("</li>\n", f);
    }
    fputs("</ul>\n</div>\n", f);
}

static void headline(FILE *f, const fl_report_state *st, size_t w) {
    double hb = fl_report_headline_bits(st->cfg);
    const fl_report_row *r = fl_report_find_row(st, w, 0, FL_MODE_WHOLE, hb, FL_TARGET_POINT);
    const fl_report_row *none = fl_report_find_row(st, w, 0, FL_MODE_NONE, hb, FL_TARGET_PREFIX);
    const fl_report_row *po = fl_report_find_row(st, w, 0, FL_MODE_PREFIX_ONLY, hb, FL_TARGET_PREFIX);
    const fl_report_row *wp = fl_report_find_row(st, w, 0, FL_MODE_WHOLE_PREFIX, hb, FL_TARGET_PREFIX);
    bool any = (r && r->eligible) || (none && none->ops && (po || wp));
    if (!any) return;
    fputs("<div class=\"headline\"><ul>\n", f);
    if (r && r->eligible) {
        const char *v = verdict(r);
        fprintf(f, "<li>At <b>%g bits/key, whole-key</b> bloom: measured point FP rate <b>", hb);
        pct(f, r->fp_rate);
        fputs("</b> (95% Wilson interval ", f);
        pct(f, r->fp_lo);
        fputs(" &ndash; ", f);
        pct(f, r->fp_hi);
        fprintf(f, ", %" PRIu64 " false positives in %" PRIu64 " eligible probes); expected from "
                   "the probed filters' bits <b>", r->false_positive, r->eligible);
        pct(f, r->expected_fp_rate);
        fprintf(f, "</b>: %s",
                !strcmp(v, "within") ? "<b>within</b> the interval"
                : *v ? (!strcmp(v, "above") ? "<b>above</b> the interval" : "<b>below</b> the interval")
                     : "not comparable");
        if (!isnan(r->p9_sigmas))
            fprintf(f, " (P9, the checker's test: %+.1f&sigma;, at most +5 allowed)", r->p9_sigmas);
        fputs(".</li>\n", f);
    }
    if (none && none->ops && (po || wp)) {
        fprintf(f, "<li>SSTs read per prefix scan at <b>%g bits/key</b>: no filter <b>", hb);
        num(f, none->reads_per_op, "%.2f");
        fputs("</b>", f);
        const fl_report_row *with[2] = { po, wp };
        for (int i = 0; i < 2; i++) {
            if (!with[i]) continue;
            fprintf(f, ", %s <b>", fl_report_mode_name(with[i]->mode));
            num(f, with[i]->reads_per_op, "%.2f");
            fputs("</b>", f);
            if (none->reads_per_op > 0 && !isnan(with[i]->reads_per_op))
                fprintf(f, " (%.0f%% fewer)", 100.0 * (1 - with[i]->reads_per_op / none->reads_per_op));
        }
        fprintf(f, "; over %" PRIu64 " prefix scans considering ", none->ops);
        num(f, none->considered_per_op, "%.2f");
        fputs(" SSTs each.</li>\n", f);
    }
    fputs("</ul></div>\n", f);
}

static const char *const plot_captions[FL_PLOT_COUNT] = {
    "Per considered SST, of the get probes a filter could have ruled out (the SST held no such "
    "key), the fraction it let through: measured with a 95% Wilson interval, beside the expected "
    "rate of the probed filters (exact given each filter's bits), the theory curve (the "
    "cache-local formula at b bits per key), the textbook bloom formula with the best number of probes, "
    "and the 2<sup>&minus;b</sup> bound.",
    "The same for scan_prefix probes, in the modes whose filters hold prefixes.",
    "Mean SSTs read (considered minus skipped by a filter) per scan_prefix, by mode; the dotted "
    "line is the SSTs whose key range overlaps the prefix, the reads without any filter.",
    "Stored filter bytes of the final SSTs per entry in them, by mode; the dotted line is b/8, "
    "the nominal size at b bits per key.",
};

static void figures(FILE *f, const fl_report_state *st, const fl_report_workload *w) {
    for (int p = 0; p < FL_PLOT_COUNT; p++) {
        char stem[FL_REPORT_NAME_MAX + 32];
        fl_report_plot_stem(w, p, stem, sizeof stem);
        fprintf(f, "<h3>%s</h3>\n", fl_report_plot_title(p));
        if (!w->plotted[p]) {
            fputs("<p class=\"note\">", f);
            esc(f, w->plot_note[p]);
            if (w->scripted[p]) fprintf(f, " (<a href=\"%s.gp\">%s.gp</a>)", stem, stem);
            fputs("</p>\n", f);
            continue;
        }
        fprintf(f, "<figure><a href=\"%s.svg\"><img src=\"%s.png\" width=\"1100\" height=\"620\" "
                   "alt=\"%s: %s\"></a>\n<figcaption>%s Files: <a href=\"%s.svg\">SVG</a>, "
                   "<a href=\"%s.png\">PNG</a>, <a href=\"%s.gp\">gnuplot script</a>.</figcaption>"
                   "</figure>\n", stem, stem, w->name, fl_report_plot_title(p), plot_captions[p],
                stem, stem, stem);
    }
    (void)st;
}

static void table(FILE *f, const fl_report_state *st, size_t w, fl_target_kind kind) {
    fprintf(f, "<h3>%s: every configuration</h3>\n<div class=\"scroll\"><table>\n"
               "<tr>%s<th class=\"l\">mode</th><th>bits/key</th><th>%s</th><th>SSTs considered</th>"
               "<th>eligible probes</th><th>false positives</th><th>FP rate</th><th>95%% interval</th>"
               "<th>expected</th><th>expected vs interval</th><th>deviation</th><th>theory (formula)</th>"
               "<th>textbook bloom</th><th>2<sup>&minus;b</sup></th>"
               "<th>SSTs read per op</th><th>filter bytes/key</th><th>keys</th><th>SSTs</th>"
               "<th>violations</th></tr>\n",
            st->nengines > 1 ? "<th class=\"l\">engine</th>" : "",
            kind == FL_TARGET_POINT ? "Point lookups (get)" : "Prefix scans (scan_prefix)",
            kind == FL_TARGET_POINT ? "gets" : "prefix scans");
    const fl_report_job *none_shown = NULL;
    for (size_t i = 0; i < st->nrows; i++) {
        const fl_report_row *r = &st->rows[i];
        if (st->row_jobs[i]->workload != w || r->kind != kind) continue;
        if (r->mode == FL_MODE_NONE) {          /* one replay: one line */
            if (none_shown == st->row_jobs[i]) continue;
            none_shown = st->row_jobs[i];
        }
        const char *v = verdict(r);
        fprintf(f, "<tr%s>", r->mode == FL_MODE_NONE ? " class=\"none\"" : "");
        if (st->nengines > 1) fprintf(f, "<td class=\"l\">%s</td>", r->engine);
        fprintf(f, "<td class=\"l\">%s</td>", fl_report_mode_name(r->mode));
        if (r->mode == FL_MODE_NONE) fputs("<td>&ndash;</td>", f);
        else fprintf(f, "<td>%g</td>", r->bits);
        fprintf(f, "<td>%" PRIu64 "</td><td>%" PRIu64 "</td><td>%" PRIu64 "</td><td>%" PRIu64 "</td><td>",
                r->ops, r->considered, r->eligible, r->false_positive);
        pct(f, r->fp_rate);
        fputs("</td><td>", f);
        if (isnan(r->fp_lo)) fputs("&ndash;", f);
        else { pct(f, r->fp_lo); fputs(" &ndash; ", f); pct(f, r->fp_hi); }
        fputs("</td><td>", f);
        pct(f, r->expected_fp_rate);
        fprintf(f, "</td><td class=\"%s\">%s</td><td>", v, *v ? v : "&ndash;");
        if (!isnan(r->p9_sigmas)) fprintf(f, "%+.1f&sigma;", r->p9_sigmas);
        else fputs("&ndash;", f);
        fputs("</td><td>", f);
        pct(f, r->theory_fp_rate);
        fputs("</td><td>", f);
        pct(f, r->standard_fp_rate);
        fputs("</td><td>", f);
        pct(f, r->bound_fp_rate);
        fputs("</td><td>", f);
        num(f, r->reads_per_op, "%.3f");
        fputs("</td><td>", f);
        num(f, r->filter_bytes_per_key, "%.3f");
        fprintf(f, "</td><td>%" PRIu64 "</td><td>%" PRIu64 "</td><td>%" PRIu64 "</td></tr>\n", r->keys,
                r->live_ssts, r->violations);
    }
    fputs("</table></div>\n", f);
}

/* ---- Engines side by side ------------------------------------------------------ */

/* Why an engine's curve sits where it does, by design (each claim is in
 * its adapter and its page in docs/); NULL for an engine with
 * none (cmd:...). */
static const char *engine_design(const char *name) {
    static const struct { const char *name, *why; } designs[] = {
        { "filterlab", "cache-local bloom: each key's probes fall in one 512-bit line, chosen "
                       "with its other bits from a 64-bit hash (XXH3); prefixes and whole keys "
                       "in one filter." },
        { "filterlab:untraced", "filterlab's engine without its probe trace: the same cache-local "
                                "bloom (512-bit lines, 64-bit hash), measured as P9 sees it." },
        { "rocksdb", "format_version 5 full filter: RocksDB's cache-local bloom (512-bit lines, "
                     "64-bit hash), as filterlab's; prefixes and whole keys in one filter." },
        { "slatedb", "a standard bloom over the whole filter (no lines): SipHash-1-3 of the "
                     "key, double hashing over all the bits, so it sits near the textbook "
                     "curve; prefixes and whole keys in one filter." },
        { "pebble", "RocksDB's legacy full filter: a LevelDB-style 32-bit hash picks one of an "
                    "odd number of 512-bit lines and its k probes step through that line by a "
                    "stride, so they are not independent: a bit worse than independent probes "
                    "at the same bits. It holds only Split prefixes (no whole keys and prefixes in one "
                    "filter), and its gets never read an L6 table's filter, so it has few "
                    "point probes to measure." },
        { "leveldb", "a standard bloom per 2 KiB window of data-block offsets, whole keys only "
                     "(no prefix filters)." },
    };
    for (size_t i = 0; i < sizeof designs / sizeof *designs; i++)
        if (strcmp(designs[i].name, name) == 0) return designs[i].why;
    return NULL;
}

static void rate_cell(FILE *f, const fl_report_row *r, bool comparable) {
    fputs("<td>", f);
    if (!r || !comparable || !r->eligible) {
        fputs("&ndash;</td><td>", f);
    } else {
        pct(f, r->fp_rate);
        fputs(" <small>(", f);
        pct(f, r->fp_lo);
        fputs(" &ndash; ", f);
        pct(f, r->fp_hi);
        fprintf(f, ", %" PRIu64 ")</small></td><td>", r->eligible);
    }
    if (r && comparable) pct(f, r->expected_fp_rate);
    else fputs("&ndash;", f);
    fputs("</td>", f);
}

/* One line per engine and mode it skipped: the bits, and why. */
static void skipped_list(FILE *f, const fl_report_state *st, size_t w) {
    bool any = false;
    for (size_t i = 0; i < st->njobs; i++) any = any || (st->jobs[i].workload == w && st->jobs[i].skipped);
    if (!any) return;
    fputs("<p>Configurations an engine cannot express (its adapter refused the open): no row "
          "for them.</p>\n<ul class=\"skipped\">\n", f);
    for (size_t i = 0; i < st->njobs; i++) {
        const fl_report_job *j = &st->jobs[i];
        if (j->workload != w || !j->skipped) continue;
        bool seen = false;          /* the same engine, mode and reason, listed already */
        for (size_t k = 0; k < i && !seen; k++)
            seen = st->jobs[k].workload == w && st->jobs[k].skipped && st->jobs[k].engine == j->engine &&
                   st->jobs[k].mode == j->mode && !strcmp(st->jobs[k].skip_reason, j->skip_reason);
        if (seen) continue;
        fprintf(f, "<li>skipped: <b>%s</b>, mode %s", st->engines[j->engine]->name,
                fl_report_mode_name(j->mode));
        if (j->mode != FL_MODE_NONE) {
            fputs(" at", f);
            bool first = true;
            for (size_t k = i; k < st->njobs; k++) {
                const fl_report_job *o = &st->jobs[k];
                if (o->workload != w || !o->skipped || o->engine != j->engine || o->mode != j->mode ||
                    strcmp(o->skip_reason, j->skip_reason))
                    continue;
                fprintf(f, "%s%g", first ? " " : ", ", o->bits);
                first = false;
            }
            fputs(" bits/key", f);
        }
        fputs(": ", f);
        esc(f, j->skip_reason);
        fputs("</li>\n", f);
    }
    fputs("</ul>\n", f);
}

static void engines_section(FILE *f, const fl_report_state *st, size_t w) {
    if (st->nengines < 2) return;
    const fl_report_config *cfg = st->cfg;
    fputs("<h3>Engines side by side</h3>\n<ul class=\"design\">\n", f);
    for (size_t e = 0; e < st->nengines; e++) {
        const char *why = engine_design(st->engines[e]->name);
        fputs("<li><b>", f);
        esc(f, st->engines[e]->name);
        fputs("</b>: ", f);
        esc(f, why ? why : "an engine behind the protocol: its design is its own.");
        fputs("</li>\n", f);
    }
    fputs("</ul>\n", f);
    skipped_list(f, st, w);
    fputs("<div class=\"scroll\"><table class=\"engines\">\n<tr><th>bits/key</th><th class=\"l\">mode</th>"
          "<th class=\"l\">engine</th><th>point FP rate (95% interval, probes)</th><th>expected</th>"
          "<th>prefix FP rate (95% interval, probes)</th><th>expected</th>"
          "<th>SSTs read per prefix scan</th><th>filter bytes/key</th></tr>\n", f);
    for (size_t b = 0; b < cfg->nbits; b++)
    for (int m = 0; m < FL_MODE_COUNT; m++)
    for (size_t e = 0; e < st->nengines; e++) {
        fl_report_mode mode = (fl_report_mode)m;
        const fl_report_row *pt = fl_report_find_row(st, w, e, mode, cfg->bits[b], FL_TARGET_POINT);
        const fl_report_row *px = fl_report_find_row(st, w, e, mode, cfg->bits[b], FL_TARGET_PREFIX);
        if (!pt || !px) continue;
        fprintf(f, "<tr%s><td>%g</td><td class=\"l\">%s</td><td class=\"l\">", mode == FL_MODE_NONE
                ? " class=\"none\"" : "", cfg->bits[b], fl_report_mode_name(mode));
        esc(f, st->engines[e]->name);
        fputs("</td>", f);
        rate_cell(f, pt, mode == FL_MODE_WHOLE || mode == FL_MODE_WHOLE_PREFIX);
        rate_cell(f, px, mode == FL_MODE_WHOLE_PREFIX || mode == FL_MODE_PREFIX_ONLY);
        fputs("<td>", f);
        num(f, px->ops ? px->reads_per_op : NAN, "%.2f");
        fputs("</td><td>", f);
        num(f, pt->filter_bytes_per_key, "%.3f");
        fputs("</td></tr>\n", f);
    }
    fputs("</table></div>\n", f);
}

static void workload_section(FILE *f, const fl_report_state *st, size_t w) {
    const fl_report_workload *wl = &st->wls[w];
    fputs("<h2 id=\"wl-", f);
    esc(f, wl->name);
    fputs("\">", f);
    esc(f, wl->name);
    fputs("</h2>\n<p class=\"meta\"><code>", f);
    esc(f, wl->path);
    fprintf(f, "</code>: %zu ops", wl->wl.count);
    if (wl->extractor[0]) {
        fputs("; prefix extractor <code>", f);
        esc(f, wl->extractor);
        fputs("</code> (from: ", f);
        esc(f, wl->extractor_source);
        fputs(")", f);
    }
    fputs(".</p>\n", f);
    if (wl->wl.description && *wl->wl.description) {
        fputs("<pre class=\"desc\">", f);
        esc(f, wl->wl.description);
        fputs("</pre>\n", f);
    }
    if (wl->note[0]) {
        fputs("<p class=\"note\">", f);
        esc(f, wl->note);
        fputs("</p>\n", f);
    }
    headline(f, st, w);
    engines_section(f, st, w);
    figures(f, st, wl);
    table(f, st, w, FL_TARGET_POINT);
    table(f, st, w, FL_TARGET_PREFIX);
}

static void legend(FILE *f, const fl_report_state *st) {
    fputs("<h2>Reading the numbers</h2>\n<ul>\n"
          "<li><b>Modes</b>: <i>whole</i> = <code>bloom(bits=B)</code>; <i>whole+prefix</i> = "
          "<code>bloom(bits=B,prefix=X)</code>; <i>prefix-only</i> = "
          "<code>bloom(bits=B,prefix=X,whole_key=0)</code>; <i>none</i> = no filter (one replay, "
          "shown once). Every open and reopen of the workload is given the mode's policies, for the "
          "writer and the compactor, and <code>legacy_filters=0</code>; its other options are kept.</li>\n"
          "<li><b>Eligible probes</b>: SST probes a filter could have ruled out, "
          "negative + false positive. <b>FP rate</b> = false positives / eligible probes.</li>\n"
          "<li><b>Expected</b>: the mean over the eligible probes of the probed SST's filter's "
          "expected rate, exact given its bits: the mean over its lines of (bits set / 512)<sup>k</sup> "
          "(1 for a probe the filter cannot answer). <b>Theory</b> is the cache-local formula at "
          "b bits per key, before any filter exists; it runs low (about 1.4% at 10 bits/key, 1.6x "
          "at 24) because it ignores how unevenly hashes fall on lines. "
          "<i>Expected vs interval</i> compares it with the measured 95% Wilson interval; it is "
          "left out where the two do not measure the same thing: a prefix-only filter answers a get "
          "by the key's group (an SST holding the group but not the key is counted a false "
          "positive), and a whole-key filter cannot answer a prefix scan. The Wilson interval "
          "treats every probe as an independent coin; but one absent item is probed against many "
          "filters, and SSTs holding largely the same keys have nearly the same bits, so an unlucky "
          "item is a false positive in all of them: with many probes the interval can be much "
          "narrower than the real spread. <i>Deviation</i> is P9's view, from the checker: its "
          "measured rate minus the expected one in standard deviations that count the probes of "
          "one item as one correlated group; it counts only items the filter did not hash. P9 "
          "fails above +5&sigma;, over at least 10,000 distinct items.</li>\n"
          "<li><b>b</b> is the configured bits per key. A filter is sized in whole 512-bit "
          "lines, so an SST with few keys gets more bits per key than b, and its FP rate can "
          "fall below the 2<sup>&minus;b</sup> bound of b bits per key.</li>\n"
          "<li><b>SSTs read per op</b>: (considered &minus; negative) / ops of that kind: the SSTs "
          "whose blocks were read.</li>\n"
          "<li><b>Filter bytes/key</b>: stored filter blocks of the final live SSTs (composite "
          "headers and names included) / their entries (puts and tombstones).</li>\n"
          "<li>Every replay runs with the checker on (properties P1-P11, docs/properties.md): a violation of any property, "
          "P9 (the FP rate against the expected rate) included, is listed at the top of the page.</li>\n", f);
    bool rocks = false;
    for (size_t e = 0; e < st->nengines; e++) rocks = rocks || st->engines[e] == &fl_engine_rocksdb;
    if (rocks)
        fputs("<li><b>RocksDB</b> (engine <i>rocksdb</i>) has no probe trace: its FP columns are "
              "P9's view -- gets and prefix reads of targets that exist nowhere, whose probed SSTs "
              "are known from its live files, each probe expected at the rate of that SST's filter "
              "read from its file; its SSTs read per scan are the SSTs its iterator positions in "
              "(from the live files' key ranges) less those its prefix filter ruled out (its perf "
              "context). Filters whose rate is not computed (partitioned, the legacy bloom of "
              "format_version &lt; 5) leave its FP columns empty.</li>\n", f);
    fputs("</ul>\n", f);
}

int fl_report_html_write(const fl_report_state *st) {
    char path[PATH_MAX], tmp[PATH_MAX + 8];
    if (fl_report_out_path(st, "index.html", path, sizeof path) != 0) return -1;
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    if (!f) {
        fprintf(stderr, "filterlab report: %s: %s\n", tmp, strerror(errno));
        return -1;
    }
    head(f, st);
    if (st->left_out[0]) {
        fputs("<p class=\"note\">Engines left out (not built):</p>\n<ul class=\"left-out\">\n<li>", f);
        for (const char *p = st->left_out; *p; p++) {
            if (*p == '\n') fputs("</li>\n<li>", f);
            else { char c[2] = { *p, 0 }; esc(f, c); }
        }
        fputs("</li>\n</ul>\n", f);
    }
    violations(f, st);
    if (st->nwls > 1) {
        fputs("<p>Workloads:", f);
        for (size_t w = 0; w < st->nwls; w++) {
            fputs(w ? ", " : " ", f);
            fputs("<a href=\"#wl-", f);
            esc(f, st->wls[w].name);
            fputs("\">", f);
            esc(f, st->wls[w].name);
            fputs("</a>", f);
        }
        fputs("</p>\n", f);
    }
    for (size_t w = 0; w < st->nwls; w++) workload_section(f, st, w);
    legend(f, st);
    fputs("</body>\n</html>\n", f);
    if (ferror(f) | fclose(f) || rename(tmp, path) != 0) {
        fprintf(stderr, "filterlab report: writing %s: %s\n", path, strerror(errno));
        remove(tmp);
        return -1;
    }
    return 0;
}
