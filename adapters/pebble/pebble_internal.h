/*
 * pebble_internal.h -- what the files of adapters/pebble/ share: the
 * configuration space of `check --engine pebble` (pebble_space.c).
 */
#ifndef FL_PEBBLE_INTERNAL_H
#define FL_PEBBLE_INTERNAL_H

#include "../../properties/check.h"

#pragma GCC visibility push(hidden)

extern const fl_space fl_space_pebble;

#pragma GCC visibility pop

#endif /* FL_PEBBLE_INTERNAL_H */
