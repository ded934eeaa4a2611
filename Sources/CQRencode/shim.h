#ifndef ZAIKO_CQRENCODE_SHIM_H
#define ZAIKO_CQRENCODE_SHIM_H
#include <qrencode.h>
#endif
