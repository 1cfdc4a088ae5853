#include "CCallgrind.h"
#if defined(__has_include)
#  if __has_include(<valgrind/callgrind.h>)
#    include <valgrind/callgrind.h>
#    define LB_HAVE_VALGRIND 1
#  endif
#endif

#ifdef LB_HAVE_VALGRIND
int lb_running_on_valgrind(void) { return RUNNING_ON_VALGRIND ? 1 : 0; }
void lb_callgrind_start(void) { CALLGRIND_ZERO_STATS; CALLGRIND_START_INSTRUMENTATION; }
void lb_callgrind_stop(void) { CALLGRIND_STOP_INSTRUMENTATION; }
void lb_callgrind_dump(const char *label) { CALLGRIND_DUMP_STATS_AT(label); }
void lb_callgrind_zero(void) { CALLGRIND_ZERO_STATS; }
void lb_callgrind_toggle_collect(void) { CALLGRIND_TOGGLE_COLLECT; }
#else
int lb_running_on_valgrind(void) { return 0; }
void lb_callgrind_start(void) {}
void lb_callgrind_stop(void) {}
void lb_callgrind_dump(const char *label) { (void)label; }
void lb_callgrind_zero(void) {}
void lb_callgrind_toggle_collect(void) {}
#endif
