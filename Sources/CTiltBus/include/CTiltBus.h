#ifndef CTILTBUS_H
#define CTILTBUS_H

#include <systemd/sd-bus.h>

/* What the vtable calls back into (Swift's TiltBus fills it in). The
 * callbacks run on the thread that calls sd_bus_process. */
typedef struct tiltbus_handler {
    void *context;
    /* Appends the value of property `name` (its own signature, the variant
     * is already open) to `reply`; returns >= 0, or a negative errno after
     * setting `error`. */
    int (*get_property)(void *context, const char *name, sd_bus_message *reply, sd_bus_error *error);
    /* Handles method `member` of `call` (replying to it); returns >= 0, or a
     * negative errno after setting `error`. */
    int (*call_method)(void *context, const char *member, sd_bus_message *call, sd_bus_error *error);
} tiltbus_handler;

/* Exports net.tiltd.Tilt1's members (see docs/dbus.md) at `path` under
 * `interface`; `handler` must outlive the slot. */
int tiltbus_add_object(sd_bus *bus, sd_bus_slot **slot, const char *path, const char *interface,
                       const tiltbus_handler *handler);

#endif
