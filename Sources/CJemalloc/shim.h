// jemalloc through names that work whether or not the library prefixes its symbols
// (Debian exports plain `mallctl`; Homebrew's build may use `je_mallctl`, which the header maps).
#ifndef LAYOUTBENCH_CJEMALLOC_SHIM_H
#define LAYOUTBENCH_CJEMALLOC_SHIM_H
#include <stddef.h>
#include <stdint.h>
#include <jemalloc/jemalloc.h>

/// mallctl(3) under a stable name.
static inline int lb_mallctl(const char *name, void *oldp, size_t *oldlenp, void *newp, size_t newlen) {
    return mallctl(name, oldp, oldlenp, newp, newlen);
}

/// A volatile read of a per-thread counter pointer returned by "thread.allocatedp".
static inline uint64_t lb_read_counter(const uint64_t *pointer) {
    return *(const volatile uint64_t *)pointer;
}

/// Forces a reference to jemalloc so that the process's allocator is jemalloc.
static inline void *lb_jemalloc_malloc(size_t size) { return malloc(size); }
static inline void lb_jemalloc_free(void *pointer) { free(pointer); }
#endif
