#ifndef CICU_H
#define CICU_H
// ICU's collators (Debian: libicu-dev), the library PostgreSQL's ICU collations are: a text's
// sort key under a collation, as the server orders it. The ICU headers stay in collator.c:
// Foundation carries an ICU of its own whose C types would clash with the system's in Swift,
// and ICU's names are macros that add the library's version (ucol_open → ucol_open_72), which
// Swift does not import. So these functions, with opaque types, are all Swift sees.
#include <stdint.h>

/// An ICU collator.
typedef struct CICUCollator CICUCollator;

/// A collator for an ICU locale ID (`en_US`, `de@collation=phonebook`); NULL when it cannot be made.
CICUCollator *_Nullable cicu_collator_open(const char *_Nonnull locale);

/// Closes a collator.
void cicu_collator_close(CICUCollator *_Nonnull collator);

/// The sort key of `length` UTF-16 units into `key`: its length with the final zero byte; more
/// than `capacity` means `key` was too small (call again with that much).
int32_t cicu_sort_key(const CICUCollator *_Nonnull collator, const uint16_t *_Nullable text, int32_t length,
                      uint8_t *_Nullable key, int32_t capacity);

/// The ICU locale ID of a BCP 47 language tag (`en-US` → `en_US`, `und-u-ks-level2` →
/// `@colstrength=secondary`) into `locale`; its length, or -1 when the tag cannot be read.
int32_t cicu_locale_for_tag(const char *_Nonnull tag, char *_Nonnull locale, int32_t capacity);
#endif
