#ifndef GRIDSTORE_CLIBPQ_SHIM_H
#define GRIDSTORE_CLIBPQ_SHIM_H

#include <libpq-fe.h>

#endif
