"""The program's own sys.excepthook and threading.excepthook: an exception in a thread, then an
uncaught one in the main thread, each reported by the program's hook; exit status 1."""

import sys
import threading


def main_hook(kind, value, tb):
    print(
        f"program's excepthook: {kind.__name__}: {value} (line {tb.tb_next.tb_lineno if tb.tb_next else tb.tb_lineno})",
        file=sys.stderr,
    )


def thread_hook(args):
    print(
        f"program's threading.excepthook: {args.exc_type.__name__}: {args.exc_value} in {args.thread.name}",
        file=sys.stderr,
    )


def fail_in_thread():
    raise RuntimeError("from a thread")


def fail():
    raise LookupError("uncaught in main")


if __name__ == "__main__":
    print(
        "hooks are Python's own:",
        sys.excepthook is sys.__excepthook__,
        threading.excepthook is threading.__excepthook__,
    )
    print("unraisablehook is Python's own:", sys.unraisablehook is sys.__unraisablehook__)
    sys.excepthook = main_hook
    threading.excepthook = thread_hook
    worker = threading.Thread(target=fail_in_thread, name="worker-1")
    worker.start()
    worker.join()
    fail()
