#ifndef TILTD_CLIBEVDEV_SHIM_H
#define TILTD_CLIBEVDEV_SHIM_H
#include <libevdev/libevdev.h>
#include <linux/input.h>
#include <poll.h>
#include <errno.h>
#include <sys/ioctl.h>
#include <time.h>

/// The seconds and microseconds of an input event's time. `input_event_sec`
/// and `input_event_usec` are macros over the struct's fields (their layout
/// differs between 32- and 64-bit time_t), which Swift cannot import.
static inline long long tiltd_input_event_microseconds(const struct input_event *event) {
    return (long long)event->input_event_sec * 1000000LL + (long long)event->input_event_usec;
}

/// An absolute axis's current value (EVIOCGABS, a macro Swift cannot
/// import); 0, or -errno when the ioctl fails.
static inline int tiltd_abs_value(int fd, unsigned int code, int *value) {
    struct input_absinfo info;
    if (ioctl(fd, EVIOCGABS(code), &info) < 0) return -errno;
    *value = info.value;
    return 0;
}
#endif
