#!/usr/bin/env python3
"""A consumer of tiltd that stops reading, for bench/stall.sh.

  stall_peer.py socket PATH     connects to the state socket, never reads
  stall_peer.py dsu PORT        subscribes to DSU slot 0 with a 4 KiB receive
                                buffer, renews every second, never reads
  stall_peer.py sse PORT        asks tiltd serve for /events with a 4 KiB
                                receive buffer, never reads
  stall_peer.py dbus ADDRESS    claims net.tiltd.Tilt on the bus at ADDRESS
                                (unix:path=…) over a raw connection, never
                                reads (so never answers tiltd's Ping)

Prints "ready" once connected or subscribed, then holds on until killed.
"""
import os
import socket
import struct
import sys
import time
import zlib


def dsu_subscription():
    # A client data request for slot 0 (docs/dsu.md): header, CRC over the
    # whole packet with the CRC field zeroed.
    packet = b"DSUC" + struct.pack("<HHIII", 1001, 12, 0, 4343, 0x100002) + bytes(8)
    return packet[:8] + struct.pack("<I", zlib.crc32(packet) & 0xFFFFFFFF) + packet[12:]


def dbus_method_call(serial, destination, path, interface, member, body_signature="", body=b""):
    """A little-endian D-Bus METHOD_CALL message (D-Bus specification,
    "Message Format"): fixed header, header fields a(yv), body."""
    message = bytearray(b"l" + bytes([1, 0, 1]) + struct.pack("<II", len(body), serial))
    message += bytes(4)  # the header fields' array length, filled in below

    def align(boundary):
        while len(message) % boundary:
            message.append(0)

    fields = [(1, "o", path), (2, "s", interface), (3, "s", member), (6, "s", destination)]
    if body_signature:
        fields.append((8, "g", body_signature))
    start = len(message)
    for code, signature, value in fields:
        align(8)
        message += bytes([code, len(signature)]) + signature.encode() + b"\0"
        data = value.encode()
        if signature == "g":
            message += bytes([len(data)]) + data + b"\0"
        else:
            align(4)
            message += struct.pack("<I", len(data)) + data + b"\0"
    struct.pack_into("<I", message, 12, len(message) - start)
    align(8)
    return bytes(message) + body


def dbus_claim(address):
    path = dict(part.split("=", 1) for part in address.split(":", 1)[1].split(","))["path"]
    peer = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    peer.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    peer.connect(path)
    peer.sendall(b"\0AUTH EXTERNAL " + str(os.getuid()).encode().hex().encode() + b"\r\n")
    answer = b""
    while not answer.endswith(b"\r\n"):
        answer += peer.recv(1)
    if not answer.startswith(b"OK"):
        sys.exit(f"stall_peer.py: the bus refused EXTERNAL authentication: {answer!r}")
    peer.sendall(b"BEGIN\r\n")
    peer.sendall(dbus_method_call(1, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "Hello"))
    peer.sendall(dbus_method_call(2, "net.tiltd.Tilt", "/net/tiltd/Tilt", "net.tiltd.Tilt1", "Claim"))
    return peer


def main():
    kind, where = sys.argv[1], sys.argv[2]
    if kind == "socket":
        peer = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        peer.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        peer.connect(where)
        print("ready", flush=True)
        while True:
            time.sleep(3600)
    elif kind == "dsu":
        peer = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        peer.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        request = dsu_subscription()
        print("ready", flush=True)
        while True:
            peer.sendto(request, ("127.0.0.1", int(where)))
            time.sleep(1)
    elif kind == "sse":
        peer = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        peer.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        peer.connect(("127.0.0.1", int(where)))
        peer.sendall(b"GET /events HTTP/1.1\r\nHost: 127.0.0.1:%s\r\n\r\n" % where.encode())
        print("ready", flush=True)
        while True:
            time.sleep(3600)
    elif kind == "dbus":
        peer = dbus_claim(where)
        print("ready", flush=True)
        while True:
            time.sleep(3600)
    else:
        sys.exit(f"stall_peer.py: unknown kind {kind}; use socket, dsu, sse or dbus")


if __name__ == "__main__":
    main()
