#include <sqlite3.h>

// SQLITE_TRANSIENT is a macro casting -1 to a function pointer, which Swift cannot import.
static inline sqlite3_destructor_type bench_sqlite_transient(void) {
    return SQLITE_TRANSIENT;
}

// Marks the measured regions for callgrind (`valgrind --tool=callgrind --collect-atstart=no`):
// a handful of no-op instructions when not running under valgrind.
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
static inline void bench_callgrind_toggle_collect(void) {
    CALLGRIND_TOGGLE_COLLECT;
}
#else
static inline void bench_callgrind_toggle_collect(void) {}
#endif
