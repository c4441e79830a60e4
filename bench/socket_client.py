#!/usr/bin/env python3
"""A state-socket client for the benchmarks: waits (to a deadline) for the
socket file, connects, and reads until tiltd closes the connection.

Usage: socket_client.py SOCKET_PATH [DEADLINE_SECONDS]   (60 by default)
"""
import os
import socket
import sys
import time

path = sys.argv[1]
deadline = time.monotonic() + (float(sys.argv[2]) if len(sys.argv) > 2 else 60)
while not os.path.exists(path):
    if time.monotonic() > deadline:
        sys.exit(f"socket_client.py: {path} never appeared")
    time.sleep(0.01)
client = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
client.connect(path)
while client.recv(65536):
    pass
