#!/usr/bin/env python3
"""A consumer of tiltd that stops reading, for bench/stall.sh.

  stall_peer.py socket PATH     connects to the state socket, never reads
  stall_peer.py dsu PORT        subscribes to DSU slot 0 with a 4 KiB receive
                                buffer, renews every second, never reads

Prints "ready" once connected or subscribed, then holds on until killed.
"""
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
    else:
        sys.exit(f"stall_peer.py: unknown kind {kind}; use socket or dsu")


if __name__ == "__main__":
    main()
