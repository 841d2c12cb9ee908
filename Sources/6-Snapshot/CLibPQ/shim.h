#ifndef COMMISSARY_CLIBPQ_SHIM_H
#define COMMISSARY_CLIBPQ_SHIM_H

/* PostgreSQL's reference client library, as Debian's libpq-dev installs it. */
#include <libpq-fe.h>

#endif
