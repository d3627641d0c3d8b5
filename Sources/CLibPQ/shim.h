#ifndef CLIBPQ_SHIM_H
#define CLIBPQ_SHIM_H
// libpq, PostgreSQL's client library (Debian: libpq-dev). Its headers live in
// /usr/include/postgresql (`pkg-config libpq`); the target names that folder
// through `pkgConfig`, and this path works without it as well.
#include <postgresql/libpq-fe.h>
#endif
