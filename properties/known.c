/*
 * known.c -- known upstream bugs (`filterlab check --known FILE`; check.h,
 * fl_known_*): the list file, and whether a finding is one of them.
 *
 * The file is line-based: blank lines and lines starting with '#' are
 * ignored; an entry starts with `bug ID` (or `hazard ID`) and its other
 * lines follow, one keyword and its text each (leading blanks ignored):
 *
 *   bug ID                   [A-Za-z0-9._-]+, unique in the file
 *   hazard ID                the same, for a hazard: a use the engine does
 *                            not support and does not detect either (a
 *                            Split changed under one comparer name),
 *                            reported apart from bugs; its `fix` line
 *                            says what the engine's contract forbids
 *   fix TEXT                 the upstream fix: release, pull request, commit
 *   about TEXT               what goes wrong, in one line
 *   engine NAME              the engine the finding is on (rocksdb)
 *   property Pn              the property it fails
 *   message ERE              a POSIX extended regular expression that the
 *                            finding's message matches
 *   at KIND[,KIND]...        the failing op is one of these kinds (get,
 *                            flush -- the checker's closing flush too --,
 *                            seek, seek_for_prev, scan_prefix, ...)
 *   option KEY OP VALUE      an option in force at the failing op: the last
 *                            value the open, reopens and set_options up to
 *                            it gave KEY; OP is = != ~ !~ (ERE) > < (as
 *                            numbers).  A KEY the workload never set has no
 *                            value: = ~ > < are false for it, != !~ true
 *   before KIND [KEY OP VALUE]  an op of that kind runs before the failing
 *                            op (with that option on its own line)
 *   target OP VALUE          the failing op's key (its first byte string:
 *                            the key, the start, the prefix), written as
 *                            the workload format writes it (`""` for the
 *                            empty key), compares so
 *   identified-by-message yes   the message names the bug by itself (an
 *                            assertion's text and place): a finding whose
 *                            shrinking the deadline cut may match it too
 *
 * fix, about, engine, property and message are required, once each, and at
 * least one of at, option and before: a signature says what the workload
 * does, not only what the message says.  option and before may repeat;
 * every line of an entry must hold for a finding to match it.
 *
 * What the signature is matched against is the caller's to make robust:
 * `check` matches only a finding shrunk to the end (1-minimal), so that
 * every option and op the signature names is one the failure needs, and
 * an unrelated failure in a workload that happens to hold them all is not
 * swallowed (runner.c) -- except, for an entry marked
 * identified-by-message, a finding whose shrinking was cut (unshrunk).
 */
#include "check.h"

#include <errno.h>
#include <regex.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LINE_MAX_BYTES 4096

typedef enum cmp_op { CMP_EQ, CMP_NE, CMP_MATCH, CMP_NOMATCH, CMP_GT, CMP_LT } cmp_op;

typedef struct condition {
    char *key;
    cmp_op op;
    char *value;
    regex_t re;                       /* for ~ and !~                       */
    bool has_re;
    fl_op_kind before;                /* a `before` line: the op's kind; 0 for `option` */
    bool has_key;                     /* a `before` line with KEY OP VALUE  */
} condition;

typedef struct entry {
    fl_known_bug pub;
    unsigned line;
    regex_t message;
    bool has_message;
    bool at[FL_OP_LAST + 1];
    bool has_at;
    condition *conds;
    size_t nconds;
    condition target;                 /* a `target` line                    */
    bool has_target;
} entry;

struct fl_known {
    entry *items;
    size_t count;
};

const char *fl_known_class(const fl_known_bug *b) {
    return b && b->hazard ? "hazard (unsupported by the engine and undetected by it)" : "known upstream bug";
}

/* ---- Parsing ---------------------------------------------------------------------- */

typedef struct parser {
    const char *name;
    unsigned line;
    char *err;
    size_t err_len;
} parser;

__attribute__((format(printf, 2, 3)))
static int bad(parser *p, const char *fmt, ...) {
    int n = snprintf(p->err, p->err_len, "%s:%u: ", p->name, p->line);
    va_list ap;
    va_start(ap, fmt);
    if (n >= 0 && (size_t)n < p->err_len) vsnprintf(p->err + n, p->err_len - (size_t)n, fmt, ap);
    va_end(ap);
    return FL_ERR_INVALID;
}

static char *trim(char *s) {
    while (*s == ' ' || *s == '\t') s++;
    size_t n = strlen(s);
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r')) s[--n] = 0;
    return s;
}

