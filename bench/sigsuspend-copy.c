/* For bench/request-cost only (LD_PRELOAD under valgrind 3.19): libdispatch passes sigsuspend a
   signal mask in read-only memory, and valgrind 3.19 edits that mask in place before the call, so
   it crashes itself ("VALGRIND INTERNAL ERROR ... sys_rt_sigsuspend"). A copy on the stack avoids it. */
#define _GNU_SOURCE
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

int sigsuspend(const sigset_t *mask) {
    sigset_t copy = *mask;
    return (int) syscall(SYS_rt_sigsuspend, &copy, _NSIG / 8);
}
