#ifndef CZXCVBN_SHIM_H
#define CZXCVBN_SHIM_H
// Debian's libzxcvbn-dev (the C port of Dropbox's zxcvbn): password strength estimates.
#include <zxcvbn.h>
#endif
