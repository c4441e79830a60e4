#ifndef TILTD_CLIBIIO_SHIM_H
#define TILTD_CLIBIIO_SHIM_H
#include <iio.h>
#include <libudev.h>
#include <errno.h>
#include <sys/prctl.h>

/// errno after a failed libiio call that reports failure only through a
/// NULL return (iio_create_context_from_uri, iio_device_create_buffer).
/// `errno` is a macro over a thread-local lvalue, which Swift cannot import.
static inline int tiltd_errno(void) { return errno; }

/// Clears errno before a call whose NULL return is only an error when errno
/// is set afterwards.
static inline void tiltd_clear_errno(void) { errno = 0; }

/// Names the calling thread (at most 15 bytes kept; 0 or -1 and errno), as
/// pthread_setname_np does for the calling thread: `prctl` is variadic and
/// pthread_setname_np needs _GNU_SOURCE, so Swift can import neither. Here
/// for Sensors' DetachedThread, whose capture threads read through libiio.
static inline int tiltd_name_this_thread(const char *name) { return prctl(PR_SET_NAME, name, 0, 0, 0); }
#endif
