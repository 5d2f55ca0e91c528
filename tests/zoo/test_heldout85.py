"""The eighty-fifth held-out set (truth_heldout85.yaml, HELDOUT85.md): DistributedDataParallel's and FSDP2's options
met by a training program on the CPU with 2 gloo ranks (communication hooks, no_sync, static_graph, the Join context,
DistributedSampler workers, fully_shard and its state dicts, torch.distributed.checkpoint), started by torchrun or by
the program's own mp.spawn, written as users report them, four in a new project (fs_proj/: a pyproject.toml marker,
a package `shardtrain/` that spawns its own ranks, an entry `train.py --case NAME`), without reading crashmatrix's
rules, each with its truth from running it alone. Its runs were recorded once, before any rule changed
(recorded/heldout85/); here every recorded cell's stderr.log is diagnosed again with today's rules, in this process
(`crashmatrix diagnose`'s own function, no torch), and held to the truth's outcome, `signature_has` and `where`, as
test_heldout83.py does for the eighty-third set.

Where diagnose does not yet say the truth, the case is a strict xfail whose reason is what it said. A hang's
outcome is left out (the kill at the time limit is the run's).
"""

from __future__ import annotations

from heldout_recorded import HeldOut

RUNS = {
    "app": ["app"],
    "single": ["single"],
    "hangs": ["hangs-inject", "hangs-plain"],
    "torchrun": ["torchrun"],
}

# (mode, aspect) -> what diagnose of the recorded logs says instead of the truth (HELDOUT85.md lists the run's)
# (none now: what it listed is diagnosed true since the rules HELDOUT85.md's After names)
UNTRUE = {}
SET = HeldOut("heldout85", RUNS, UNTRUE)
told, test_every_mode_has_its_recorded_cells, test_diagnose_of_the_recorded_logs_gives_the_truth = SET.tests(
    modes_at_least=10
)
