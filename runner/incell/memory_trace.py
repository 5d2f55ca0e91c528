"""Which line keeps the memory of a growing cell (issue 50, item 2): what is alive and where it was made, in
a second, instrumented run of the growing cell only (`CRASHMATRIX_TRACE_MEMORY=1`, set by the controller
for that run; never in the matrix's own runs, whose speed it would change).

tracemalloc traces every Python allocation from the program's first batch on (from its start, torch's own
import under tracemalloc took 30 times as long), with the FRAMES innermost frames of where it was made. At the loader's steps CENSUS_FIRST, twice that, four times that... (a few censuses in
all, each tens of milliseconds) this process takes a census:
- the live torch tensors (gc's objects; torch's own storage is allocated outside Python's allocators, so
  a tensor is counted by its storage's bytes, each storage once), grouped by dtype, shape and the frames
  where the tensor object was made (tracemalloc.get_object_traceback): `float32 [262144]`, 80 alive;
- what else Python holds (a tracemalloc snapshot against the first census's, by traceback): the bytes and
  objects made at each place and still alive (a dataset's cache of bytes, numpy arrays, lists).
After each census but the first, the groups that grew most since the first are written to
`<cell dir>/kept.json` (the last census's win; a cell killed later still says what it had grown to):
`{"first_step": 10, "step": 80, "unit": "step", "tensors": [{"dtype", "shape", "count": [a, b], "mb": [a, b],
"frames"}], "objects": [{"mb", "count", "frames"}]}`, frames innermost first as [file, line]. The controller
names the program's own frame (crashmatrix.answers.kept).

A DataLoader worker keeps what its dataset caches, so each worker of that run takes its own census, at the
items it fetched (`"unit": "item"`: items 10, 20, 40, ... counted after each fetch of the worker's loop,
patch_fetchers), into `<cell dir>/kept-<pid>.json`. A forked worker starts its own tracemalloc at its
first item, as the main does at its first batch (it was forked before that); a spawned one is a fresh
interpreter where the injection installs the same patch.

Standard library only; torch only from sys.modules, once the program imported it.
"""

from __future__ import annotations

import gc
import os
import sys

from .atomic import write_json_atomic

ENV = "CRASHMATRIX_TRACE_MEMORY"
FILE_NAME = "kept.json"
WORKER_FILE = "kept-{pid}.json"  # a loader worker's census
FRAMES = 8  # deep enough to pass torch's and Lightning's own frames to the program's
CENSUS_FIRST = 10  # the first census's step: after the warm-up's first allocations
TOP = 3
_MB = 2**20


def enabled() -> bool:
    return os.environ.get(ENV) == "1"


