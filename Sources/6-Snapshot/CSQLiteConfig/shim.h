#ifndef COMMISSARY_CSQLITECONFIG_SHIM_H
#define COMMISSARY_CSQLITECONFIG_SHIM_H

#include <sqlite3.h>

/* sqlite3_config is variadic, which Swift cannot call. Turning memory statistics off must come
   before SQLite is first initialized (before any connection is opened); after that SQLite
   refuses it with SQLITE_MISUSE and changes nothing. */
static inline int commissary_sqlite3_disable_memstatus(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}

#endif
