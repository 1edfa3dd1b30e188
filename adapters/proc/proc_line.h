/*
 * proc_line.h -- the engine protocol's lines that an adapter written in C
 * writes (docs/protocol.md): `filterlab serve`, and the
 * plugin host the SlateDB and Pebble adapter programs link (proc_host.c).  Needs only engine/ and workloads/ (the byte strings).
 */
#ifndef FL_PROC_LINE_H
#define FL_PROC_LINE_H

#include "../../engine/engine.h"

#include <stdio.h>

/* `violation OBJECT METHOD PLUGIN WHO WHAT` and its newline: a contract a
 * plugin broke, as filterlab's call wrappers reported it (PLUGIN "" for a
 * built-in); proc.c reads it back into the run's call context. */
void fl_proc_print_violation(FILE *f, const fl_contract_violation *v);

#endif /* FL_PROC_LINE_H */
