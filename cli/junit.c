/*
 * junit.c -- JUnit XML, the report format CI systems read (GitHub Actions
 * through a reporter action, GitLab's junit artifacts, Jenkins): one
 * <testsuite> of test cases, each passed, failed (with a message and a
 * text: the finding, its seed, the line that reproduces it) or skipped.
 *
 * Text goes in escaped for XML 1.0: the five markup characters as
 * entities, and every byte XML cannot hold (controls other than tab and
 * newline) or that might not be UTF-8 (>= 0x80) as the text \xNN, so the
 * file is valid whatever a message quotes.  The file is written through
 * fl_cli_out (whole or not at all).
 */
#include "cli.h"

#include <stdio.h>
#include <string.h>

static void put_escaped(FILE *f, const char *s) {
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
        switch (*p) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        case '\'': fputs("&apos;", f); break;
        default:
            if ((*p < 0x20 && *p != '\t' && *p != '\n') || *p >= 0x80) fprintf(f, "\\x%02X", *p);
            else fputc(*p, f);
        }
    }
}

int fl_cli_junit_write(const char *cmd, const char *path, bool force, const char *const *inputs,
                       size_t ninputs, const char *suite, const fl_junit_case *cases, size_t n) {
    fl_cli_out out;
    int rc = fl_cli_out_open(&out, cmd, "--junit", path, force, inputs, ninputs);
    if (rc) return rc;
    size_t failures = 0, skipped = 0;
    double total = 0;
    for (size_t i = 0; i < n; i++) {
        failures += cases[i].failure != NULL;
        skipped += cases[i].skipped;
        total += cases[i].time;
    }
    FILE *f = out.f;
    fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n  <testsuite name=\"", f);
    put_escaped(f, suite);
    fprintf(f, "\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" skipped=\"%zu\" time=\"%.3f\">\n", n,
            failures, skipped, total);
    for (size_t i = 0; i < n; i++) {
        const fl_junit_case *c = &cases[i];
        fputs("    <testcase classname=\"", f);
        put_escaped(f, c->classname);
        fputs("\" name=\"", f);
        put_escaped(f, c->name);
        fprintf(f, "\" time=\"%.3f\"", c->time);
        if (!c->failure && !c->skipped) {
            fputs("/>\n", f);
            continue;
        }
        fputs(">\n", f);
        if (c->skipped) {
            fputs("      <skipped message=\"", f);
            put_escaped(f, c->details);
            fputs("\"/>\n", f);
        } else {
            fputs("      <failure type=\"", f);
            put_escaped(f, c->type);
            fputs("\" message=\"", f);
            put_escaped(f, c->failure);
            fputs("\">", f);
            put_escaped(f, c->details);
            fputs("</failure>\n", f);
        }
        fputs("    </testcase>\n", f);
    }
    fputs("  </testsuite>\n</testsuites>\n", f);
    return fl_cli_out_close(&out, cmd, "--junit", true);
}
