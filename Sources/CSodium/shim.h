#ifndef CSODIUM_SHIM_H
#define CSODIUM_SHIM_H
#include <sodium.h>
#include <sys/prctl.h>
#include <sys/resource.h>

/// Keeps secrets out of core dumps: RLIMIT_CORE 0 (soft and hard) and
/// PR_SET_DUMPABLE 0 (no core, no ptrace by other processes of the user).
/// prctl is variadic, so Swift cannot call it directly. Returns 0 when both
/// took effect, -1 otherwise (errno set).
static inline int csodium_disable_core_dumps(void) {
    struct rlimit none = { 0, 0 };
    int limited = setrlimit(RLIMIT_CORE, &none);
    int undumpable = prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
    return (limited == 0 && undumpable == 0) ? 0 : -1;
}

/// prctl(PR_GET_DUMPABLE): 1 when this process may dump core, 0 when not.
static inline int csodium_process_is_dumpable(void) {
    return prctl(PR_GET_DUMPABLE, 0, 0, 0, 0);
}
#endif
