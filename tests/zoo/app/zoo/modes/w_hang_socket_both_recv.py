"""A metrics client and its server thread on a local socket: the server waits for the client's hello before it
sends its banner, and the client waits for the banner before it says hello, so both sit in recv() forever."""

import socket
import threading


def serve(listener: socket.socket) -> None:
    conn, _ = listener.accept()
    hello = conn.recv(64)
    conn.sendall(b"metrics-server 1.0\n" if hello else b"")


def main() -> None:
    listener = socket.create_server(("127.0.0.1", 0))
    threading.Thread(target=serve, args=(listener,), daemon=True).start()
    client = socket.create_connection(listener.getsockname())
    banner = client.recv(64)
    client.sendall(b"hello\n")
    print(f"server says {banner!r}")
