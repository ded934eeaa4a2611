#ifndef ZAIKO_CZLIBDEFLATE_SHIM_H
#define ZAIKO_CZLIBDEFLATE_SHIM_H
#include <zlib.h>

/* deflateInit2 and inflateInit2 are macros (they pass the library's version and stream size). */
static inline int zaiko_deflate_init(z_stream *stream, int level) {
    /* 15 + 16: the largest window, written with gzip's header and trailer; 8: zlib's default memory. */
    return deflateInit2(stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
}

static inline int zaiko_inflate_init(z_stream *stream) {
    /* 15 + 16: gzip only (not a bare zlib stream). */
    return inflateInit2(stream, 15 + 16);
}
#endif
