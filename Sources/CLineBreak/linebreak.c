#include "CLineBreak.h"
#include <stdlib.h>
#include <unicode/ubrk.h>
#include <unicode/utext.h>
#include <unicode/uversion.h>

typedef struct {
    UBreakIterator *breaks;
    UText *text;
} lb_iterator;

void *lb_linebreak_open(int32_t *status) {
    UErrorCode error = U_ZERO_ERROR;
    UBreakIterator *breaks = ubrk_open(UBRK_LINE, "", NULL, 0, &error);
    if (U_FAILURE(error)) { *status = (int32_t)error; return NULL; }
    lb_iterator *it = malloc(sizeof(lb_iterator));
    if (!it) { ubrk_close(breaks); *status = (int32_t)U_MEMORY_ALLOCATION_ERROR; return NULL; }
    it->breaks = breaks;
    it->text = NULL;
    *status = 0;
    return it;
}

int32_t lb_linebreak_set_text(void *iterator, const uint8_t *text, int64_t length) {
    lb_iterator *it = iterator;
    UErrorCode error = U_ZERO_ERROR;
    static const char empty = 0;
    // Reuses the UText (no allocation once open).
    it->text = utext_openUTF8(it->text, length ? (const char *)text : &empty, length, &error);
    if (U_FAILURE(error)) return (int32_t)error;
    ubrk_setUText(it->breaks, it->text, &error);
    if (U_FAILURE(error)) return (int32_t)error;
    ubrk_first(it->breaks);
    return 0;
}

int32_t lb_linebreak_next(void *iterator, int32_t *hard) {
    lb_iterator *it = iterator;
    int32_t position = ubrk_next(it->breaks);
    if (position == UBRK_DONE) { *hard = 0; return -1; }
    int32_t status = ubrk_getRuleStatus(it->breaks);
    *hard = status >= UBRK_LINE_HARD && status < UBRK_LINE_HARD_LIMIT;
    return position;
}

void lb_linebreak_close(void *iterator) {
    lb_iterator *it = iterator;
    if (!it) return;
    ubrk_close(it->breaks);
    if (it->text) utext_close(it->text);
    free(it);
}

const char *lb_icu_version(void) { return U_ICU_VERSION; }
