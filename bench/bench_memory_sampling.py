"""The memory sampler's cost on the speed figures, against no sampling, in one run (issue 38: under 1%).

    python bench/bench_memory_sampling.py [--rounds 9]

Real torch DataLoader loops, timed as a cell times them (runner/incell/loader_clock.py's timed_cycle and
speed(): steps_per_s), each round once with the sampler (runner/incell/memory_sampler.py) and once
without (`CRASHMATRIX_MEMORY_SAMPLING=0`'s sampler), alternating so that load from elsewhere falls on
both. Per loop:

- `share`: what sampling costs the main thread (the one that draws the batches and takes the samples)
  over what a step costs it without sampling, from its parts, each timed in CPU time: the samples the
  loop took times what one sample costs (its /proc reads, the loop's workers included), plus every step's
  count and comparison. The speed it leaves, against no sampling, is 1 - share (goal: share < 1%);
- `wall ratio`: steps/s (the speed column) with sampling over without, the median over the rounds, and
  `a/a`: the same for two passes that both sample nothing. On a busy machine the a/a spread is the
  machine's noise (other processes take the CPU in one pass of a pair and not the other), often wider
  than 1%; the wall ratio says no more than the noise lets it.

Loops: `tiny` steps of about 0.1 ms with no workers (the worst case: a sample costs as much as
several steps, so only the time budget keeps it cheap, and the count every step pays, a fraction of a
microsecond, is what is left), and `workers` of a small model's training
step with 2 loader workers whose RSS is read at every sample.
"""

from __future__ import annotations

import argparse
import itertools
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from crashmatrix.incell import loader_clock, memory_sampler  # noqa: E402

SHARE_GOAL = 0.01


def _loops():
    import torch
    from torch.utils.data import DataLoader, TensorDataset

    # one intra-op thread: on a small busy machine torch's thread pool beside 2 workers makes each step
    # wait for the CPU far longer than it computes, and the ratio measures the scheduler
    torch.set_num_threads(1)
    data = TensorDataset(torch.randn(4096, 32), torch.randn(4096, 1))
    model = torch.nn.Sequential(torch.nn.Linear(32, 256), torch.nn.ReLU(), torch.nn.Linear(256, 1))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)

    weight = torch.randn(32, 512)

    def tiny(batch):  # a forward pass of one small layer: about 0.1 ms a step with the loader's own work
        return float((batch[0] @ weight).relu().sum())

    def train(batch):
        optimizer.zero_grad()
        loss = torch.nn.functional.mse_loss(model(batch[0]), batch[1])
        loss.backward()
        optimizer.step()

    return {
        "tiny": (DataLoader(data, batch_size=4), tiny, 3000),
        "workers": (DataLoader(data, batch_size=16, num_workers=2, persistent_workers=True), train, 600),
    }


def one_pass(loader, step, batches: int, enabled: bool) -> tuple[float, float, int]:
    """(steps/s as the cell reports it, the main thread's CPU seconds per step, samples kept)."""
    sampler = memory_sampler.MemorySampler()
    if not enabled:  # as CRASHMATRIX_MEMORY_SAMPLING=0 leaves it
        sampler.enabled, sampler.due = False, float("inf")
    loader_clock.SAMPLER = sampler  # timed_cycle's sampler for this pass
    clock = loader_clock.LoaderClock()
    t0 = time.thread_time()
    for batch in itertools.islice(loader_clock.timed_cycle(loader, clock), batches):
        step(batch)
    cpu = time.thread_time() - t0
    rate = loader_clock.speed([clock])["steps_per_s"] or 0.0
    return rate, cpu / batches, len(sampler.samples)


def _cpu_per_call(function, calls: int) -> float:
    """CPU seconds one call of function() costs, the loop's own cost left out."""
    t0 = time.thread_time()
    for _ in range(calls):
        pass
    empty = time.thread_time() - t0
    t0 = time.thread_time()
    for _ in range(calls):
        function()
    return max(0.0, time.thread_time() - t0 - empty) / calls


def _sample_cost(loader) -> float:
    """One sample's CPU seconds, with the loader's live workers (persistent ones stay after a pass) read."""
    iterator = getattr(loader, "_iterator", None)
    sampler = memory_sampler.MemorySampler()

    def one():
        sampler.due, sampler.samples = 0, []
        sampler.step(iterator)

    return _cpu_per_call(one, 300)


def _step_cost() -> float:
    """A step's count and comparison between samples: the path of nearly every step."""
    sampler = memory_sampler.MemorySampler()
    sampler.due = float("inf")
    return _cpu_per_call(sampler.step, 200_000)


def _wall_ratios(loader, step, batches: int, rounds: int, pair: tuple[bool, bool]) -> tuple[list, list]:
    """Per round, (steps/s of the pass with pair[1]) / (of the pass with pair[0]); and those passes."""
    ratios, passes = [], []
    for i in range(rounds):
        order = pair if i % 2 == 0 else pair[::-1]
        got = [one_pass(loader, step, batches, enabled) for enabled in order]
        first, second = got if i % 2 == 0 else got[::-1]
        ratios.append(second[0] / first[0])
        passes.append((first, second))
    return ratios, passes


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=9)
    args = ap.parse_args()
    loops = _loops()
    step_cost = _step_cost()
    print(f"{'loop':<8} {'steps':>6} {'cpu us/step':>11} {'sample us':>9} {'samples':>7} {'share':>7} "
          f"{'wall ratio':>10} {'spread':>13} {'a/a':>6} {'spread':>13}  goal")  # fmt: skip
    met = True
    for name, (loader, step, batches) in loops.items():
        one_pass(loader, step, batches // 4, True)  # warm: workers started, allocator and caches settled
        ratios, passes = _wall_ratios(loader, step, batches, args.rounds, (False, True))
        same, _ = _wall_ratios(loader, step, batches, args.rounds, (False, False))
        per_step = statistics.median(off[1] for off, _ in passes)
        kept = statistics.median(on[2] for _, on in passes)
        sample_cost = _sample_cost(loader)
        share = (kept * sample_cost + batches * step_cost) / (batches * per_step)
        ok = share < SHARE_GOAL
        met &= ok
        print(
            f"{name:<8} {batches:>6} {per_step * 1e6:>11.1f} {sample_cost * 1e6:>9.1f} {kept:>7.0f} {share:>7.2%} "
            f"{statistics.median(ratios):>10.3f} {min(ratios):>6.3f}-{max(ratios):<6.3f} "
            f"{statistics.median(same):>6.3f} {min(same):>6.3f}-{max(same):<6.3f}  {'met' if ok else 'MISSED'}"
        )
    print(f"(a step's count and comparison: {step_cost * 1e9:.0f} ns; medians of {args.rounds} alternating rounds; "
          f"python {sys.version.split()[0]}, {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}; "
          f"goal: share < {SHARE_GOAL:.0%})")  # fmt: skip
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
