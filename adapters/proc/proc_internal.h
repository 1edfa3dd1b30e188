/*
 * proc_internal.h -- what the files of the engine protocol's client share
 * (proc.c, proc_space.c), and what a named adapter program's folder
 * (adapters/slatedb/) builds its engine table from.
 */
#ifndef FL_PROC_INTERNAL_H
#define FL_PROC_INTERNAL_H

#include "../../properties/check.h"

#pragma GCC visibility push(hidden)

typedef struct child child;

/* An engine that is an adapter program: its table first (fl_engine_ops.open
 * is handed this table, and finds the rest here: sqlite3_vfs's pattern). */
typedef struct fl_proc_kind {
    fl_engine_ops ops;                /* must be first                          */
    const char *command;              /* run with /bin/sh -c                     */
    child *idle;                      /* the adapter between a close and the
                                         next open (one per kind per process)  */
} fl_proc_kind;

/* A kind with proc.c's operations, named name, running command (both
 * borrowed for the kind's life); its space is fl_space_proc, which the
 * caller may replace. */
int fl_proc_kind_init(fl_proc_kind *kind, const char *name, const char *command);

/* proc.c's open (a named adapter's open may check first that its program
 * is there, then call this). */
int fl_proc_open(const fl_engine_ops *self, const char *dir, const fl_registry *reg, const fl_options *opt,
                 fl_engine **out, char *err, size_t err_len);

/* What `check --engine cmd:...` draws from (proc_space.c): configurations
 * any adapter of the protocol should take -- one built-in bloom, the
 * write, get, scan and scan_prefix ops, flushes, compactions and reopens --
 * and nothing it may not (a refusal is the trial's error, not a finding). */
extern const fl_space fl_space_proc;

#pragma GCC visibility pop

#endif /* FL_PROC_INTERNAL_H */
