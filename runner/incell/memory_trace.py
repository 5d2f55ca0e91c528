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
        self.first: tuple[int, dict, object, dict, dict] | None = None  # (step, tensors, snapshot, graphs, blocks)
        self._lookup = _c_lookup()
        self.cuda = None  # torch.cuda.memory, recording each live block's stack (cuda_history), where CUDA is up

    def step(self, count: int = 1) -> None:
        self.steps += count
        if self.steps == count:
            self.tracemalloc.start(FRAMES)
            self.cuda = cuda_history()
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

    def _tensors(self) -> tuple[dict, list]:
        """(dtype, shape, frames) -> [count, bytes] of the live tensors, and those that hold an autograd graph
        (grad_fn set) with their group's key."""
        torch = sys.modules.get("torch")
        tensor = getattr(torch, "Tensor", None)
        if tensor is None:
            return {}, []
        groups: dict = {}
        holders: list = []
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
            if getattr(obj, "grad_fn", None) is not None:
                holders.append((obj, key))
            group = groups.setdefault(key, [0, 0])
            group[0] += 1
            if pointer not in seen:  # views and detached copies share a storage: its bytes count once
                seen.add(pointer)
                group[1] += size
        return groups, holders

    def _graphs(self, holders: list) -> dict:
        """(dtype, shape, frames) of a tensor that holds an autograd graph -> [the graph's nodes, the bytes of
        the tensors its nodes saved for backward], the largest such graph of the group's tensors. A running
        sum of losses (`total = total + loss`) holds every step's graph, and with it every activation the
        forward saved: memory no Python reference explains but this tensor's."""
        graphs: dict = {}
        budget = GRAPH_NODES
        for obj, key in holders:
            nodes, saved, budget = _walk(obj.grad_fn, budget)
            if budget <= 0:
                break
            if nodes > graphs.get(key, (0, 0))[0]:
                graphs[key] = (nodes, saved)
        return graphs

    def _census(self) -> None:
        tensors, holders = self._tensors()
        graphs = self._graphs(holders)
        del holders
        blocks: dict = cuda_blocks(self.cuda) if self.cuda is not None else {}
        tm = self.tracemalloc
        snapshot = tm.take_snapshot().filter_traces(
            [tm.Filter(False, tm.__file__, all_frames=True), tm.Filter(False, _OURS)]
        )
        if self.first is None:
            self.first = (self.steps, tensors, snapshot, graphs, blocks)
            return
        step0, tensors0, snapshot0, graphs0, blocks0 = self.first
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
                for c0, c1, s0, s1, key in _grew_most(tensors0, tensors, size_too=False)
            ],
            "objects": objects[:TOP],
            "graphs": _grown_graphs(graphs0, graphs),
        }
        if self.cuda is not None:
            kept["cuda"] = _grown_blocks(blocks0, blocks)
        write_json_atomic(self.path, kept, durable=False)


CUDA_FRAMES = 16  # the snapshot's Python frames kept per block: through torch.nn and Lightning to the program's


def cuda_history():
    """torch.cuda.memory, recording the Python stack of each CUDA allocation while it is alive (PyTorch's
    memory snapshot, `_record_memory_history`, "state": no history of frees, so its cost does not grow with
    the run); None where the program has not initialised CUDA or this torch cannot."""
    torch = sys.modules.get("torch")
    try:
        if torch is None or not torch.cuda.is_initialized():
            return None
        memory = torch.cuda.memory
        memory._record_memory_history(enabled="state", context="state", stacks="python")
    except Exception:  # noqa: BLE001  an older torch, a build without the recorder: no GPU census
        return None
    return memory


def cuda_blocks(memory) -> dict:
    """Python frames (innermost first, [file, line] each) -> [blocks, bytes] of the live CUDA allocations,
    from the allocator's snapshot; a block allocated before recording began has no frames."""
    groups: dict = {}
    try:
        segments = memory._snapshot()["segments"]
    except Exception:  # noqa: BLE001
        return groups
    for segment in segments:
        for block in segment.get("blocks") or ():
            if block.get("state") != "active_allocated":
                continue
            frames = tuple((f["filename"], f["line"]) for f in (block.get("frames") or ())[:CUDA_FRAMES])
            group = groups.setdefault(frames, [0, 0])
            group[0] += 1
            group[1] += block.get("requested_size") or block.get("size") or 0
    return groups


def _grew_most(before: dict, after: dict, size_too: bool = True) -> list[tuple]:
    """(count then, count now, bytes then, bytes now, key) of the TOP groups (key -> [count, bytes]) whose
    bytes grew most since the first census, among those whose count grew (and whose bytes, with size_too)."""
    grown = []
    for key, (count, size) in after.items():
        count0, size0 = before.get(key, (0, 0))
        if count > count0 and (size > size0 or not size_too):
            grown.append((size - size0, count0, count, size0, size, key))
    grown.sort(key=lambda g: g[0], reverse=True)
    return [g[1:] for g in grown[:TOP]]


def _grown_blocks(before: dict, after: dict) -> list[dict]:
    return [
        {"count": [c0, c1], "mb": [round(s0 / _MB, 3), round(s1 / _MB, 3)], "frames": [list(f) for f in frames]}
        for c0, c1, s0, s1, frames in _grew_most(before, after)
    ]


GRAPH_NODES = 200_000  # graph nodes visited at most in a census, over every tensor that holds a graph


def _walk(root, budget: int) -> tuple[int, int, int]:
    """(nodes, bytes of the tensors they saved, the budget left) of the autograd graph below root."""
    stack, seen, saved = [root], set(), {}
    while stack and budget > 0:
        node = stack.pop()
        if node is None or node in seen:
            continue
        seen.add(node)
        budget -= 1
        for name in dir(node):
            if not name.startswith("_saved_"):
                continue
            try:
                value = getattr(node, name)
            except Exception:  # noqa: BLE001  freed by a backward already, or not a tensor to read
                continue
            for item in value if isinstance(value, (tuple, list)) else (value,):
                storage = getattr(item, "untyped_storage", None)
                if storage is not None:
                    try:
                        held = storage()
                        saved[held.data_ptr()] = held.nbytes()
                    except Exception:  # noqa: BLE001
                        continue
        stack.extend(fn for fn, _ in getattr(node, "next_functions", ()))
    return len(seen), sum(saved.values()), budget


def _grown_graphs(before: dict, after: dict) -> list[dict]:
    """The holders whose graphs grew most since the first census, as kept.json writes them."""
    return [
        {
            "dtype": key[0],
            "shape": list(key[1]),
            "nodes": [n0, n1],
            "saved_mb": [round(s0 / _MB, 3), round(s1 / _MB, 3)],
            "frames": [list(f) for f in key[2]],
        }
        for n0, n1, s0, s1, key in _grew_most(before, after)
    ]


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
