#ifndef ZAIKO_CGNUTLS_SHIM_H
#define ZAIKO_CGNUTLS_SHIM_H
#include <gnutls/gnutls.h>
#include <gnutls/x509.h>
#include <gnutls/abstract.h>
#endif
