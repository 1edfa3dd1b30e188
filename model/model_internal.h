/*
 * model_internal.h -- declarations shared by the model's own .c files only;
 * nothing outside model/ includes it (the public contract is model.h).
 */
#ifndef FL_MODEL_INTERNAL_H
#define FL_MODEL_INTERNAL_H

#include "model.h"

/* Formats a message into err (when err_len > 0) and returns
 * FL_MODEL_ERR_INVALID, so parsers can `return fl_model_fail(...)`. */
int fl_model_fail(char *err, size_t err_len, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif /* FL_MODEL_INTERNAL_H */
