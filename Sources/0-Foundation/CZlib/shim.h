#ifndef COMMISSARY_CZLIB_SHIM_H
#define COMMISSARY_CZLIB_SHIM_H

/* zlib, as Debian's zlib1g-dev installs it (libcurl links it already). */
#include <zlib.h>

/* deflateInit2 and inflateInit2 are macros that pass zlib's version and the stream's size;
   Swift imports no macro that takes arguments, so they are wrapped here. windowBits 15 + 16
   asks for the gzip format (RFC 1952) rather than a bare zlib stream. */
static inline int commissary_gzip_deflate_init(z_streamp stream, int level) {
    return deflateInit2(stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
}

static inline int commissary_gzip_inflate_init(z_streamp stream) {
    return inflateInit2(stream, 15 + 16);
}

#endif
