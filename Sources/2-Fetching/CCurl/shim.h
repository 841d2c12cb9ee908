#ifndef COMMISSARY_CCURL_SHIM_H
#define COMMISSARY_CCURL_SHIM_H

#include <curl/curl.h>

/* curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot call: one typed
   wrapper per argument kind. */
static inline CURLcode commissary_curl_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode commissary_curl_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode commissary_curl_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode commissary_curl_setopt_write_function(CURL *handle,
    size_t (*callback)(char *, size_t, size_t, void *)) {
    return curl_easy_setopt(handle, CURLOPT_WRITEFUNCTION, callback);
}
static inline CURLcode commissary_curl_setopt_header_function(CURL *handle,
    size_t (*callback)(char *, size_t, size_t, void *)) {
    return curl_easy_setopt(handle, CURLOPT_HEADERFUNCTION, callback);
}
static inline CURLcode commissary_curl_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}
/* The progress callback is how a transfer running on its own thread learns that the Swift task
   waiting for it was cancelled: returning non-zero aborts with CURLE_ABORTED_BY_CALLBACK. */
static inline CURLcode commissary_curl_setopt_xferinfo_function(CURL *handle,
    int (*callback)(void *, curl_off_t, curl_off_t, curl_off_t, curl_off_t)) {
    return curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, callback);
}
/* CURL_GLOBAL_DEFAULT is a macro expression Swift does not import. */
static inline CURLcode commissary_curl_global_init(void) {
    return curl_global_init(CURL_GLOBAL_DEFAULT);
}
static inline CURLcode commissary_curl_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}
static inline CURLcode commissary_curl_getinfo_string(CURL *handle, CURLINFO info, char **value) {
    return curl_easy_getinfo(handle, info, value);
}

#endif
