"""Run telemetry: events under a lock, every garbage collection reported as one, and memory snapshots."""

import gc
import threading
import time


class Telemetry:
    def __init__(self, **context):
        self._lock = threading.Lock()
        self.context = context
        self.events: list[dict] = []
        gc.callbacks.append(self._on_gc)

    def log(self, name: str, **fields) -> None:
        with self._lock:
            self.events.append({"name": name, "t": time.time(), **self.context, **fields})

    def memory_snapshot(self, step: int) -> None:
        with self._lock:
            unreachable = gc.collect()
            self.events.append({"name": "memory", "step": step, "objects": len(gc.get_objects()), "freed": unreachable})

    def _on_gc(self, phase: str, info: dict) -> None:
        if phase == "stop":
            self.log("gc", generation=info["generation"], collected=info["collected"])
