#include <sqlite3.h>

// SQLITE_TRANSIENT is a macro casting -1 to a function pointer, which Swift cannot import.
static inline sqlite3_destructor_type bench_sqlite_transient(void) {
    return SQLITE_TRANSIENT;
}

// Marks the measured regions for callgrind (`valgrind --tool=callgrind --collect-atstart=no`):
// a handful of no-op instructions when not running under valgrind. Under `--instr-atstart=no`
// the first region also starts the instrumentation, so a cache simulation (`--cache-sim=yes`)
// of a million-object workload does not simulate its setup.
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
static inline void bench_callgrind_toggle_collect(void) {
    static int instrumenting = 0;
    if (!instrumenting) {
        instrumenting = 1;
        CALLGRIND_START_INSTRUMENTATION;
    }
    CALLGRIND_TOGGLE_COLLECT;
}
#else
static inline void bench_callgrind_toggle_collect(void) {}
#endif

// The bytes malloc has handed out and not had back, small blocks and mapped ones (glibc's
// mallinfo2, which Swift's Glibc module does not export); 0 elsewhere.
#if __has_include(<malloc.h>)
#include <malloc.h>
#endif
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
static inline size_t bench_allocated_bytes(void) {
    struct mallinfo2 info = mallinfo2();
    return info.uordblks + info.hblkhd;
}
#else
#include <stddef.h>
static inline size_t bench_allocated_bytes(void) { return 0; }
#endif