/* The next blank-separated word of *s (NUL-terminated in place), or NULL. */
static char *word(char **s) {
    char *p = *s;
    while (*p == ' ' || *p == '\t') p++;
    if (!*p) return NULL;
    char *w = p;
    while (*p && *p != ' ' && *p != '\t') p++;
    if (*p) *p++ = 0;
    *s = p;
    return w;
}

static bool op_kind(const char *name, fl_op_kind *out) {
    for (int k = FL_OP_OPEN; k <= FL_OP_LAST; k++)
        if (strcmp(fl_op_name((fl_op_kind)k), name) == 0) {
            *out = (fl_op_kind)k;
            return true;
        }
    return false;
}

static int compile(parser *p, regex_t *re, const char *pattern, const char *what) {
    int rc = regcomp(re, pattern, REG_EXTENDED | REG_NOSUB);
    if (rc == 0) return FL_OK;
    char msg[256];
    regerror(rc, re, msg, sizeof msg);
    return bad(p, "%s: not a POSIX extended regular expression (%s): %s", what, msg, pattern);
}

/* "KEY OP VALUE" from text into c. */
static int parse_comparison(parser *p, char *text, condition *c) {
    static const struct { const char *name; cmp_op op; } ops[] = {
        { "=", CMP_EQ }, { "!=", CMP_NE }, { "~", CMP_MATCH }, { "!~", CMP_NOMATCH }, { ">", CMP_GT },
        { "<", CMP_LT },
    };
    char *key = word(&text), *op = word(&text), *value = trim(text);
    if (!key || !op || !*value) return bad(p, "expected KEY OP VALUE (OP one of = != ~ !~ > <)");
    size_t i = 0;
    while (i < sizeof ops / sizeof *ops && strcmp(ops[i].name, op) != 0) i++;
    if (i == sizeof ops / sizeof *ops) return bad(p, "unknown comparison '%s' (expected = != ~ !~ > <)", op);
    c->op = ops[i].op;
    if (!(c->key = strdup(key)) || !(c->value = strdup(value))) return FL_ERR_NOMEM;
    if (c->op == CMP_GT || c->op == CMP_LT) {
        char *end;
        errno = 0;
        (void)strtod(value, &end);
        if (errno || *end) return bad(p, "'%s %s' needs a number, got '%s'", key, op, value);
    }
    if (c->op == CMP_MATCH || c->op == CMP_NOMATCH) {
        int rc = compile(p, &c->re, value, key);
        if (rc) return rc;
        c->has_re = true;
    }
    return FL_OK;
}

static int add_condition(entry *e, condition **out) {
    condition *n = realloc(e->conds, (e->nconds + 1) * sizeof *n);
    if (!n) return FL_ERR_NOMEM;
    e->conds = n;
    *out = memset(&n[e->nconds++], 0, sizeof *n);
    return FL_OK;
}

static int set_text(parser *p, const char **field, const char *keyword, const char *text) {
    if (*field) return bad(p, "'%s' given twice in one entry", keyword);
    if (!*text) return bad(p, "'%s' needs a text", keyword);
    return (*field = strdup(text)) ? FL_OK : FL_ERR_NOMEM;
}

