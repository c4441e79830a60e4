#!/usr/bin/python3
"""A fake UPower (Gio) for Tests/BusTests: owns org.freedesktop.UPower and
serves the DisplayDevice's IsPresent, Percentage and State.

usage: fake-upower.py ADDRESS VALUES

VALUES is a file of one line "IS_PRESENT PERCENTAGE STATE" ("true 55 2"),
read again on every Get and GetAll: a test changes the battery by replacing
the file. Runs until killed.
"""
import sys

from gi.repository import Gio, GLib

INTERFACE = Gio.DBusNodeInfo.new_for_xml("""<node>
  <interface name="org.freedesktop.UPower.Device">
    <property name="IsPresent" type="b" access="read"/>
    <property name="Percentage" type="d" access="read"/>
    <property name="State" type="u" access="read"/>
  </interface>
</node>""").interfaces[0]

address, values = sys.argv[1], sys.argv[2]


def get_property(_bus, _sender, _path, _interface, name):
    with open(values) as file:
        present, percentage, state = file.read().split()
    return {"IsPresent": GLib.Variant("b", present == "true"), "Percentage": GLib.Variant("d", float(percentage)),
            "State": GLib.Variant("u", int(state))}[name]


flags = Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION
bus = Gio.DBusConnection.new_for_address_sync(address, flags, None, None)
bus.register_object("/org/freedesktop/UPower/devices/DisplayDevice", INTERFACE, None, get_property, None)
# The name last: once a test sees it owned, the object answers.
Gio.bus_own_name_on_connection(bus, "org.freedesktop.UPower", Gio.BusNameOwnerFlags.NONE, None, None)
GLib.MainLoop().run()
