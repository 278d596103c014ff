#ifndef GRIDSTORE_CSQLITE_SHIM_H
#define GRIDSTORE_CSQLITE_SHIM_H

#include <sqlite3.h>

/// `SQLITE_TRANSIENT` is a macro that casts -1 to a function pointer, which
/// Swift cannot import; this returns it as a value.
static inline sqlite3_destructor_type csqlite_transient(void) {
    return SQLITE_TRANSIENT;
}

#endif
