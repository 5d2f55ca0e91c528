"""A native library's cleanup that faults, as a C++ destructor run by exit() does: it runs after Python's
finalisation (C's exit handlers), where no Python frame and no faulthandler are left. libc's strlen given
NULL stands in for the destructor (a real SIGSEGV, in libc.so.6)."""

import ctypes

_LIBC = ctypes.CDLL(None)


def register_faulting_cleanup() -> None:
    """exit() will call strlen(NULL) after everything Python runs at exit."""
    _LIBC.__cxa_atexit(_LIBC.strlen, None, None)


def fault_now() -> None:
    """The same fault mid-run: strlen(NULL) now."""
    _LIBC.strlen(None)
