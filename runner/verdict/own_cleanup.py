"""An error the program's own cleanup raised while its first error unwound (pure; never imports torch).

A `with` block's `__exit__`, a `close()`, a `__del__` or a `finally:` body runs as an exception passes through it; if
it fails in turn, Python prints the first exception, `During handling of the above exception, another exception
occurred:`, then the cleanup's, last. The last line is then the cleanup's bug (a report that cannot serialise a
datetime, a file closed twice), met on the way out; the run stopped on the first. Set 87's gc_exit_report_masks:
`RuntimeError: Class values must be smaller than num_classes.` in a training step, then the step's failure
report's `__exit__` failing on `json.dumps` of a datetime. Set 81's close call: a `finally:` whose flush failed.

A finalizer of the program's (a `weakref.finalize` callback, a `__del__`) that failed before the run's failure is told
first the same way: Python printed it under `Exception ignored in: ...` and went on, and the program then failed on
what the finalizer never did (set 87's gc_finalizer_order_index: its index writer's finalizer found its folder
already removed by a TemporaryDirectory's, so no index was published, and the main's lookup raised KeyError).

Not an `except` body: a program that catches an error expects it, and what its handler raises (a fallback import
that fails too, `raise ValueError(...)` in place of a KeyError) is its own report. Not a `raise` statement, even in a
cleanup: re-raising as another error is a choice. A library's own cleanup masking an error inside one library call
is classify's _masked_in_cleanup.
"""

from __future__ import annotations

import ast
import functools

from crashmatrix.verdict.parsed import read_output
from crashmatrix.verdict.stacks import is_programs

DURING_HANDLING = "During handling of the above exception, another exception occurred:"
# the functions a `with` block or an object's end runs as an exception unwinds through them
_CLEANUP_FUNCTIONS = frozenset({"__exit__", "__aexit__", "close", "__del__"})
# a deliberate report in the cleanup: its own error, not a bug met on the way out
_DELIBERATE = ("raise", "assert")


def masked_by_own_cleanup(stderr: str, line: str) -> str:
    """The exception line of the first error where the failing one (line, printed last) was raised by the program's
    own cleanup while that first one unwound; "" otherwise."""
    printed = [t for t in read_output(stderr).tracebacks if t.on_own_line and not t.ignored]
    if len(printed) < 2 or printed[-1].exception != line:
        return ""
    failing, first = printed[-1], printed[-2]
    if DURING_HANDLING not in stderr[first.at : failing.start] or not first.exception or first.chained:
        return ""
    own = [c for c in failing.calls if is_programs(c.frame())]
    if not own or own[-1].code.startswith(_DELIBERATE):
        return ""
    # the cleanup: a frame of the program's on the failing stack (an `__exit__` that called json.dumps, a `finally:`
    # line that called the program's own flush)
    if any(c.function in _CLEANUP_FUNCTIONS or _in_finally(c.path, c.lineno) for c in own):
        return first.exception
    return ""


def _in_finally(path: str, lineno: str) -> bool:
    """Whether the line lies in a `finally:` body of the file's source (read as it is now)."""
    if not lineno.isdigit():
        return False
    n = int(lineno)
    return any(start <= n <= end for start, end in _finally_bodies(path))


@functools.lru_cache(maxsize=64)
def _finally_bodies(path: str) -> tuple[tuple[int, int], ...]:
    try:
        with open(path, encoding="utf-8") as f:
            tree = ast.parse(f.read())
    except (OSError, SyntaxError, ValueError, UnicodeDecodeError):
        return ()
    found = []
    for node in ast.walk(tree):
        body = getattr(node, "finalbody", None)
        if body:
            found.append((body[0].lineno, max(getattr(n, "end_lineno", n.lineno) or n.lineno for n in body)))
    return tuple(found)


_IGNORED_IN = "Exception ignored in: "
# how an error tells it (classify): what the place is read from (exception_place)
FINALIZER_FIRST = "in a finalizer, which Python ignored, first"


def finalizer_failed_first(stderr: str, line: str) -> str:
    """The exception line of the first error a finalizer of the program's raised and Python ignored (`Exception
    ignored in: <finalize object ...>`, its traceback through the program's own frames), printed before the failing
    one (line, printed last); "" otherwise."""
    tracebacks = read_output(stderr).tracebacks
    failing = [t for t in tracebacks if t.on_own_line and not t.ignored and t.exception == line]
    if not failing:
        return ""
    for each in tracebacks:
        if each.at >= failing[-1].at:
            break
        said = stderr[: each.start].rstrip("\n").rpartition("\n")[2]
        if each.ignored and said.startswith(_IGNORED_IN) and each.exception:
            if any(is_programs(c.frame()) for c in each.calls):
                return each.exception
    return ""
