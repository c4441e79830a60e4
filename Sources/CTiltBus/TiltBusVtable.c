/* The sd-bus vtable of net.tiltd.Tilt1. sd-bus describes an interface with
 * macros that expand to static tables, which Swift cannot import, so the
 * table lives here and forwards every member to a tiltbus_handler. */
#include "CTiltBus.h"

static int tiltbus_get(sd_bus *bus, const char *path, const char *interface, const char *property,
                       sd_bus_message *reply, void *userdata, sd_bus_error *error) {
    (void)bus; (void)path; (void)interface;
    const tiltbus_handler *handler = userdata;
    return handler->get_property(handler->context, property, reply, error);
}

static int tiltbus_call(sd_bus_message *call, void *userdata, sd_bus_error *error) {
    const tiltbus_handler *handler = userdata;
    return handler->call_method(handler->context, sd_bus_message_get_member(call), call, error);
}

/* Every property may change (the device comes and goes, states move), and
 * each change is announced with PropertiesChanged (to claimants only). */
#define TILTBUS_PROPERTY(name, signature) \
    SD_BUS_PROPERTY(name, signature, tiltbus_get, 0, SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE)

static const sd_bus_vtable tiltbus_vtable[] = {
    SD_BUS_VTABLE_START(0),
    SD_BUS_METHOD("Claim", "", "", tiltbus_call, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD("Release", "", "", tiltbus_call, SD_BUS_VTABLE_UNPRIVILEGED),
    TILTBUS_PROPERTY("HasAccelerometer", "b"),
    TILTBUS_PROPERTY("HasGyroscope", "b"),
    TILTBUS_PROPERTY("Orientation", "s"),
    TILTBUS_PROPERTY("Tilt", "s"),
    TILTBUS_PROPERTY("Roll", "d"),
    TILTBUS_PROPERTY("Pitch", "d"),
    TILTBUS_PROPERTY("Shine", "a(dd)"),
    TILTBUS_PROPERTY("Timestamp", "t"),
    TILTBUS_PROPERTY("Device", "s"),
    TILTBUS_PROPERTY("Facing", "s"),
    /* The device motion while a gyro is fused (empty arrays and false without). */
    TILTBUS_PROPERTY("Attitude", "ad"),
    TILTBUS_PROPERTY("Gravity", "ad"),
    TILTBUS_PROPERTY("UserAcceleration", "ad"),
    TILTBUS_PROPERTY("RotationRate", "ad"),
    TILTBUS_PROPERTY("Rest", "b"),
    TILTBUS_PROPERTY("GyroBias", "ad"),
    SD_BUS_VTABLE_END
};

int tiltbus_add_object(sd_bus *bus, sd_bus_slot **slot, const char *path, const char *interface,
                       const tiltbus_handler *handler) {
    return sd_bus_add_object_vtable(bus, slot, path, interface, tiltbus_vtable, (void *)handler);
}
