#include "CParentDeath.h"

#include <errno.h>
#include <signal.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/prctl.h>
#endif

int rv_die_with_parent(pid_t parent) {
#if defined(__linux__)
    if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0) return -1;
    // The parent may have died between our fork and the request: we were then re-parented
    // (to init or a subreaper), and no signal will come.
    if (getppid() != parent) { errno = ESRCH; return -1; }
    return 0;
#else
    (void)parent;
    errno = ENOSYS;
    return -1;
#endif
}
