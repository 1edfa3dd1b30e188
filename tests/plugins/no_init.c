/*
 * no_init.c -- a shared object that is not a plugin: it exports no
 * fl_plugin_init, so loading it must fail with a clear error.
 */
#include "filter.h"

int not_a_plugin(void) { return 42; }
