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
#include <libxml/xmlschemas.h>

/* xmlFree is a global function pointer, which Swift 6 refuses as not concurrency-safe. */
static inline void commissary_xmlFree(void *pointer) {
    xmlFree(pointer);
}

/* libxml2 prints some errors itself (an encoding it cannot convert: "encoding error : input
   conversion failed"), on standard error, before Commissary reports the page in its own line;
   HTML_PARSE_NOERROR does not reach those. The handler type is variadic, which Swift cannot
   define, so the no-op handler lives here. Handlers are per thread in libxml2: the thread default
   covers threads that parse later, the second call the thread that initialises. */
static void commissary_xml_ignore_error(void *context, const char *message, ...) {
    (void)context;
    (void)message;
}

static inline void commissary_xml_silence_errors(void) {
    xmlThrDefSetGenericErrorFunc(NULL, commissary_xml_ignore_error);
    xmlSetGenericErrorFunc(NULL, commissary_xml_ignore_error);
    xmlThrDefSetStructuredErrorFunc(NULL, NULL);
}

#endif
