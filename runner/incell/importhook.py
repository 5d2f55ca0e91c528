"""Run a callback right after a module is imported, without ever importing it early.

stackdump (torch's fatal-signal handler), knobs (torch's knobs under inject) and injection (the
DataLoader patch) all wait this way. They share one finder on sys.meta_path: with a finder each, one
could look a name up through another's hook half-way, a re-entrant search that raises KeyError.
"""

from __future__ import annotations

import sys


def _run(callbacks: list, module) -> None:
    for callback, on_error in callbacks:
        try:
            callback(module)
        except Exception as e:  # the program must start whatever happens to a callback
            on_error(module, e)


class _RunAfter:
    """A module loader that runs the waiting callbacks once the module has executed."""

    def __init__(self, loader, callbacks: list):
        self._loader = loader
        self._callbacks = callbacks

    def create_module(self, spec):
        return self._loader.create_module(spec)

    def exec_module(self, module):
        # The module keeps the loader it has without us (its __loader__ and __spec__.loader): this one
        # only had to be asked to run it.
        if getattr(module, "__spec__", None) is not None and module.__spec__.loader is self:
            module.__spec__.loader = self._loader
        if getattr(module, "__loader__", None) is self:
            module.__loader__ = self._loader
        self._loader.exec_module(module)
        _run(self._callbacks, module)

    def __getattr__(self, name):
        return getattr(self._loader, name)


class _AfterImport:
    """A meta path finder that watches a few module names and never imports anything itself."""

    def __init__(self):
        self.waiting: dict[str, list] = {}

    def find_spec(self, name, path, target=None):
        # Taken before searching: another finder may look the same name up again (re-entrantly),
        # and the callbacks must run once.
        callbacks = self.waiting.pop(name, None)
        if callbacks is None:
            return None
        for finder in sys.meta_path:
            find = getattr(finder, "find_spec", None)
            if finder is self or find is None:
                continue
            spec = find(name, path, target)
            if spec is not None:
                break
        else:
            self.waiting[name] = callbacks
            return None
        if spec.loader is not None and hasattr(spec.loader, "exec_module"):
            spec.loader = _RunAfter(spec.loader, callbacks)
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
