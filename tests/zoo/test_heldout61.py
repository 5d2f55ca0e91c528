"""The sixty-first held-out set (truth_heldout61.yaml, HELDOUT61.md): files and the filesystem around training on
the CPU (a checkpoint save on a full tmpfs, a read-only cache mount, a run folder under a file, a shard name too
long, torch.save onto a folder, shutil.copy onto itself in a child, a self-pointing `latest` symlink, a sanitizer
emptying a name, a TemporaryDirectory gone under DataLoader workers, a non-blocking flock refused in workers, a
makedirs race between gloo ranks, EXDEV in a saver thread the main then waits on); four in a new project
(io_proj/: a pyproject.toml marker, an argparse entry train.py, a package iokit/), written without reading
crashmatrix's rules, each with its truth from running it alone. Its runs were recorded once, before any rule
changed (recorded/heldout61/); here every recorded cell's stderr.log is diagnosed again with today's rules, in this
process (`crashmatrix diagnose`'s own function, no torch), and held to the truth's outcome, `signature_has` and
`where`, as test_heldout19.py does for the nineteenth set.

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

# (mode, aspect) -> what diagnose of the recorded logs says instead of the truth (HELDOUT61.md lists the run's)
UNTRUE = {}
SET = HeldOut("heldout61", RUNS, UNTRUE)
told, test_every_mode_has_its_recorded_cells, test_diagnose_of_the_recorded_logs_gives_the_truth = SET.tests(
    modes_at_least=12
)
