#ifndef ZAIKO_CZBAR_SHIM_H
#define ZAIKO_CZBAR_SHIM_H
#include <zbar.h>
#endif
