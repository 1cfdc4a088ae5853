// What a signal handler and the threads that start child processes agree on without a lock (a
// handler may not take one): whether the process is being interrupted, and how many children are
// being started right now. Lock-free C11 atomics, sequentially consistent, so async-signal-safe.
#ifndef LAYOUTBENCH_CINTERRUPT_H
#define LAYOUTBENCH_CINTERRUPT_H

/// The handler's first step: from now on no child starts.
void lb_interrupt_begin(void);
/// Before a child is started: 0 when it may start (it is then counted until
/// `lb_child_start_leave`), non-zero when the process is being interrupted (nothing counted).
int lb_child_start_enter(void);
/// After the started child is registered for the handler to end (or the start failed).
void lb_child_start_leave(void);
/// How many children are being started (entered, not yet left).
int lb_child_starts_in_flight(void);
#endif
