"""The thirty-second held-out set (truth_heldout32.yaml, HELDOUT32.md): image pipelines and per-batch image logging,
written as users report them, nine in a new project (vi_proj/: a pyproject.toml marker, a src/ layout package
segkit made importable by PYTHONPATH=src, an entry scripts/train_seg.py taking `case=NAME workers=2 log_every=1`,
small images and masks it writes itself), without reading crashmatrix's rules, each with its truth from running it
alone. Its runs were recorded once, before any rule changed (recorded/heldout32/); here every recorded cell's
stderr.log is diagnosed again with today's rules, in this process (`crashmatrix diagnose`'s own function, no
torch), and held to the truth's outcome, `signature_has` and `where`, as test_heldout19.py does for the nineteenth
set.

Where diagnose does not yet say the truth, the case is a strict xfail whose reason is what it said. A hang's
outcome is left out (the kill at the time limit is the run's).
"""

from __future__ import annotations

import contextlib
import os
import re

from conftest import ROOT
from diagnose_agreement import _checkout_paths
from heldout_recorded import HeldOut

from crashmatrix.verdict.signature import hang_signature
from crashmatrix.verdict.stacks import ProcessStacks, parse_faulthandler, parse_pyspy, summarize

RUNS = {
    "app": ["app"],
    "single": ["single"],
    "hangs": ["hangs-inject", "hangs-plain"],
    "torchrun": ["torchrun"],
}

# (mode, aspect) -> what diagnose of the recorded logs says instead of the truth (HELDOUT32.md lists the run's)
UNTRUE = {}
SET = HeldOut("heldout32", RUNS, UNTRUE)
told, test_every_mode_has_its_recorded_cells, test_diagnose_of_the_recorded_logs_gives_the_truth = SET.tests(
    modes_at_least=13
)


# Each process's stacks in a hung cell's stacks.txt (forensics._write_stacks): its head, then faulthandler's dump
# and/or py-spy's, up to the next process's head.
_PROCESS_STACKS = re.compile(r"^=== pid (\d+) \(([^)]*)\): [^\n]*\n(.*?)(?=^=== |\Z)", re.S | re.M)


def _where_from_stacks(cell: str) -> str:
    """The hang's `where` that stacks.summarize gives the processes' stacks the run kept (stacks.txt), with today's
    rules (the run itself read them from the live processes before the kill)."""
    with open(os.path.join(cell, "stacks.txt"), encoding="utf-8") as f:
        text = _checkout_paths(f.read())
    processes = []
    for pid, _role, body in _PROCESS_STACKS.findall(text):
        faulthandler, _, pyspy = body.partition("--- py-spy dump\n")
        faulthandler = faulthandler.partition("--- Python stacks of every thread (faulthandler)\n")[2] or faulthandler
        p = ProcessStacks(int(pid), "", faulthandler=faulthandler, pyspy=pyspy)
        p.threads = parse_faulthandler(faulthandler) or parse_pyspy(pyspy)
        processes.append(p)
    with contextlib.chdir(os.path.join(ROOT, "tests", "zoo", "app")):
        return summarize(processes[0], processes[1:])[1]


def test_a_worker_looping_through_numpy_is_placed_and_signed_at_the_programs_line():
    # HELDOUT32.md counted two signatures over the repeats of each run: the looping worker was caught in numpy's
    # `_any` in one, `_wrapreduction` in another, and the place named numpy's frame alone. From the 6 recorded
    # cells' stacks.txt (3 with inject, 3 without), the worker is placed at the program's call under numpy's frame,
    # and one signature holds the program's frames alone
    cells = SET.cells("vi_hang_fg_crop_retry")
    wheres = [_where_from_stacks(cell) for cell in cells]
    # the loop is caught on any line of its body (:30 to :32), numpy's frame or not
    worker = re.compile(r"worker (?:numpy/\S+ in \w+ at )?zoo/modes/vi_hang_fg_crop_retry\.py:3[0-2] in __getitem__")
    main = "main DataLoader _get_data (dataloader.py:1464) at zoo/modes/vi_hang_fg_crop_retry.py:38 in main; "
    assert len(cells) == 6 and all(w.startswith(main) and worker.fullmatch(w[len(main) :]) for w in wheres), wheres
    assert {hang_signature(where) for where in wheres} == {
        "hang in DataLoader _get_data at zoo/modes/vi_hang_fg_crop_retry.py:main; "
        "zoo/modes/vi_hang_fg_crop_retry.py:__getitem__"
    }
