#ifndef TILTD_CLIBIIO_SHIM_H
#define TILTD_CLIBIIO_SHIM_H
#include <iio.h>
#include <libudev.h>
#include <errno.h>

/// errno after a failed libiio call that reports failure only through a
/// NULL return (iio_create_context_from_uri, iio_device_create_buffer).
/// `errno` is a macro over a thread-local lvalue, which Swift cannot import.
static inline int tiltd_errno(void) { return errno; }

/// Clears errno before a call whose NULL return is only an error when errno
/// is set afterwards.
static inline void tiltd_clear_errno(void) { errno = 0; }

#endif
