// ICU's UAX #14 line break iterator behind plain functions (ICU's own names are version-renamed
// macros, which Swift cannot call). The text is UTF-8; every offset is a byte offset.
#ifndef LAYOUTBENCH_CLINEBREAK_H
#define LAYOUTBENCH_CLINEBREAK_H
#include <stdint.h>

/// A line break iterator for the root locale, or NULL (then *status is ICU's error code).
void *lb_linebreak_open(int32_t *status);
/// Points the iterator at `length` bytes of UTF-8 at `text` (which must outlive its use).
/// Returns ICU's error code (0 when it succeeded; negative codes are warnings).
int32_t lb_linebreak_set_text(void *iterator, const uint8_t *text, int64_t length);
/// The next break opportunity after the current one (a byte offset), or -1 at the end.
/// `*hard` is 1 when the break is mandatory (after a line feed, a paragraph separator...).
int32_t lb_linebreak_next(void *iterator, int32_t *hard);
void lb_linebreak_close(void *iterator);
/// ICU's version, "72.1".
const char *lb_icu_version(void);
#endif