class Tracer:
    def __init__(self, cell_dir: str, file_name: str = FILE_NAME, unit: str = "step") -> None:
        import tracemalloc

        self.tracemalloc = tracemalloc
        self.path = os.path.join(cell_dir, file_name)
        self.unit = unit  # what `steps` counts: the loop's batches, or a worker's items
        self.pid = os.getpid()
        self.steps = 0
        self.due = CENSUS_FIRST
        self.first: tuple[int, dict, object] | None = None  # (step, tensor groups, snapshot)
        self._lookup = _c_lookup()

    def step(self, count: int = 1) -> None:
        self.steps += count
        if self.steps == count:
            self.tracemalloc.start(FRAMES)
        if self.steps < self.due:
            return
        self.due *= 2
        try:
            self._census()
        except Exception:  # noqa: BLE001  a census that fails tells nothing; the program goes on
            pass

    def _frames(self, trace) -> list[list]:
        return [[f.filename, f.lineno] for f in reversed(list(trace))] if trace is not None else []

    def _object_frames(self, obj) -> list[list]:
        """Where obj was made, innermost frame first. Python 3.11's get_object_traceback misses objects
        that have a pre-header (a managed __dict__, as torch.Tensor's have): their allocation starts that
        far before the object, so it is looked up there, through the C API tracemalloc itself uses."""
        frames = self._frames(self.tracemalloc.get_object_traceback(obj))
        if frames or self._lookup is None:
            return frames
        kind = type(obj)
        offset = (16 if kind.__flags__ & _HAVE_GC else 0) + (16 if kind.__flags__ & _MANAGED_DICT else 0)
        try:
            found = self._lookup(0, id(obj) - offset) if offset else None
        except Exception:  # noqa: BLE001
            return []
        return [[f, line] for f, line in found or ()]

    def _tensors(self) -> dict:
        torch = sys.modules.get("torch")
        tensor = getattr(torch, "Tensor", None)
        if tensor is None:
            return {}
        groups: dict = {}
        seen: set[int] = set()
        kinds: dict[type, bool] = {}  # issubclass against torch.Tensor's metaclass is slow: once per type
        for obj in gc.get_objects():
            kind = type(obj)  # type(), not isinstance: a lazy object may warn on __class__
            is_tensor = kinds.get(kind)
            if is_tensor is None:
                is_tensor = kinds[kind] = issubclass(kind, tensor)
            if not is_tensor:
                continue
            try:
                storage = obj.untyped_storage()
                pointer, size = storage.data_ptr(), storage.nbytes()
                key_dtype, shape = str(obj.dtype).removeprefix("torch."), tuple(obj.shape)
            except Exception:  # noqa: BLE001  a meta tensor, a tensor subclass without storage
                continue
            key = (key_dtype, shape, tuple(tuple(f) for f in self._object_frames(obj)))
            group = groups.setdefault(key, [0, 0])
            group[0] += 1
            if pointer not in seen:  # views and detached copies share a storage: its bytes count once
                seen.add(pointer)
                group[1] += size
        return groups

    def _census(self) -> None:
        tensors = self._tensors()
        tm = self.tracemalloc
        snapshot = tm.take_snapshot().filter_traces(
            [tm.Filter(False, tm.__file__, all_frames=True), tm.Filter(False, _OURS)]
        )
        if self.first is None:
            self.first = (self.steps, tensors, snapshot)
            return
        step0, tensors0, snapshot0 = self.first
        grown = []
        for key, (count, size) in tensors.items():
            count0, size0 = tensors0.get(key, (0, 0))
            if count > count0:
                grown.append((size - size0, count0, count, size0, size, key))
        grown.sort(reverse=True)
        objects = []
        for stat in snapshot.compare_to(snapshot0, "traceback")[: TOP * 4]:
            if stat.size_diff > 0 and stat.count_diff > 0:
                objects.append(
                    {
                        "mb": round(stat.size_diff / _MB, 3),
                        "count": stat.count_diff,
                        "frames": self._frames(stat.traceback),
                    }
                )
        kept = {
            "first_step": step0,
            "step": self.steps,
            "unit": self.unit,
            "tensors": [
                {
                    "dtype": key[0],
                    "shape": list(key[1]),
                    "count": [c0, c1],
                    "mb": [round(s0 / _MB, 3), round(s1 / _MB, 3)],
                    "frames": [list(f) for f in key[2]],
                }
                for _, c0, c1, s0, s1, key in grown[:TOP]
            ],
            "objects": objects[:TOP],
        }
        write_json_atomic(self.path, kept, durable=False)


# the sampler's own allocations: made in our frames (the innermost one: a loader worker's items are made
# under the fetch that counts them, patch_fetchers)
_OURS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "*")
_HAVE_GC = 1 << 14
_MANAGED_DICT = 1 << 4  # Py_TPFLAGS_MANAGED_DICT: two pointers before the GC header


def _c_lookup():
    """_PyTraceMalloc_GetTraceback(domain, address), the C function behind get_object_traceback; None
    where this Python lacks it (another implementation, a build without it)."""
    if sys.version_info >= (3, 12):
        return None  # get_object_traceback accounts for the pre-header itself there
    try:
        import ctypes

        function = ctypes.pythonapi._PyTraceMalloc_GetTraceback
    except (ImportError, AttributeError):
        return None
    function.restype = ctypes.py_object
    function.argtypes = [ctypes.c_uint, ctypes.c_size_t]
    return function


TRACER: Tracer | None = None


def install(cell_dir: str | None) -> None:
    """Start tracing in this process (the cell's main one) where the controller asked for it."""
    global TRACER
    if enabled() and cell_dir and TRACER is None:
        TRACER = Tracer(cell_dir)


def step() -> None:
    if TRACER is not None:
        TRACER.step()


WORKER: Tracer | None = None  # this loader worker's, made at its first item


def patch_fetchers(fetch_module) -> None:
    """Count the items each DataLoader worker fetches (torch's fetchers, wrapped: the count after the
    fetch returns), for its census; only in the instrumented rerun (injection.py installs it there)."""
    for kind in (fetch_module._MapDatasetFetcher, fetch_module._IterableDatasetFetcher):
        kind.fetch = _counted(kind.fetch)


def _counted(fetch):
    def counted(self, possibly_batched_index):
        data = fetch(self, possibly_batched_index)
        _worker_items(len(possibly_batched_index) if self.auto_collation else 1)
        return data

    counted.__wrapped__ = fetch
    return counted


def _worker_items(count: int) -> None:
    """A worker fetched `count` items; in the main process (no workers) nothing: its census counts batches."""
    global WORKER
    if getattr(sys.modules.get("torch.utils.data._utils.worker"), "_worker_info", None) is None:
        return
    if WORKER is None or WORKER.pid != os.getpid():  # a forked worker inherits its parent's tracers
        cell_dir = os.environ.get("CRASHMATRIX_CELL_DIR")
        if not cell_dir:
            return
        WORKER = Tracer(cell_dir, WORKER_FILE.format(pid=os.getpid()), unit="item")
    WORKER.step(count)
