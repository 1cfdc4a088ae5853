// ICU's line break iterator. Its C functions carry the library's version in their symbols
// (ubrk_open_72), through macros Swift cannot call, so CLineBreak wraps them in plain functions.
#include <unicode/ubrk.h>
#include <unicode/utext.h>
