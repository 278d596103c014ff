#ifndef GRIDSTORE_CSQLITE_SHIM_H
#define GRIDSTORE_CSQLITE_SHIM_H

#include <sqlite3.h>

/// `SQLITE_TRANSIENT` is a macro that casts -1 to a function pointer, which
/// Swift cannot import; this returns it as a value.
static inline sqlite3_destructor_type csqlite_transient(void) {
    return SQLITE_TRANSIENT;
}

/// `sqlite3_db_config` is variadic, which Swift cannot call; this sets one on/off option.
static inline int csqlite_db_config_flag(sqlite3 *db, int option, int value) {
    return sqlite3_db_config(db, option, value, (int *)0);
}

/// `sqlite3_config` is variadic too; this turns the library's memory statistics on or off.
/// It takes effect only before SQLite initializes (else it returns `SQLITE_MISUSE`).
static inline int csqlite_config_memory_statistics(int on) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, on);
}

#endif
