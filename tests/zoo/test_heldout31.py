"""The thirty-first held-out set (truth_heldout31.yaml, HELDOUT31.md): failures written as users report them,
inside programs that change how their failures are printed (a coloured, shortened excepthook; log formatters
that prefix every line; a tqdm bar on stderr; `raise ... from`, `add_note`, an ExceptionGroup; warnings as
errors; stderr redirected to a file; a one-line summary and exit 1), seven in a new project (ox_proj/: a
setup.cfg marker, a package `prettytrain` and an entry `bin/train` without .py), without reading crashmatrix's
rules, each with its truth from running it alone. Its runs were recorded once, before any rule changed
(recorded/heldout31/); here every recorded cell's stderr.log is diagnosed again with today's rules, in this
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

# (mode, aspect) -> what diagnose of the recorded logs says instead of the truth (HELDOUT31.md lists the run's)
UNTRUE = {
    # the pretty hook's report holds no traceback: a log alone cannot tell the failure; a run under inject reads the
    # exception its process recorded as Python prints it (uncaught.txt) since
    ("ox_hook_onehot_classes", "outcome"): "pass: no failure found in the pretty hook's coloured, shortened report",
    ("ox_hook_onehot_classes", "signature_has"): "empty: no failure found",
    ("ox_hook_onehot_classes", "where"): "empty: no failure found",
    ("ox_chain_betas_float", "outcome"): "pass: no failure found (ConfigError and its cause, printed by the hook)",
    ("ox_chain_betas_float", "signature_has"): "empty: no failure found",
    ("ox_chain_betas_float", "where"): "empty: no failure found",
    ("ox_exit1_summary_layernorm", "outcome"): "pass: no failure found in the one line `error: training failed "
    "(RuntimeError)`; the run, with the exit status, said fail, right",
    ("ox_exit1_summary_layernorm", "signature_has"): "empty: no failure found",
    ("ox_exit1_summary_layernorm", "where"): "empty: no failure found; the run said prettytrain/cli.py:46 in main",
    # a run under inject keeps faulthandler's dump of the worker on the cell's stderr since, where the program's
    # dup2 had sent it to the program's own log file
    ("ox_redirect_worker_segv", "outcome"): "pass: stderr.log holds only the INFO line (the program sent its stderr "
    "to its own log file); the run said worker_crash with no signal, signature worker_exited",
    ("ox_redirect_worker_segv", "signature_has"): "empty: no failure found",
    ("ox_redirect_worker_segv", "where"): "empty: no failure found",
    ("ox_note_sparse_pool", "outcome"): "pass: no failure found in the hook's report (the message, ~90 backend lines, "
    "the note, the one frame)",
    ("ox_note_sparse_pool", "signature_has"): "empty: no failure found",
    ("ox_note_sparse_pool", "where"): "empty: no failure found",
}
SET = HeldOut("heldout31", RUNS, UNTRUE)
told, test_every_mode_has_its_recorded_cells, test_diagnose_of_the_recorded_logs_gives_the_truth = SET.tests(
    modes_at_least=12
)
