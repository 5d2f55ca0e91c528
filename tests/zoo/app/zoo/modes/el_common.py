"""Shared by the el_ modes (not a mode itself)."""

import socket


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main() -> None:
    raise SystemExit("el_common is not a mode")
