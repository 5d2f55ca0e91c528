"""Where a LightningModule's hook is that Lightning refused, for `where` (verdict/hook_place.py reads it).

Lightning refuses what a hook of the program returned after the hook has returned: a `training_step` that
returns a float, a `configure_optimizers` whose ReduceLROnPlateau lacks its `monitor`. Its exception names the
hook (`` `training_step` must return a Tensor ``), and its traceback shows Lightning's loop and the program's
`trainer.fit` only: the hook's own code is on no stack. At the uncaught exception crashmatrix
looks, in its traceback's frames, for the program's LightningModule (an object whose class descends from one
named LightningModule), and records the place of each hook the message names that the program's class
defines (`<cell dir>/.stacks/hook-PID.txt`, one `path:line in Class.hook` a line). It is told of the exception
by incell/uncaught.py's audit hook, so no hook of the program's or of Python's is replaced: the program prints
and exits as it does alone. Standard library only.
"""

from __future__ import annotations

import os
import re

from .atomic import write_text_atomic
from .stackdump import dump_dir

PREFIX = "hook-"
# a name in backquotes, as Lightning's messages quote hooks
_QUOTED = re.compile(r"`(\w+)`")


def record(cell_dir: str, value: BaseException, tb) -> None:
    """Where the exception names a hook of the program's LightningModule on its stack, each such hook's place."""
    names = set(_QUOTED.findall(str(value)))
    if not names:
        return
    module = _lightning_module(tb)
    if module is None:
        return
    places = []
    for name in sorted(names):
        code = getattr(getattr(type(module), name, None), "__code__", None)
        if code is not None and "-packages" + os.sep not in code.co_filename:  # the program's, not Lightning's
            owner = next((k.__name__ for k in type(module).__mro__ if name in vars(k)), type(module).__name__)
            places.append(f"{code.co_filename}:{code.co_firstlineno} in {owner}.{name}\n")
    if places:
        os.makedirs(dump_dir(cell_dir), exist_ok=True)
        path = os.path.join(dump_dir(cell_dir), f"{PREFIX}{os.getpid()}.txt")
        write_text_atomic(path, "".join(places), durable=False)


def _lightning_module(tb):
    """The first object in the traceback's frames' locals whose class descends from a LightningModule."""
    while tb is not None:
        for value in list(tb.tb_frame.f_locals.values()):
            if any(k.__name__ == "LightningModule" for k in type(value).__mro__[1:]):
                return value
        tb = tb.tb_next
    return None
