/*
 * contract.c -- P7, the prefix extractor contract (SPEC 4 and RFC), checked
 * on every key and scan prefix the workload uses, for every extractor of the
 * configured bloom policies (built-in or plugin), through the checker's
 * own call context:
 *   - n <= len, for POINT and PREFIX (the wrapper reports a longer n as a
 *     broken contract, P7, and answers none);
 *   - the same input gives the same answer;
 *   - PREFIX(p) = Some(n) implies POINT(q) = Some(n) for the extensions q of
 *     p that are sampled (p itself, p + 0x00, p + 0xFF, p + p, p + random
 *     bytes); each key's first few prefixes are checked as scan prefixes
 *     too, with the key itself as one more extension;
 *   - the RFC's literal POINT invariant (POINT(k) = Some(n) implies
 *     POINT(k') = Some(n) when k' shares k's first n bytes) is sampled too,
 *     but a break of it alone cannot cause a false negative (the PREFIX rule
 *     is what makes scans safe), so it is a warning, given once per extractor.
 * Each (extractor, kind, input) is checked once.
 */
#include "check_internal.h"

#include <stdlib.h>
#include <string.h>

void ck_contract_free(fl_checker *ck) { ck_fpset_free(&ck->p7_seen); }

/* The fingerprint of (extractor, kind, input): by spec, not by object (the
 * writer's and compactor's lists each make one). */
static uint64_t seen_key(const ck_policy *p, int kind, const uint8_t *b, size_t n) {
    return ck_fingerprint(b, n, p->extractor_seed * 31 + (uint64_t)kind);
}

static bool first_time(fl_checker *ck, const ck_policy *p, int kind, const uint8_t *b, size_t n) {
    return ck_fpset_add(&ck->p7_seen, seen_key(p, kind, b, n));
}

/* ---- Calling the extractor ------------------------------------------------- */

typedef struct answer { bool some; size_t n; } answer;

static answer ask(fl_checker *ck, const ck_policy *p, fl_target_kind kind, const uint8_t *b,
                  size_t len) {
    fl_target t = { kind, { b ? b : (const uint8_t *)"", len } };
    answer a = { false, 0 };
    a.some = fl_call_prefix_len(ck->own_calls, p->extractor, &t, &a.n);
    return a;
}

static const char *ex_name(fl_checker *ck, const ck_policy *p) {
    return fl_call_extractor_name(ck->own_calls, p->extractor);
}

static void show(char *buf, size_t cap, const uint8_t *b, size_t n) {
    buf[0] = 0;
    ck_str(buf, cap, b, n);
}

/* The same answer twice; false when not (reported).  An n past the end was
 * reported by the wrapper, which answered none. */
static bool sane(fl_checker *ck, const ck_policy *p, fl_target_kind kind, const uint8_t *b,
                 size_t len, answer *out) {
    answer a = ask(ck, p, kind, b, len), again = ask(ck, p, kind, b, len);
    if (a.some == again.some && a.n == again.n) {
        *out = a;
        return true;
    }
    const char *kn = kind == FL_TARGET_POINT ? "POINT" : "PREFIX";
    char s[160];
    show(s, sizeof s, b, len);          /* only once broken: it costs */
    ck_violation(ck, FL_P7, "extractor \"%s\": %s(%s) answered %s%zu, then %s%zu for the same input",
                 ex_name(ck, p), kn, s, a.some ? "" : "none/", a.n, again.some ? "" : "none/", again.n);
    return false;
}

/* POINT(q) must be Some(n) for every extension q of a scan prefix p with
 * PREFIX(p) = Some(n): a is POINT(q). */
static void judge_extension(fl_checker *ck, const ck_policy *p, const uint8_t *pfx, size_t plen,
                            size_t n, const uint8_t *q, size_t qlen, const answer *a) {
    if (a->some && a->n == n) return;
    char ps[160], qs[200];
    show(ps, sizeof ps, pfx, plen);
    show(qs, sizeof qs, q, qlen);
    if (a->some)
        ck_violation(ck, FL_P7, "extractor \"%s\": PREFIX(%s) = %zu, but its extension %s has "
                     "POINT = %zu: a scan of %s would probe a prefix that was never stored",
                     ex_name(ck, p), ps, n, qs, a->n, ps);
    else
        ck_violation(ck, FL_P7, "extractor \"%s\": PREFIX(%s) = %zu, but its extension %s has "
                     "POINT = none: a scan of %s would probe a prefix that was never stored",
                     ex_name(ck, p), ps, n, qs, ps);
}

/* The same for the extension pfx + tail, asked here. */
static void check_extension(fl_checker *ck, const ck_policy *p, const uint8_t *pfx, size_t plen,
                            size_t n, const uint8_t *tail, size_t tlen) {
    uint8_t buf[256];
    if (plen + tlen > sizeof buf) return;
    if (plen) memcpy(buf, pfx, plen);
    if (tlen) memcpy(buf + plen, tail, tlen);
    answer a;
    if (sane(ck, p, FL_TARGET_POINT, buf, plen + tlen, &a)) judge_extension(ck, p, pfx, plen, n, buf, plen + tlen, &a);
}

