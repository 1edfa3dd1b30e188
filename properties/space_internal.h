/*
 * space_internal.h -- the configuration space of each engine under test:
 * what `filterlab check` draws a trial's configuration from.  runner.c
 * makes every trial the same way (a seed, a shape, the generator) and asks
 * the engine's space, found by ck_space_of, for the rest: the options of
 * the open line, of each reopen and set_options, and any change to the op
 * mix.  space_filterlab.c holds filterlab's (every built-in policy, several
 * at once, compactors, Legacy filters, migrations between lists at reopens
 * and by set_options),
 * space_rocksdb.c RocksDB's (what the RocksDB engine can express: one bloom
 * or Ribbon policy, the rocksdb.* settings, set_options).  No other file
 * of the trial generator knows an engine by name.
 *
 * Invariant: a space draws only from the trial's random stream (ck_rng,
 * seeded from the run's seed and the trial number) and streams seeded
 * from it, so that `--seed S --trial T` makes the same trial every time,
 * with every compiler (draws are made one per statement: C leaves the
 * order of a call's arguments unspecified).
 */
#ifndef FL_SPACE_INTERNAL_H
#define FL_SPACE_INTERNAL_H

#include "check.h"

#pragma GCC visibility push(hidden)

/* ---- A trial's random stream (splitmix64) ----------------------------------- */

typedef struct ck_rng { uint64_t s; } ck_rng;

static inline uint64_t ck_next(ck_rng *r) { return fl_splitmix64(&r->s); }
static inline uint64_t ck_below(ck_rng *r, uint64_t n) { return n ? ck_next(r) % n : 0; }
static inline bool ck_chance(ck_rng *r, unsigned percent) { return ck_below(r, 100) < percent; }

/* ---- Option text ------------------------------------------------------------- */

#define CK_TEXT_MAX 8192

/* Option text being built; text that does not fit is cut (and then does
 * not parse, which the generator reports). */
typedef struct ck_text { char buf[CK_TEXT_MAX]; size_t len; } ck_text;

void ck_text_clear(ck_text *t);
void ck_text_add(ck_text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A spec as an option value inside double quotes: \ and " escaped. */
void ck_text_add_quoted(ck_text *t, const char *s);

/* ---- Spaces --------------------------------------------------------------------- */

#define CK_TRIAL_REOPENS 3
#define CK_TRIAL_LENGTHS 8

/* One trial as its space fills it in. */
typedef struct ck_trial {
    fl_gen_options *gen;              /* the shape's defaults with its seed: the
                                         space sets the configuration (open and
                                         reopen options, or options_for) and
                                         may change the op mix               */
    bool fp_trial;                    /* a P9 trial (only where fp_trials)  */
    ck_text open;                     /* storage the space may use for them */
    ck_text reopen[CK_TRIAL_REOPENS];
    const char *reopens[CK_TRIAL_REOPENS];
    uint32_t lengths[CK_TRIAL_LENGTHS];   /* gen->prefix_lengths         */
    size_t nlengths;
    void *state;                      /* the space's own (gen->options_arg),
                                         released by its release            */
} ck_trial;

typedef struct ck_space {
    const char *engine;               /* fl_engine_ops.name                 */
    /* Every eighth trial is an FP trial for P9 (where P9 is checked). */
    bool fp_trials;
    /* Whether the engine refusing an open, reopen or set_options
     * (FL_ERR_INVALID) is a finding (P10).  false: the configurations a
     * trial makes are all in the engine's space, so a refusal is a bug of
     * this space -- an error of the trial (fl_trial_outcome.refused), never
     * a property violation. */
    bool refusals_are_findings;
    /* The engine can simulate a crash (fl_engine_ops.abandon): some trials
     * (every one with check --crash) get `crash` ops. */
    bool crashes;
    /* The run's --policy and --extractor specs, once before any trial:
     * FL_OK, or FL_ERR_INVALID with err saying why the engine cannot run
     * them (NULL: any will do). */
    int  (*check_specs)(const fl_run_config *c, char *err, size_t err_len);
    /* Fills t for one trial, drawing from r. */
    int  (*configure)(const fl_run_config *c, ck_rng *r, ck_trial *t, char *err, size_t err_len);
    /* Frees t->state (NULL: nothing to free). */
    void (*release)(ck_trial *t);
} ck_space;

extern const ck_space ck_space_filterlab;    /* space_filterlab.c */
extern const ck_space ck_space_rocksdb;      /* space_rocksdb.c   */

/* The space of that engine (NULL: filterlab's); filterlab's for an engine
 * without one of its own. */
const ck_space *ck_space_of(const fl_engine_ops *engine);

#pragma GCC visibility pop

#endif /* FL_SPACE_INTERNAL_H */
