"""The forty-third held-out set (truth_heldout43.yaml, HELDOUT43.md): failures of torch.distributed beyond plain DDP
on the CPU with gloo, written as users report them, four in a new project (dx_proj/: a pyproject.toml marker, a
package distkit/ with its collectives, routing and sharding and its loops, an entry script launch/train.py run by
torchrun with 2 ranks, taking argparse options and putting the project on sys.path itself; all_to_all_single
dispatch, all_gather_into_tensor, scatter and reduce_scatter_tensor), the others torchrun modes (rpc, a TCPStore,
FSDP2, a new_group hang) and modes that start their own ranks (spawn, mp.Process), without reading crashmatrix's
rules, each with its truth from running it alone. Its runs were recorded once, before any rule changed
(recorded/heldout43/); here every recorded cell's stderr.log is diagnosed again with today's rules, in this process
(`crashmatrix diagnose`'s own function, no torch), and held to the truth's outcome, `signature_has` and `where`, as
test_heldout19.py does for the nineteenth set.

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

# (mode, aspect) -> what diagnose of the recorded logs says instead of the truth (HELDOUT43.md lists the run's)
UNTRUE = {}
# dx_spawn_bcast_object_lock's signature_has: diagnose gives the truth since a lost gloo peer is told by the child
# process that failed first (rank 0's unpicklable lock); untrue in the run, HELDOUT43.md
SET = HeldOut("heldout43", RUNS, UNTRUE)
told, test_every_mode_has_its_recorded_cells, test_diagnose_of_the_recorded_logs_gives_the_truth = SET.tests(
    modes_at_least=11
)
