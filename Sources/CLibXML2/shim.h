#ifndef COMMISSARY_CLIBXML2_SHIM_H
#define COMMISSARY_CLIBXML2_SHIM_H

/* Debian builds libxml2 with ICU; Foundation on Linux ships its own ICU module, and the two
   definitions of UErrorCode clash in a clean build. Commissary never uses libxml2's ICU
   conversion, so the flag is dropped before any other libxml2 header is read. */
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED

#include <libxml/HTMLparser.h>
#include <libxml/xpath.h>
#include <libxml/xpathInternals.h>
#include <libxml/tree.h>
#include <libxml/parser.h>

/* xmlFree is a global function pointer, which Swift 6 refuses as not concurrency-safe. */
static inline void commissary_xmlFree(void *pointer) {
    xmlFree(pointer);
}

#endif
