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
/// sqlite3_config is variadic too: SQLITE_CONFIG_MEMSTATUS with an int (0 turns off the global
/// memory statistics, whose mutex every allocation of every connection otherwise takes).
static inline int csqlite_config_memstatus(int on) { return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, on); }
#endif
