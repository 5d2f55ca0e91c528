"""An error the program's own cleanup raised while its first error unwound (pure; never imports torch).

A `with` block's `__exit__` or a `finally:` body runs as an exception passes through it; if it fails in turn, Python prints the first exception, `During handling of the above exception, another exception
occurred:`, then the cleanup's, last. The last line is then the cleanup's bug (a report that cannot serialise a
datetime, a file closed twice), met on the way out; the run stopped on the first. Set 87's gc_exit_report_masks:
`RuntimeError: Class values must be smaller than num_classes.` in a training step, then the step's failure
report's `__exit__` failing on `json.dumps` of a datetime. Set 81's close call: a `finally:` whose flush failed.

A finalizer of the program's (a `weakref.finalize` callback) that failed before the run's failure is told first the
same way: Python printed it under `Exception ignored in: ...` and went on, and the program then failed on
what the finalizer never did (set 87's gc_finalizer_order_index: its index writer's finalizer found its folder
already removed by a TemporaryDirectory's, so no index was published, and the main's lookup raised KeyError).

Not an `except` body: a program that catches an error expects it (a review's `except StopIteration:` that closed a
writer, and a fallback whose own `finally:` failed), and what its handler raises (a fallback import
that fails too, `raise ValueError(...)` in place of a KeyError) is its own report. Not a `raise` statement, even in a
cleanup: re-raising as another error is a choice. Not after an exception that ends something on purpose
(SystemExit, StopIteration, KeyboardInterrupt): the cleanup's error is then the failure. A library's own cleanup masking an error inside one library call
is classify's _masked_in_cleanup.
"""

from __future__ import annotations

import ast
import functools
import re

from crashmatrix.verdict.parsed import Traceback, read_output
from crashmatrix.verdict.stacks import is_programs

DURING_HANDLING = "During handling of the above exception, another exception occurred:"
# a deliberate report in the cleanup: its own error, not a bug met on the way out
_DELIBERATE = ("raise", "assert")
# exceptions that end a loop, a generator or the program on purpose: a cleanup's error after one is the failure
_CONTROL_FLOW = frozenset({"SystemExit", "StopIteration", "StopAsyncIteration", "GeneratorExit", "KeyboardInterrupt"})


def masked_by_own_cleanup(stderr: str, line: str) -> str:
    """The exception line of the first error where the failing one (line, printed last) was raised by the program's
    own cleanup while that first one unwound; "" otherwise. The cleanup is told where the two stacks meet: the
    innermost frame of the failing stack in a function the first one passed through, at a `with` statement's line
    (its `__exit__`) or in a `finally:` body; not in an `except` body (a review's `except StopIteration:` that
    closed a writer, and a fallback whose own `finally:` failed, were told by the error they had handled)."""
    printed = [t for t in read_output(stderr).tracebacks if t.on_own_line and not t.ignored]
    if len(printed) < 2 or printed[-1].exception != line:
        return ""
    # a process pool's re-raise in the main (Pool.map, ProcessPoolExecutor): the child's own chain, printed in the
    # quotes of its RemoteTraceback just before, is where its first error and its cleanup's meet
    while len(printed) >= 3 and _re_raised_from_the_pool(stderr, printed[-2], printed[-1]):
        printed = printed[:-1]
    failing, first = printed[-1], printed[-2]
    if DURING_HANDLING not in stderr[first.at : failing.start] or not first.exception or first.chained:
        return ""
    if first.type.rsplit(".", 1)[-1] in _CONTROL_FLOW:
        return ""
    own = [c for c in failing.calls if is_programs(c.frame())]
    if not own or own[-1].code.startswith(_DELIBERATE):
        return ""
    unwound = {(c.path, c.function) for c in first.calls}
    # the program's own frames: a library function both passed through (wave's header check, raised by the write
    # and again by the close in `__exit__`) is no place the program's code met its own cleanup
    meet = next((c for c in reversed(own) if (c.path, c.function) in unwound), None)
    if meet is None or not meet.lineno.isdigit():
        return ""
    # the source as it is now; where it cannot be read (a log from another machine), the line Python printed under
    # the frame still shows a `with` statement's head
    kind = _block_at(meet.path, int(meet.lineno)) or ("with" if _WITH_HEAD.match(meet.code) else "")
    return first.exception if kind in ("with", "finally") else ""


