"""The tenth held-out set (truth_heldout10.yaml, HELDOUT10.md): 17 failures written as users report them, five in
a Hydra + Lightning project marked by `.project-root`, its code in a src layout put on sys.path by its entry
script (u_proj/, `python scripts/train.py experiment=NAME`), every part built by `hydra.utils.instantiate`,
without reading crashmatrix's rules, each with its truth from running it alone. Its runs were recorded once,
before any rule changed (recorded/heldout10/); here every recorded cell's stderr.log is diagnosed again with
today's rules, in this process (`crashmatrix diagnose`'s own function, no torch), and held to the truth's
outcome, `signature_has` and `where`, as test_heldout9.py does for the ninth set.

Where diagnose does not yet say the truth, the case is a strict xfail whose reason is what it said. A hang's
outcome is left out (the kill at the time limit is the run's).
"""

from __future__ import annotations

from heldout_recorded import HeldOut

RUNS = {
    "app": ["app"],
    "single": ["single"],
    "single2": ["single2"],
    "hangs": ["hangs-inject", "hangs-plain"],
    "torchrun": ["torchrun"],
}

# (mode, aspect) -> what diagnose of the recorded logs says instead of the truth (HELDOUT10.md lists the run's)
UNTRUE = {
    ("u_hydra_ckpt_exclusive", "where"): "no place: stderr.log holds Hydra's short error alone (no traceback, no "
    "HYDRA_FULL_ERROR); the run, which recorded the exception Hydra handled, placed it right: "
    "model_checkpoint.py:680 in __validate_init_configuration; src/u_core/build.py:13 in build_callbacks",
    ("u_spawn_os_exit", "where"): "torch/multiprocessing/spawn.py:200 in join; zoo/modes/u_spawn_os_exit.py:29 in "
    "main, as the run said (counted untrue there): spawn's join, not rank 1's os._exit(3) at :17 in run",
    ("u_batchnorm_last_batch", "signature_has"): "ValueError: Expected more than N value per channel when training, "
    "got input size torch.Size([...]) in zoo/modes/u_batchnorm_last_batch.py:main, as the run said (counted untrue "
    "there): the signature writes the truth's digit as N",
}
SET = HeldOut("heldout10", RUNS, UNTRUE)
told, test_every_mode_has_its_recorded_cells, test_diagnose_of_the_recorded_logs_gives_the_truth = SET.tests(
    modes_at_least=17
)
