#ifndef CLIBCRYPTO_SHIM_H
#define CLIBCRYPTO_SHIM_H
// OpenSSL's libcrypto (Debian's libssl-dev): HMAC for TOTP (RFC 6238).
#include <openssl/evp.h>
#include <openssl/hmac.h>
#endif
