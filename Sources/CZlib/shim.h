#ifndef CZLIB_SHIM_H
#define CZLIB_SHIM_H
#include <zlib.h>

/// inflateInit2 is a macro, which Swift cannot call. `window_bits` 15 + 32 reads a zlib or a
/// gzip stream (told apart by its header); -15 reads raw deflate.
static inline int czlib_inflate_init(z_streamp stream, int window_bits) {
    return inflateInit2(stream, window_bits);
}

/// deflateInit2 likewise (for making compressed bodies in tests): `window_bits` 15 + 16 writes gzip.
static inline int czlib_deflate_init(z_streamp stream, int level, int window_bits) {
    return deflateInit2(stream, level, Z_DEFLATED, window_bits, 8, Z_DEFAULT_STRATEGY);
}
#endif
