#ifndef GRIDSTORE_CLIBPQ_SHIM_H
#define GRIDSTORE_CLIBPQ_SHIM_H

// libpq's types and constants only. The library itself is not linked: GridStorePostgreSQL
// loads it with dlopen when the first connection is made (see LibPQ.swift), because linking
// it would load libpq and some twenty libraries it needs (TLS, Kerberos, LDAP) into every
// gridstore process, about 5 ms at each start, SQLite users included.
// Debian's libpq-dev puts the header in /usr/include/postgresql; its own includes are relative.
#include <postgresql/libpq-fe.h>

#endif
