#ifndef TILTD_CPLATFORM_SHIM_H
#define TILTD_CPLATFORM_SHIM_H
#include <sys/prctl.h>

/// Names the calling thread (at most 15 bytes kept; 0 or -1 and errno), as
/// pthread_setname_np does for the calling thread: `prctl` is variadic and
/// pthread_setname_np needs _GNU_SOURCE, so Swift can import neither. Used
/// only by Platform's DetachedThread.
static inline int tiltd_name_this_thread(const char *name) { return prctl(PR_SET_NAME, name, 0, 0, 0); }
#endif
