// Callgrind client requests behind plain functions, so Swift can bracket a measured region.
// Outside valgrind (or without valgrind's headers) every call is a cheap no-op.
#ifndef LAYOUTBENCH_CCALLGRIND_H
#define LAYOUTBENCH_CCALLGRIND_H

/// Non-zero when the process runs under valgrind.
int lb_running_on_valgrind(void);
/// CALLGRIND_ZERO_STATS then CALLGRIND_START_INSTRUMENTATION.
void lb_callgrind_start(void);
/// CALLGRIND_STOP_INSTRUMENTATION.
void lb_callgrind_stop(void);
/// CALLGRIND_DUMP_STATS_AT(label): writes the counts since the last zeroing under that name.
void lb_callgrind_dump(const char *label);
/// CALLGRIND_ZERO_STATS.
void lb_callgrind_zero(void);
/// CALLGRIND_TOGGLE_COLLECT.
void lb_callgrind_toggle_collect(void);
#endif
