"""A distributed cell's speed and memory, from what each of its ranks measured (incell/rank_report.py).

The cell's main process is often a launcher (torchrun's agent, the parent of mp.spawn or ddp_spawn): its
own report.json has no batches and the launcher's memory. Where ranks wrote theirs:

- the speed columns (steps, steps_per_s, first_batch_s, first_batch_total_s) are rank 0's (the lowest
  rank that reported, where rank 0 did not), where the main process counted none itself;
- peak_rss_mb and peak_gpu_mb are the largest of any rank's: the rank that runs out of memory first is
  the one that decides; so are the growth columns (rss_growth_mb_per_step, gpu_growth_mb_per_step);
- `rank_spread` names the measures on which ranks differ by more than noise, the lowest and the highest
  with their ranks (`first_batch_s 0.31 (rank 0) to 2.4 (rank 1)`), empty where they agree. DDP's
  collectives keep ranks in step, so a difference is what a user should see: uneven data (steps),
  one rank's loader slow to start (first_batch_s), one rank holding more memory (rank 0's logging or
  checkpoints: peak_rss_mb);
- `ranks` (result.json only) keeps each rank's own figures.
"""

from __future__ import annotations

import shutil

from crashmatrix.incell import rank_report

SPEED_KEYS = ("steps", "steps_per_s", "first_batch_s", "first_batch_total_s")
MEMORY_KEYS = ("peak_rss_mb", "peak_gpu_mb", "rss_growth_mb_per_step", "gpu_growth_mb_per_step")

# Noise, as compare_speed has it for wall times: more than 20% apart, and by more than start-up jitter.
RATIO = 1.2
FLOOR = {"steps_per_s": 0.0, "first_batch_s": 0.25, "first_batch_total_s": 0.25, "peak_rss_mb": 50.0}


def read(cell_dir: str) -> dict[int, dict]:
    """rank -> the metrics it wrote at its end; a rank that died or was killed wrote none."""
    return {r["rank"]: r["metrics"] for r in rank_report.read(cell_dir) if isinstance(r.get("metrics"), dict)}


def cleanup(cell_dir: str) -> None:
    """The ranks' files: read at the cell's end, kept in result.json (`ranks`)."""
    shutil.rmtree(rank_report.rank_dir(cell_dir), ignore_errors=True)


def merged(own: dict, ranks: dict[int, dict]) -> dict:
    """The cell's metrics: the main process's `own`, with the ranks' figures as the module says."""
    if not ranks:
        return own
    out = dict(own)
    first = ranks[min(ranks)]
    for key in SPEED_KEYS:
        if out.get(key) is None and first.get(key) is not None:
            out[key] = first[key]
    for key in MEMORY_KEYS:
        values = [m[key] for m in ranks.values() if isinstance(m.get(key), (int, float))]
        if values:
            out[key] = max(values)
    out["rank_spread"] = spread(ranks)
    out["ranks"] = {str(rank): ranks[rank] for rank in sorted(ranks)}
    return out


def spread(ranks: dict[int, dict]) -> str:
    """`steps 40 (rank 1) to 48 (rank 0); peak_rss_mb 310 (rank 1) to 520 (rank 0)`, or ""."""
    parts = []
    for key in ("steps", "steps_per_s", "first_batch_s", "peak_rss_mb"):
        values = sorted((m[key], rank) for rank, m in ranks.items() if isinstance(m.get(key), (int, float)))
        if len(values) < 2:
            continue
        (low, low_rank), (high, high_rank) = values[0], values[-1]
        if key == "steps":
            apart = high != low  # counted, not timed: any difference is real
        else:
            apart = high - low > FLOOR[key] and (low <= 0 or high / low > RATIO)
        if apart:
            parts.append(f"{key} {low:g} (rank {low_rank}) to {high:g} (rank {high_rank})")
    return "; ".join(parts)