/* One line of the entry e. */
static int entry_line(parser *p, entry *e, const char *keyword, char *rest) {
    if (strcmp(keyword, "fix") == 0) return set_text(p, &e->pub.fix, keyword, rest);
    if (strcmp(keyword, "about") == 0) return set_text(p, &e->pub.about, keyword, rest);
    if (strcmp(keyword, "engine") == 0) return set_text(p, &e->pub.engine, keyword, rest);
    if (strcmp(keyword, "property") == 0) {
        char *end;
        long n = rest[0] == 'P' ? strtol(rest + 1, &end, 10) : -1;
        if (e->pub.property) return bad(p, "'property' given twice in one entry");
        if (n < 1 || n >= FL_PROPERTY_COUNT || *end) return bad(p, "expected P1 to P11, got '%s'", rest);
        e->pub.property = (int)n;
        return FL_OK;
    }
    if (strcmp(keyword, "message") == 0) {
        if (e->has_message) return bad(p, "'message' given twice in one entry");
        if (!*rest) return bad(p, "'message' needs a regular expression");
        int rc = compile(p, &e->message, rest, "message");
        e->has_message = rc == FL_OK;
        return rc;
    }
    if (strcmp(keyword, "at") == 0) {
        if (e->has_at) return bad(p, "'at' given twice in one entry");
        for (char *k = strtok(rest, ","); k; k = strtok(NULL, ",")) {
            fl_op_kind kind;
            if (!op_kind(trim(k), &kind)) return bad(p, "'at': unknown op '%s'", trim(k));
            e->at[kind] = true;
        }
        e->has_at = true;
        return FL_OK;
    }
    if (strcmp(keyword, "target") == 0) {
        if (e->has_target) return bad(p, "'target' given twice in one entry");
        char line[LINE_MAX_BYTES + 8];
        snprintf(line, sizeof line, "target %s", rest);
        e->has_target = true;
        return parse_comparison(p, line, &e->target);
    }
    condition *c;
    if (strcmp(keyword, "option") == 0) {
        int rc = add_condition(e, &c);
        return rc ? rc : parse_comparison(p, rest, c);
    }
    if (strcmp(keyword, "before") == 0) {
        char *kind = word(&rest);
        fl_op_kind k;
        if (!kind || !op_kind(kind, &k)) return bad(p, "'before' needs an op kind, got '%s'", kind ? kind : "");
        int rc = add_condition(e, &c);
        if (rc) return rc;
        c->before = k;
        rest = trim(rest);
        if (!*rest) return FL_OK;
        c->has_key = true;
        return parse_comparison(p, rest, c);
    }
    if (strcmp(keyword, "identified-by-message") == 0) {
        if (strcmp(rest, "yes") != 0) return bad(p, "'identified-by-message' takes 'yes', got '%s'", rest);
        e->pub.identified_by_message = true;
        return FL_OK;
    }
    return bad(p, "unknown keyword '%s' (expected bug, hazard, fix, about, engine, property, message, at, "
               "option, before, target or identified-by-message)", keyword);
}

/* Whether entry e has what every entry needs (errors name its bug line). */
static int entry_complete(const parser *p, const entry *e) {
    parser at_bug = *p;
    at_bug.line = e->line;
    const char *missing = !e->pub.fix ? "fix" : !e->pub.about ? "about" : !e->pub.engine ? "engine"
                        : !e->pub.property ? "property" : !e->has_message ? "message" : NULL;
    if (missing) return bad(&at_bug, "bug %s has no '%s' line", e->pub.id, missing);
    if (!e->has_at && !e->nconds && !e->has_target)
        return bad(&at_bug, "bug %s: the signature needs an 'at', 'option', 'before' or 'target' line besides "
                   "its message (what the workload does)", e->pub.id);
    return FL_OK;
}

static void entry_free(entry *e) {
    free((char *)e->pub.id);
    free((char *)e->pub.fix);
    free((char *)e->pub.about);
    free((char *)e->pub.engine);
    if (e->has_message) regfree(&e->message);
    for (size_t i = 0; i < e->nconds; i++) {
        free(e->conds[i].key);
        free(e->conds[i].value);
        if (e->conds[i].has_re) regfree(&e->conds[i].re);
    }
    free(e->conds);
    free(e->target.key);
    free(e->target.value);
    if (e->target.has_re) regfree(&e->target.re);
}

void fl_known_free(fl_known *k) {
    if (!k) return;
    for (size_t i = 0; i < k->count; i++) entry_free(&k->items[i]);
    free(k->items);
    free(k);
}

static bool valid_id(const char *id) {
    if (!*id) return false;
    for (const char *c = id; *c; c++)
        if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') || *c == '.' ||
              *c == '_' || *c == '-'))
            return false;
    return true;
}

