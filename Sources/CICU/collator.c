#include "CICU.h"
#include <unicode/ucol.h>
#include <unicode/uloc.h>

CICUCollator *cicu_collator_open(const char *locale) {
    UErrorCode status = U_ZERO_ERROR;
    UCollator *collator = ucol_open(locale, &status);
    if (U_FAILURE(status)) {
        if (collator) ucol_close(collator);
        return NULL;
    }
    return (CICUCollator *)collator;
}

void cicu_collator_close(CICUCollator *collator) { ucol_close((UCollator *)collator); }

int32_t cicu_sort_key(const CICUCollator *collator, const uint16_t *text, int32_t length, uint8_t *key,
                      int32_t capacity) {
    return ucol_getSortKey((const UCollator *)collator, (const UChar *)text, length, key, capacity);
}

int32_t cicu_locale_for_tag(const char *tag, char *locale, int32_t capacity) {
    UErrorCode status = U_ZERO_ERROR;
    int32_t parsed = 0;
    int32_t length = uloc_forLanguageTag(tag, locale, capacity, &parsed, &status);
    if (U_FAILURE(status) || parsed == 0) return -1;
    return length;
}
