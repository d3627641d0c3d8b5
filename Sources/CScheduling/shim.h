#ifndef CSCHEDULING_SHIM_H
#define CSCHEDULING_SHIM_H
#include <stddef.h>
#include <sys/types.h>
/// Linux's processor placement calls, which glibc declares only with _GNU_SOURCE (not set
/// for Swift's Glibc): the processor the calling thread runs on, and the set of processors
/// a thread may run on (a bit mask of `size` bytes; pid 0 is the calling thread).
int sched_getcpu(void);
int sched_getaffinity(pid_t pid, size_t size, void *mask);
int sched_setaffinity(pid_t pid, size_t size, const void *mask);
#endif