int fl_known_parse(const char *text, size_t len, const char *name, fl_known **out, char *err, size_t err_len) {
    *out = NULL;
    fl_known *k = calloc(1, sizeof *k);
    if (!k) return FL_ERR_NOMEM;
    parser p = { name ? name : "known", 0, err, err_len };
    int rc = FL_OK;
    if (memchr(text, 0, len)) rc = bad(&p, "not a text file (it holds a NUL byte)");
    size_t at = 0;
    while (at < len && rc == FL_OK) {
        size_t end = at;
        while (end < len && text[end] != '\n') end++;
        p.line++;
        char buf[LINE_MAX_BYTES];
        if (end - at >= sizeof buf) {
            rc = bad(&p, "line longer than %d bytes", LINE_MAX_BYTES - 1);
            break;
        }
        memcpy(buf, text + at, end - at);
        buf[end - at] = 0;
        at = end + 1;
        char *line = trim(buf), *rest = line;
        if (!*line || line[0] == '#') continue;
        char *keyword = word(&rest);
        rest = trim(rest);
        bool hazard = strcmp(keyword, "hazard") == 0;
        if (strcmp(keyword, "bug") == 0 || hazard) {
            if (k->count && (rc = entry_complete(&p, &k->items[k->count - 1]))) break;
            unsigned here = p.line;
            if (!valid_id(rest)) {
                rc = bad(&p, "'%s' needs an id of letters, digits, '.', '_', '-', got '%s'", keyword, rest);
                break;
            }
            for (size_t i = 0; i < k->count; i++)
                if (strcmp(k->items[i].pub.id, rest) == 0) rc = bad(&p, "%s %s given twice", keyword, rest);
            if (rc) break;
            entry *n = realloc(k->items, (k->count + 1) * sizeof *n);
            if (!n) { rc = FL_ERR_NOMEM; break; }
            k->items = n;
            memset(&n[k->count], 0, sizeof *n);
            n[k->count].line = here;
            n[k->count].pub.hazard = hazard;
            if (!(n[k->count].pub.id = strdup(rest))) { rc = FL_ERR_NOMEM; break; }
            k->count++;
            continue;
        }
        if (!k->count) { rc = bad(&p, "'%s' before the first 'bug ID' or 'hazard ID' line", keyword); break; }
        rc = entry_line(&p, &k->items[k->count - 1], keyword, rest);
    }
    if (rc == FL_OK && k->count) rc = entry_complete(&p, &k->items[k->count - 1]);
    if (rc == FL_OK && k->count > FL_KNOWN_MAX) {
        snprintf(err, err_len, "%s: %zu entries; at most %d", p.name, k->count, FL_KNOWN_MAX);
        rc = FL_ERR_INVALID;
    }
    if (rc == FL_OK && !k->count) {
        p.line = 0;
        snprintf(err, err_len, "%s: no 'bug ID' entry", p.name);
        rc = FL_ERR_INVALID;
    }
    if (rc == FL_ERR_NOMEM) snprintf(err, err_len, "%s: out of memory", p.name);
    if (rc) {
        fl_known_free(k);
        return rc;
    }
    *out = k;
    return FL_OK;
}

int fl_known_load(const char *path, fl_known **out, char *err, size_t err_len) {
    *out = NULL;
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, err_len, "%s: %s", path, strerror(errno));
        return FL_ERR_IO;
    }
    char *text = NULL;
    size_t len = 0, cap = 0;
    for (;;) {
        if (len + 4096 > cap) {
            char *n = realloc(text, cap = cap * 2 + 8192);
            if (!n) { free(text); fclose(f); snprintf(err, err_len, "%s: out of memory", path); return FL_ERR_NOMEM; }
            text = n;
        }
        size_t got = fread(text + len, 1, cap - len, f);
        len += got;
        if (got == 0) break;
    }
    bool failed = ferror(f) != 0;
    fclose(f);
    if (failed) {
        free(text);
        snprintf(err, err_len, "%s: read error", path);
        return FL_ERR_IO;
    }
    int rc = fl_known_parse(text, len, path, out, err, err_len);
    free(text);
    return rc;
}

size_t fl_known_count(const fl_known *k) { return k ? k->count : 0; }

const fl_known_bug *fl_known_get(const fl_known *k, size_t i) {
    return k && i < k->count ? &k->items[i].pub : NULL;
}

/* ---- Matching ------------------------------------------------------------------------- */

static bool compare(const condition *c, const char *value) {
    if (!value) return c->op == CMP_NE || c->op == CMP_NOMATCH;
    switch (c->op) {
    case CMP_EQ:      return strcmp(value, c->value) == 0;
    case CMP_NE:      return strcmp(value, c->value) != 0;
    case CMP_MATCH:   return regexec(&c->re, value, 0, NULL, 0) == 0;
    case CMP_NOMATCH: return regexec(&c->re, value, 0, NULL, 0) != 0;
    default: {
        char *end;
        double v = strtod(value, &end), want = strtod(c->value, NULL);
        if (end == value || *end) return false;
        return c->op == CMP_GT ? v > want : v < want;
    }
    }
}

/* The value of option key on op (NULL: not given there). */
static const char *op_option(const fl_op *op, const char *key) {
    for (size_t i = 0; i < op->opt_count; i++)
        if (strcmp(op->opts[i].key, key) == 0) return op->opts[i].value;
    return NULL;
}

