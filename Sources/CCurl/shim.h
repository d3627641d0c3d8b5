#ifndef CCURL_SHIM_H
#define CCURL_SHIM_H
#include <curl/curl.h>
#include <dlfcn.h>
#include <stddef.h>

/// libcurl is loaded when the first download starts, not linked: linked, it and the ~30 libraries
/// it needs (TLS, Kerberos, LDAP, …) were loaded and relocated at every start of the program,
/// which for `failedbanks import` cost more than SQLite's whole start.
///
/// The functions the downloader calls, found in `libcurl.so.4` by `ccurl_load`.
struct ccurl_api {
    CURLcode (*_Nonnull global_init)(long flags);
    CURL *_Nullable (*_Nonnull easy_init)(void);
    void (*_Nonnull easy_cleanup)(CURL *_Nonnull handle);
    CURLcode (*_Nonnull easy_perform)(CURL *_Nonnull handle);
    const char *_Nonnull (*_Nonnull easy_strerror)(CURLcode code);
    struct curl_slist *_Nullable (*_Nonnull slist_append)(struct curl_slist *_Nullable list,
                                                          const char *_Nonnull text);
    void (*_Nonnull slist_free_all)(struct curl_slist *_Nullable list);
    /// curl_easy_setopt is variadic, so Swift cannot call it: the typed wrappers below do.
    void *_Nonnull easy_setopt;
};

/// Opens libcurl and returns its functions; `*loaded` is 1 when every one was found, else 0 (and the
/// result must not be used).
static inline struct ccurl_api ccurl_load(int *_Nonnull loaded) {
    struct ccurl_api found = {0};
    struct ccurl_api *api = &found;
    *loaded = 0;
    void *library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) return found;
    api->global_init = (CURLcode (*)(long))dlsym(library, "curl_global_init");
    api->easy_init = (CURL * (*)(void)) dlsym(library, "curl_easy_init");
    api->easy_cleanup = (void (*)(CURL *))dlsym(library, "curl_easy_cleanup");
    api->easy_perform = (CURLcode (*)(CURL *))dlsym(library, "curl_easy_perform");
    api->easy_strerror = (const char *(*)(CURLcode))dlsym(library, "curl_easy_strerror");
    api->slist_append = (struct curl_slist * (*)(struct curl_slist *, const char *)) dlsym(library, "curl_slist_append");
    api->slist_free_all = (void (*)(struct curl_slist *))dlsym(library, "curl_slist_free_all");
    api->easy_setopt = dlsym(library, "curl_easy_setopt");
    if (!api->global_init || !api->easy_init || !api->easy_cleanup || !api->easy_perform || !api->easy_strerror
        || !api->slist_append || !api->slist_free_all || !api->easy_setopt) {
        return found;
    }
    *loaded = 1;
    return found;
}

typedef CURLcode (*ccurl_setopt_function)(CURL *handle, CURLoption option, ...);

/// One typed wrapper of curl_easy_setopt for each kind of value the downloader sets or reads.
static inline CURLcode ccurl_set_long(const struct ccurl_api *api, CURL *handle, CURLoption option, long value) {
    return ((ccurl_setopt_function)api->easy_setopt)(handle, option, value);
}

static inline CURLcode ccurl_set_string(const struct ccurl_api *api, CURL *handle, CURLoption option,
                                        const char *value) {
    return ((ccurl_setopt_function)api->easy_setopt)(handle, option, value);
}

static inline CURLcode ccurl_set_pointer(const struct ccurl_api *api, CURL *handle, CURLoption option, void *value) {
    return ((ccurl_setopt_function)api->easy_setopt)(handle, option, value);
}

static inline CURLcode ccurl_set_headers(const struct ccurl_api *api, CURL *handle, struct curl_slist *headers) {
    return ((ccurl_setopt_function)api->easy_setopt)(handle, CURLOPT_HTTPHEADER, headers);
}

/// The body and header callbacks share curl's write-callback signature.
typedef size_t (*ccurl_write_callback)(char *data, size_t size, size_t count, void *context);

static inline CURLcode ccurl_set_write_function(const struct ccurl_api *api, CURL *handle,
                                                ccurl_write_callback callback) {
    return ((ccurl_setopt_function)api->easy_setopt)(handle, CURLOPT_WRITEFUNCTION, callback);
}

static inline CURLcode ccurl_set_header_function(const struct ccurl_api *api, CURL *handle,
                                                 ccurl_write_callback callback) {
    return ((ccurl_setopt_function)api->easy_setopt)(handle, CURLOPT_HEADERFUNCTION, callback);
}

typedef int (*ccurl_progress_callback)(void *context, curl_off_t download_total, curl_off_t downloaded,
                                       curl_off_t upload_total, curl_off_t uploaded);

static inline CURLcode ccurl_set_progress_function(const struct ccurl_api *api, CURL *handle,
                                                   ccurl_progress_callback callback) {
    return ((ccurl_setopt_function)api->easy_setopt)(handle, CURLOPT_XFERINFOFUNCTION, callback);
}
#endif