_WITH_HEAD = re.compile(r"(?:async\s+)?with\b")
_DIRECT_CAUSE = "The above exception was the direct cause of the following exception:"
_REMOTE_QUOTES_END = re.compile(r'^"""$', re.M)


def _re_raised_from_the_pool(stderr: str, remote: Traceback, main: Traceback) -> bool:
    """Whether main is a process pool's re-raise of remote, the child's traceback it printed quoted just before."""
    between = stderr[remote.at : main.start]
    return remote.exception == main.exception and _DIRECT_CAUSE in between and bool(_REMOTE_QUOTES_END.search(between))


def _block_at(path: str, line: int) -> str:
    """ "with" where the line is a `with` statement's own, "finally" or "except" where it lies in such a body (the
    innermost), "" otherwise or where the file cannot be read."""
    found, depth = "", -1
    for start, end, kind, level in _blocks(path):
        if start <= line <= end and level > depth:
            found, depth = kind, level
    return found


@functools.lru_cache(maxsize=64)
def _blocks(path: str) -> tuple[tuple[int, int, str, int], ...]:
    """(first line, last line, kind, nesting depth) of each `with` statement's head, `finally:` body and `except`
    body of the file (read as it is now)."""
    try:
        with open(path, encoding="utf-8") as f:
            tree = ast.parse(f.read())
    except (OSError, SyntaxError, ValueError, UnicodeDecodeError):
        return ()
    found: list[tuple[int, int, str, int]] = []

    def walk(node: ast.AST, depth: int) -> None:
        if isinstance(node, (ast.With, ast.AsyncWith)):
            head_end = node.body[0].lineno - 1 if node.body else node.lineno
            found.append((node.lineno, max(node.lineno, head_end), "with", depth))
        if isinstance(node, ast.ExceptHandler) and node.body:
            found.append((node.body[0].lineno, _last_line(node.body), "except", depth))
        final = getattr(node, "finalbody", None)
        if final:
            found.append((final[0].lineno, _last_line(final), "finally", depth))
        for child in ast.iter_child_nodes(node):
            walk(child, depth + 1)

    walk(tree, 0)
    return tuple(found)


def _last_line(body: list) -> int:
    return max(getattr(n, "end_lineno", None) or n.lineno for n in body)


# a weakref.finalize callback's: work the program gave it to do (publish an index, flush a log). Not a `__del__`'s,
# which fails as often as noise (an AttributeError in the `__del__` of an object whose `__init__` had failed, which
# the program handled: a review's program)
_FINALIZE_IGNORED = "Exception ignored in: <finalize object"
# how an error tells it (classify): what the place is read from (exception_place)
FINALIZER_FIRST = "in a finalizer, which Python ignored, first"


def finalizer_failed_first(stderr: str, line: str) -> str:
    """The exception line of the first error a weakref.finalize callback of the program's raised and Python ignored
    (`Exception ignored in: <finalize object ...>`, its traceback through the program's own frames), printed before
    the failing one (line, printed last); "" otherwise."""
    tracebacks = read_output(stderr).tracebacks
    failing = [t for t in tracebacks if t.on_own_line and not t.ignored and t.exception == line]
    if not failing:
        return ""
    for each in tracebacks:
        if each.at >= failing[-1].at:
            break
        said = stderr[: each.start].rstrip("\n").rpartition("\n")[2]
        if each.ignored and said.startswith(_FINALIZE_IGNORED) and each.exception:
            if any(is_programs(c.frame()) for c in each.calls):
                return each.exception
    return ""