/* A scan prefix, the first time: true with its answer in *out when it
 * gave the same one twice. */
static bool prefix_one(fl_checker *ck, const ck_policy *p, const uint8_t *b, size_t len, uint64_t seen,
                       answer *out) {
    if (!ck_fpset_add(&ck->p7_seen, seen)) return false;
    answer a;
    if (!sane(ck, p, FL_TARGET_PREFIX, b, len, &a)) return false;
    *out = a;
    if (!a.some) return true;
    uint8_t tail[8];
    check_extension(ck, p, b, len, a.n, NULL, 0);
    tail[0] = 0x00;
    check_extension(ck, p, b, len, a.n, tail, 1);
    tail[0] = 0xFF;
    check_extension(ck, p, b, len, a.n, tail, 1);
    /* p twice: whatever made p end where it does appears again (a last
     * delimiter, a repeated separator) */
    check_extension(ck, p, b, len, a.n, b, len);
    size_t t = 1 + ck_rand(ck) % sizeof tail;
    for (size_t i = 0; i < t; i++) tail[i] = (uint8_t)ck_rand(ck);
    check_extension(ck, p, b, len, a.n, tail, t);
    return true;
}

/* A key, the first time (each_extractor asks only then); a is POINT(key),
 * asked twice alike. */
static void point_one(fl_checker *ck, const ck_policy *p, const uint8_t *b, size_t len, answer a) {
    if (!a.some) return;
    /* the literal POINT invariant, sampled: a key sharing the first n bytes */
    uint8_t buf[256];
    if (a.n + 1 > sizeof buf) return;
    if (a.n) memcpy(buf, b, a.n);
    buf[a.n] = (uint8_t)ck_rand(ck);
    answer other = ask(ck, p, FL_TARGET_POINT, buf, a.n + 1);
    if ((!other.some || other.n != a.n) && first_time(ck, p, 99, (const uint8_t *)"warned", 6)) {
        char s[160], o[160];
        show(s, sizeof s, b, len);
        show(o, sizeof o, buf, a.n + 1);
        ck_warning(ck, FL_P7, "extractor \"%s\": POINT(%s) = %zu but POINT(%s) = %s%zu: the RFC's "
                   "literal POINT invariant does not hold (harmless unless a PREFIX answer relies "
                   "on it, which is checked separately)", ex_name(ck, p), s, a.n, o,
                   other.some ? "" : "none/", other.n);
    }
}

static void each_extractor(fl_checker *ck, const uint8_t *b, size_t len, bool point) {
    const ck_config *lists[2] = { ck->writer, ck->compactor };
    for (int l = 0; l < 2; l++)
        for (size_t i = 0; lists[l] && i < lists[l]->count; i++) {
            const ck_policy *p = &lists[l]->items[i];
            if (!p->extractor) continue;
            if (point) {
                if (!first_time(ck, p, 3, b, len)) continue;
                answer pt;
                if (!sane(ck, p, FL_TARGET_POINT, b, len, &pt)) continue;     /* (reported) */
                point_one(ck, p, b, len, pt);
                /* the key's own prefixes, as scan prefixes; the key itself
                 * is a known extension of each */
                size_t max = len < 8 ? len : 8;
                uint64_t seen[9];       /* their places in the set, fetched together */
                for (size_t k = 0; k <= max; k++) {
                    seen[k] = seen_key(p, FL_TARGET_PREFIX, b, k);
                    ck_fpset_prefetch(&ck->p7_seen, seen[k]);
                }
                for (size_t k = 0; k <= max; k++) {
                    answer a;
                    if (!prefix_one(ck, p, b, k, seen[k], &a)) a = ask(ck, p, FL_TARGET_PREFIX, b, k);
                    if (a.some && a.n <= k) judge_extension(ck, p, b, k, a.n, b, len, &pt);
                }
            } else {
                answer a;
                prefix_one(ck, p, b, len, seen_key(p, FL_TARGET_PREFIX, b, len), &a);
            }
        }
}

void ck_contract_prefetch(fl_checker *ck, const uint8_t *k, size_t klen) {
    if (!ck_fpset_large(&ck->p7_seen)) return;
    const ck_config *lists[2] = { ck->writer, ck->compactor };
    for (int l = 0; l < 2; l++)
        for (size_t i = 0; lists[l] && i < lists[l]->count; i++)
            if (lists[l]->items[i].extractor)
                ck_fpset_prefetch(&ck->p7_seen, seen_key(&lists[l]->items[i], 3, k, klen));
}

void ck_contract_point(fl_checker *ck, const uint8_t *k, size_t klen) { each_extractor(ck, k, klen, true); }
void ck_contract_prefix(fl_checker *ck, const uint8_t *p, size_t plen) { each_extractor(ck, p, plen, false); }
