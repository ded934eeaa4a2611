#ifndef ZAIKO_CGD_SHIM_H
#define ZAIKO_CGD_SHIM_H
#include <stdarg.h>
#include <gd.h>
#include <gd_errors.h>

// libgd prints every decoder complaint to stderr; a bad upload must not spam the server log.
// The caller sees the failure as a NULL image instead.
static void zaiko_gd_discard_message(int priority, const char *format, va_list args) {
    (void)priority; (void)format; (void)args;
}

static inline void zaiko_gd_silence_errors(void) {
    gdSetErrorMethod(zaiko_gd_discard_message);
}
#endif
