#!/usr/bin/env python3
"""Clients that try to make tiltd hold memory (bench/bounds.sh).

  bounds_client.py ws PORT       one unfinished WebSocket message of up to
                                 64 MiB of continuation frames; prints the
                                 bytes the server took before closing
  bounds_client.py stall PATH S  connects to the --listen socket with a 4 KiB
                                 receive buffer and reads nothing for S seconds
"""
import os
import socket
import struct
import sys
import time


def frame(opcode, payload):
    # Client frames are masked (RFC 6455 5.3); a zero mask keeps the payload as is.
    head = bytes([opcode, 0x80 | 127]) + struct.pack(">Q", len(payload)) + b"\0\0\0\0"
    return head + payload


def websocket(port):
    s = socket.create_connection(("127.0.0.1", port))
    s.sendall(("GET /ws HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
               "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
               "Origin: http://127.0.0.1:%d\r\n\r\n" % (port, port)).encode())
    s.recv(4096)
    chunk, sent = b"x" * (64 << 10), 0
    try:
        while sent < 64 << 20:
            s.sendall(frame(0x1 if sent == 0 else 0x0, chunk))
            sent += len(chunk)
    except OSError:
        pass
    print(sent)


def stall(path, seconds):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    s.connect(path)
    time.sleep(float(seconds))


if __name__ == "__main__":
    {"ws": lambda: websocket(int(sys.argv[2])), "stall": lambda: stall(sys.argv[2], sys.argv[3])}[sys.argv[1]]()