static bool sets_options(fl_op_kind k) {
    return k == FL_OP_OPEN || k == FL_OP_REOPEN || k == FL_OP_SET_OPTIONS;
}

/* The value option key has in force at op index `at` (NULL: never set). */
static const char *in_force(const fl_workload *w, size_t at, const char *key) {
    const char *v = NULL;
    for (size_t i = 0; i <= at && i < w->count; i++)
        if (sets_options(w->ops[i].kind)) {
            const char *here = op_option(&w->ops[i], key);
            if (here) v = here;
        }
    return v;
}

/* Whether op's key, written as the workload format writes it, satisfies
 * e's `target` (true without one; false past the last op). */
static bool target_holds(const entry *e, const fl_op *op) {
    if (!e->has_target) return true;
    if (!op) return false;
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f) return false;
    fl_bytes_print(f, op->a.data, op->a.len);
    bool ok = fclose(f) == 0 && compare(&e->target, text);
    free(text);
    return ok;
}

static bool condition_holds(const condition *c, const fl_known_finding *f) {
    if (!c->before) return compare(c, in_force(f->workload, f->at, c->key));
    for (size_t i = 0; i < f->at && i < f->workload->count; i++) {
        const fl_op *op = &f->workload->ops[i];
        if (op->kind == c->before && (!c->has_key || compare(c, op_option(op, c->key)))) return true;
    }
    return false;
}

int fl_known_match(const fl_known *k, const fl_known_finding *f) {
    if (!k || !f->workload || f->at > f->workload->count) return -1;
    /* past the last op: the checker's closing flush, a flush like any */
    fl_op_kind failing = f->at == f->workload->count ? FL_OP_FLUSH : f->workload->ops[f->at].kind;
    for (size_t i = 0; i < k->count; i++) {
        const entry *e = &k->items[i];
        if (strcmp(e->pub.engine, f->engine ? f->engine : fl_engine_default()->name) != 0 || e->pub.property != f->property)
            continue;
        if (f->unshrunk && !e->pub.identified_by_message) continue;
        if (regexec(&e->message, f->message ? f->message : "", 0, NULL, 0) != 0) continue;
        if (e->has_at && !e->at[failing]) continue;
        if (!target_holds(e, f->at < f->workload->count ? &f->workload->ops[f->at] : NULL)) continue;
        bool all = true;
        for (size_t j = 0; j < e->nconds && all; j++) all = condition_holds(&e->conds[j], f);
        if (all) return (int)i;
    }
    return -1;
}

/* Whether entry e's signature holds at some op of w: one pass, each
 * condition's state carried along (its option's value in force, whether
 * its `before` op came). */
static bool could(const entry *e, const fl_workload *w) {
    enum { MAXC = 32 };
    bool holds[MAXC], seen[MAXC];
    size_t n = e->nconds < MAXC ? e->nconds : MAXC;
    for (size_t j = 0; j < n; j++) {
        holds[j] = !e->conds[j].before && compare(&e->conds[j], NULL);
        seen[j] = false;
    }
    for (size_t i = 0; i <= w->count; i++) {
        const fl_op *op = i < w->count ? &w->ops[i] : NULL;
        fl_op_kind kind = op ? op->kind : FL_OP_FLUSH;     /* past the end: the closing flush */
        for (size_t j = 0; op && j < n; j++) {
            const condition *c = &e->conds[j];
            const char *v;
            if (!c->before && sets_options(op->kind) && (v = op_option(op, c->key))) holds[j] = compare(c, v);
        }
        bool all = (!e->has_at || e->at[kind]) && target_holds(e, op);
        for (size_t j = 0; j < n && all; j++) all = e->conds[j].before ? seen[j] : holds[j];
        if (all) return true;
        for (size_t j = 0; op && j < n; j++) {
            const condition *c = &e->conds[j];
            if (c->before && op->kind == c->before && (!c->has_key || compare(c, op_option(op, c->key))))
                seen[j] = true;
        }
    }
    return false;
}

uint64_t fl_known_could(const fl_known *k, const char *engine, const fl_workload *w) {
    uint64_t mask = 0;
    for (size_t i = 0; k && w && i < k->count && i < 64; i++)
        if (strcmp(k->items[i].pub.engine, engine ? engine : fl_engine_default()->name) == 0 &&
            k->items[i].nconds <= 32 && could(&k->items[i], w))
            mask |= (uint64_t)1 << i;
    return mask;
}
