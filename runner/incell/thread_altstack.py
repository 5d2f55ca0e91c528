"""A signal stack for every thread the program starts, so that faulthandler can say where a thread's C stack
overflowed.

Faulthandler runs its SIGSEGV handler on an alternate stack (SA_ONSTACK), but CPython gives only the thread
that enabled it one. A thread that overflows its own stack (deep recursion with a raised recursion limit, in a
thread whose stack is smaller than the main's) enters the handler on the stack that just ran out, faults
again, and dies silently: exit by SIGSEGV, an empty stderr, no place. With a stack of its own the handler
prints the thread's frames, as it does for the main thread alone.

How it is given, so the program behaves as it does alone: threading's profile hook (what
`threading.setprofile` sets, called once as each new thread starts) gives the thread its signal stack and
takes itself off that thread at once; the program's own `threading.setprofile`, if it calls one, replaces
it. A stack is freed with its thread (a thread-local buffer): nothing grows with the number of threads a
program starts and ends (a DataLoader's pin-memory thread each epoch). Standard library only
(incell/__init__.py); Linux's sigaltstack through ctypes, and nothing where it is not there.
"""

from __future__ import annotations

import ctypes
import sys
import threading

# Faulthandler's dump of 100 frames a thread fits in a few KiB; glibc's own minimum is far below this.
STACK_BYTES = 256 * 1024

_kept = threading.local()  # each thread's buffer, freed with the thread


class _StackT(ctypes.Structure):
    _fields_ = [("ss_sp", ctypes.c_void_p), ("ss_flags", ctypes.c_int), ("ss_size", ctypes.c_size_t)]


def install() -> None:
    """Give every thread started from now on its own signal stack (Linux only; a no-op elsewhere)."""
    if not sys.platform.startswith("linux") or threading.current_thread() is not threading.main_thread():
        return
    try:
        sigaltstack = ctypes.CDLL(None, use_errno=True).sigaltstack
    except (OSError, AttributeError):
        return
    sigaltstack.argtypes = [ctypes.POINTER(_StackT), ctypes.POINTER(_StackT)]

    def first_event(frame, event, arg):
        sys.setprofile(None)  # once, as the thread starts: no cost on its calls
        buffer = ctypes.create_string_buffer(STACK_BYTES)
        if sigaltstack(ctypes.byref(_StackT(ctypes.addressof(buffer), 0, STACK_BYTES)), None) == 0:
            _kept.buffer = buffer

    threading.setprofile(first_event)
