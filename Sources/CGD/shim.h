#ifndef ZAIKO_CGD_SHIM_H
#define ZAIKO_CGD_SHIM_H
#include <gd.h>
#include <gd_errors.h>
#endif
