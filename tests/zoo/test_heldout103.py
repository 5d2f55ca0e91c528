"""The hundred-and-third held-out set (truth_heldout103.yaml, HELDOUT103.md): the data pipeline and its file
formats (a collate that caps sequences but keeps their true lengths, so torch's LSTM refuses the packed batch; a
streaming dataset's shard split dividing by zero when spawn workers outnumber shards; pandas refusing an unlabelled
row for an integer dtype in a fork worker; as_strided audio frames cut past a memory-mapped clip, a worker's
SIGSEGV; a CMYK scan meeting an RGB normalisation; an unsharded IterableDataset read whole by every worker, torch's
__len__ warning on a run that exits 0; a reader process ending a queue-fed stream with one sentinel for two
workers, a hang; one rank's JSON-lines record nested past the C stack under a raised recursion limit, under
torchrun), written as users report them, four in a new project (jq_proj/: a pyproject.toml marker, a package
`jqpipe/`, an entry `train.py --case NAME`), without reading crashmatrix's rules, each with its truth from running
it alone. Its runs were recorded once, before any rule changed (recorded/heldout103/); here every recorded cell's
stderr.log is diagnosed again with today's rules, in this process (`crashmatrix diagnose`'s own function, no
torch), and held to the truth's outcome, `signature_has` and `where`, as test_heldout98.py does for the
ninety-eighth set.

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

# (mode, aspect) -> what diagnose of the recorded logs says instead of the truth (HELDOUT103.md lists the run's)
UNTRUE: dict[tuple[str, str], str] = {}
SET = HeldOut("heldout103", RUNS, UNTRUE)
told, test_every_mode_has_its_recorded_cells, test_diagnose_of_the_recorded_logs_gives_the_truth = SET.tests(
    modes_at_least=8
)
