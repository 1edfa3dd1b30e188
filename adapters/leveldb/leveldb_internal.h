/*
 * leveldb_internal.h -- what the LevelDB engine's files share, inside the
 * LevelDB adapter only.  leveldb_engine.c is the engine, leveldb_shim.h
 * the C face of the C++ it needs, leveldb_sst.h filterlab's own reader of
 * LevelDB's table files, leveldb_space.c the configuration space.
 */
#ifndef FL_LEVELDB_INTERNAL_H
#define FL_LEVELDB_INTERNAL_H

#include "../../properties/check.h"

/* The configuration space of `check --engine leveldb` (leveldb_space.c). */
extern const fl_space fl_space_leveldb;

#endif /* FL_LEVELDB_INTERNAL_H */
