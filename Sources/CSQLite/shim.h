#ifndef CSQLITE_SHIM_H
#define CSQLITE_SHIM_H
/// The system library is built with the pre-update hook (Debian's is); its declarations
/// in sqlite3.h are only made visible with this macro.
#ifndef SQLITE_ENABLE_PREUPDATE_HOOK
#define SQLITE_ENABLE_PREUPDATE_HOOK 1
#endif
#include <sqlite3.h>

/// SQLITE_TRANSIENT is a function-like cast that Swift cannot import.
static inline sqlite3_destructor_type csqlite_transient(void) { return SQLITE_TRANSIENT; }
static inline sqlite3_destructor_type csqlite_static(void) { return SQLITE_STATIC; }
/// sqlite3_db_config is variadic, which Swift cannot call: the form with an int and an int result.
static inline int csqlite_db_config_int(sqlite3 *db, int op, int value, int *result) {
    return sqlite3_db_config(db, op, value, result);
}
/// sqlite3_config is variadic too: the options that take one int (SQLITE_CONFIG_MEMSTATUS, SQLITE_CONFIG_PMASZ).
static inline int csqlite_config_int(int option, int value) { return sqlite3_config(option, value); }
/// Linux's sync_file_range, which glibc declares only with _GNU_SOURCE (not set for Swift's Glibc):
/// with SYNC_FILE_RANGE_WRITE (2) it starts writing a file's dirty pages to the disk and returns
/// without waiting (`FileWriteback`).
int sync_file_range(int fd, long long offset, long long count, unsigned int flags);
static inline int csqlite_start_writeback(int fd) { return sync_file_range(fd, 0, 0, 2); }
#endif
