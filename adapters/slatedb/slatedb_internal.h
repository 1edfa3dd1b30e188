/*
 * slatedb_internal.h -- what the files of the SlateDB adapter share: its
 * configuration space (slatedb_space.c), named by its engine table
 * (slatedb_engine.c).  The adapter program itself is the Rust crate beside
 * them (Cargo.toml, src/); the reader of SlateDB's SST files is
 * slatedb_sst.h.
 */
#ifndef FL_SLATEDB_INTERNAL_H
#define FL_SLATEDB_INTERNAL_H

#include "../../properties/check.h"

#pragma GCC visibility push(hidden)
extern const fl_space fl_space_slatedb;
#pragma GCC visibility pop

#endif
