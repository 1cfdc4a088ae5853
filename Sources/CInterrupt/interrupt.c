#include "CInterrupt.h"
#include <stdatomic.h>

static atomic_int interrupting = 0;
static atomic_int starting = 0;

// Either a starter's increment comes first in the single order of these operations, and the
// handler then sees it in flight and waits for it to register its child, or the handler's store
// comes first and the starter sees it and starts nothing.

void lb_interrupt_begin(void) { atomic_store(&interrupting, 1); }

int lb_child_start_enter(void) {
    atomic_fetch_add(&starting, 1);
    if (atomic_load(&interrupting)) {
        atomic_fetch_sub(&starting, 1);
        return 1;
    }
    return 0;
}

void lb_child_start_leave(void) { atomic_fetch_sub(&starting, 1); }

int lb_child_starts_in_flight(void) { return atomic_load(&starting); }
