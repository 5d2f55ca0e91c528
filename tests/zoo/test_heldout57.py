"""The fifty-seventh held-out set (truth_heldout57.yaml, HELDOUT57.md): signals, exits and the program's own
handlers, on the CPU, written as users report them; four in a new project (sg_proj/: a pyproject.toml marker, a
package sigkit/ and an entry train.py run as `python train.py --case NAME`), without reading crashmatrix's rules,
each with its truth from running it alone. Its runs were recorded once, before any rule changed
(recorded/heldout57/); here every recorded cell's stderr.log is diagnosed again with today's rules, in this process
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

# (mode, aspect) -> what diagnose of the recorded logs says instead of the truth (HELDOUT57.md lists the run's)
UNTRUE = {
    ("sg_term_reraise", "outcome"): "no failure found: stderr.log is empty (the handler printed to stdout, then the "
    "process killed itself by SIGTERM); the run, with the exit status, said crash SIGTERM at sigkit/handlers.py:25 "
    "in on_term, right",
    (
        "sg_term_reraise",
        "where",
    ): "no failure found, no place (an empty stderr.log); the run said sigkit/handlers.py:25 in on_term, right",
    ("sg_quiet_hook", "outcome"): "no failure found: stderr.log holds only the program's excepthook line `sg_proj: run "
    "failed (RuntimeError); details in .../crash.txt`; the run (its uncaught.txt, not kept) said fail, right",
    ("sg_quiet_hook", "signature_has"): "no signature (no failure found in the one line); the run said RuntimeError: "
    "zero-dimensional tensor (at position N) cannot be concatenated in sigkit/loop.py:evaluate_heads, right",
    ("sg_quiet_hook", "where"): "no place (no failure found in the one line); the run said sigkit/loop.py:76 in "
    "evaluate_heads, right",
    ("sg_worker_keyboardinterrupt", "where"): "the main process heard of it at "
    "zoo/modes/sg_worker_keyboardinterrupt.py:34 in main (the workers' swallowed KeyboardInterrupt at :24 is in no "
    "log); the run said the same",
    ("sg_thread_excepthook_quiet", "signature_has"): "_queue.Empty in zoo/modes/sg_thread_excepthook_quiet.py:main "
    "(the main's consequence; the thread's ValueError is printed only by the program's hook); the run said the same",
    ("sg_thread_excepthook_quiet", "where"): "queue.py:179 in get; zoo/modes/sg_thread_excepthook_quiet.py:31 in main; "
    "the run said the same",
    ("sg_finally_exit_masks", "outcome"): "no failure found: stderr.log is the one line `training aborted after step "
    "-1, see train.log` (sys.exit's message, no traceback); the run, with exit status 1, said fail, right",
    ("sg_finally_exit_masks", "signature_has"): "no signature (no failure found in the one line); the run said "
    "`training aborted after step N, see train.log in zoo/modes/sg_finally_exit_masks.py:main`, right",
    ("sg_finally_exit_masks", "where"): "no place (no failure found); the run said "
    "zoo/modes/sg_finally_exit_masks.py:32 in main, right",
    ("sg_ddp_rank1_usr1_default", "where"): "no place: rank_crash SIGUSR1 (rank 1) is told from torchrun's report, but "
    "rank 1 left no stack; the run (inject) said zoo/modes/sg_ddp_rank1_usr1_default.py:29 in run, right",
}
SET = HeldOut("heldout57", RUNS, UNTRUE)
told, test_every_mode_has_its_recorded_cells, test_diagnose_of_the_recorded_logs_gives_the_truth = SET.tests(
    modes_at_least=12
)
