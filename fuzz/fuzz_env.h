/*
 * fuzz_env.h -- what the harnesses that take user code share: one registry
 * per process with the plugins of FILTERLAB_FUZZ_PLUGINS loaded, and the
 * '|'-separated lists of FILTERLAB_FUZZ_POLICIES / FILTERLAB_FUZZ_EXTRACTORS.
 */
#ifndef FL_FUZZ_ENV_H
#define FL_FUZZ_ENV_H

#include "../engine/engine.h"

/* The registry: built-ins plus FILTERLAB_FUZZ_PLUGINS=a.so:b.so, made on the
 * first call and kept.  Exits with a message when a plugin fails to load. */
fl_registry *fuzz_registry(void);

/* The '|'-separated items of environment variable var, split on the first
 * call and kept (*count = 0 when unset or empty). */
const char *const *fuzz_env_list(const char *var, size_t *count);

#endif
