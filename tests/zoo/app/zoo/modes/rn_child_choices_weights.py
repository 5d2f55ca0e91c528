"""A curriculum sampler in a child process (multiprocessing, fork) draws the next tasks with
`random.choices(tasks, weights=...)`; a task was added to the list but not to its weights."""

import multiprocessing as mp
import random
import sys

TASKS = ["copy", "reverse", "sort", "count"]
WEIGHTS = [0.4, 0.3, 0.3]  # written before "count" was added


def sample_curriculum(seed: int, out) -> None:
    rng = random.Random(seed)
    order = rng.choices(TASKS, weights=WEIGHTS, k=8)
    out.put(order)


def main() -> None:
    ctx = mp.get_context("fork")
    out = ctx.Queue()
    child = ctx.Process(target=sample_curriculum, args=(0, out), name="curriculum")
    child.start()
    print("curriculum child started")
    child.join()
    if child.exitcode != 0:
        print(f"curriculum child failed with exit code {child.exitcode}", file=sys.stderr)
        sys.exit(1)
    print(out.get())
