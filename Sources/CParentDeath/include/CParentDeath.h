#ifndef C_PARENT_DEATH_H
#define C_PARENT_DEATH_H

#include <sys/types.h>

/// Asks the kernel to send this process SIGKILL when its parent dies (Linux's
/// PR_SET_PDEATHSIG; prctl is variadic, so Swift cannot call it), then checks that the
/// parent is still `parent`: if it died before the request, the signal will never come.
/// Returns 0 when the process will die with `parent`, -1 if that parent is already gone or
/// the system has no such request (errno says which).
int rv_die_with_parent(pid_t parent);

#endif
