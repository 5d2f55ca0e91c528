"""Run a callback right after a module is imported, without ever importing it early.

stackdump (torch's fatal-signal handler), knobs (torch's knobs under inject) and injection (the
DataLoader patch) all wait this way. They share one finder on sys.meta_path: with a finder each, one
could look a name up through another's hook half-way, a re-entrant search that raises KeyError.
"""

from __future__ import annotations

import sys
import time


def _run(callbacks: list, module) -> None:
    for callback, on_error in callbacks:
        try:
            callback(module)
        except Exception as e:  # the program must start whatever happens to a callback
            on_error(module, e)


def _give_back(module, wrapper, loader) -> None:
    """The module keeps the loader it has without us (its __loader__ and __spec__.loader): a wrapper only had
    to be asked to run it."""
    if getattr(module, "__spec__", None) is not None and module.__spec__.loader is wrapper:
        module.__spec__.loader = loader
    if getattr(module, "__loader__", None) is wrapper:
        module.__loader__ = loader


class _RunAfter:
    """A module loader that runs the waiting callbacks once the module has executed."""

    def __init__(self, loader, callbacks: list):
        self._loader = loader
        self._callbacks = callbacks

    def create_module(self, spec):
        return self._loader.create_module(spec)

    def exec_module(self, module):
        _give_back(module, self, self._loader)
        self._loader.exec_module(module)
        _run(self._callbacks, module)

    def __getattr__(self, name):
        return getattr(self._loader, name)


ALWAYS_TIMED = frozenset({"torch"})


class _Timed:
    """A module loader that tells how long an outermost import took (time_outermost)."""

    def __init__(self, loader, finder: _AfterImport, name: str):
        self._loader, self._finder, self._name = loader, finder, name

    def create_module(self, spec):
        return self._loader.create_module(spec)

    def exec_module(self, module):
        _give_back(module, self, self._loader)
        self._finder.depth += 1
        began = time.perf_counter()
        try:
            self._loader.exec_module(module)
        finally:
            self._finder.depth -= 1
            record = self._finder.timing
            if record is not None:
                # a nested one is told as within the one around it
                record(self._name if self._finder.depth == 0 else f"{self._name} (within)", time.perf_counter() - began)

    def __getattr__(self, name):
        return getattr(self._loader, name)


class _AfterImport:
    """A meta path finder that watches a few module names and never imports anything itself."""

    def __init__(self):
        self.waiting: dict[str, list] = {}
        self.timing = None  # record(name, seconds) of each outermost import, where asked (time_outermost)
        self.depth = 0  # outermost imports running

    def find_spec(self, name, path, target=None):
        # Taken before searching: another finder may look the same name up again (re-entrantly),
        # and the callbacks must run once.
        callbacks = self.waiting.pop(name, None)
        # outermost imports, and torch's wherever it is made (inside pytorch_lightning's, say)
        timed = self.timing is not None and (self.depth == 0 and "." not in name or name in ALWAYS_TIMED)
        if callbacks is None and not timed:
            return None
        for finder in sys.meta_path:
            find = getattr(finder, "find_spec", None)
            if finder is self or find is None:
                continue
            spec = find(name, path, target)
            if spec is not None:
                break
        else:
            if callbacks is not None:
                self.waiting[name] = callbacks
            return None
        if spec.loader is not None and hasattr(spec.loader, "exec_module"):
            if callbacks is not None:
                spec.loader = _RunAfter(spec.loader, callbacks)
            if timed:
                spec.loader = _Timed(spec.loader, self, name)
        return spec


def _finder() -> _AfterImport:
    for finder in sys.meta_path:
        if isinstance(finder, _AfterImport):
            return finder
    finder = _AfterImport()
    sys.meta_path.insert(0, finder)
    return finder


def after_import(name: str, callback, on_error) -> None:
    """callback(module) right after `name` is imported (now, if it already is); on_error(module,
    exception) if it raises. Callbacks for one name run in the order they were given."""
    module = sys.modules.get(name)
    if module is not None:
        _run([(callback, on_error)], module)
        return
    _finder().waiting.setdefault(name, []).append((callback, on_error))


def time_outermost(record) -> None:
    """record(name, seconds) after each outermost import of a top-level module from now on (one not made
    while another is running: the `torch` a program imports, not the `numpy` torch imports)."""
    _finder().timing = record
