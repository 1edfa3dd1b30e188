/*
 * filterlab_internal.h -- what the files of filterlab's own adapter share:
 * its configuration space (filterlab_space.c), named by its ops table
 * (filterlab_engine.c).
 */
#ifndef FL_FILTERLAB_ADAPTER_INTERNAL_H
#define FL_FILTERLAB_ADAPTER_INTERNAL_H

#include "../../properties/check.h"

#pragma GCC visibility push(hidden)
extern const fl_space fl_space_filterlab;
#pragma GCC visibility pop

#endif
