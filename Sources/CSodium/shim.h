#ifndef ZAIKO_CSODIUM_SHIM_H
#define ZAIKO_CSODIUM_SHIM_H
#include <sodium.h>
#endif
