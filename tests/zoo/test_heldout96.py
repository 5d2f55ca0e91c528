"""The ninety-sixth held-out set (truth_heldout96.yaml, HELDOUT96.md): the mission app itself, a Hydra + Lightning
training program (app/mc_proj/: a pyproject.toml marker, a package `mcfit/` with datamodule, model and callbacks, conf/
with config groups and a defaults list, Hydra's timestamped output dirs, DataLoader configs under data.loader.*, a
WandbLogger in offline mode with per-batch image logging; the entry `train.py case=NAME`, a @hydra.main app whose case
is a config group), failing in fork DataLoader workers (a mapped cache cut short under them: SIGBUS; a label the
class map lacks), in a callback's upload thread (wandb.Image given a batch; the main then waits for ever), in Hydra's
instantiate (a Lightning 1.x `gpus` key) and OmegaConf's interpolation, in ModelCheckpoint's save (a lock in the
checkpoint), and in 2 gloo ranks on the CPU under Lightning's ddp (rank 1 by SIGFPE in torch.div's trunc mode,
pytorch/pytorch#138425; rank 0 refused a nested FileLock) and ddp_spawn (rank 1 reads what only rank 0 built),
written as users report them, without reading crashmatrix's rules, each with its truth from running it alone. Its
runs were recorded once, before any rule changed (recorded/heldout96/); here every recorded cell's stderr.log is
diagnosed again with today's rules, in this process (`crashmatrix diagnose`'s own function, no torch), and held to the
truth's outcome, `signature_has` and `where`, as test_heldout95.py does for the ninety-fifth set.

Where diagnose does not yet say the truth, the case is a strict xfail whose reason is what it said. A hang's
outcome is left out (the kill at the time limit is the run's).
"""

from __future__ import annotations

from heldout_recorded import HeldOut

RUNS = {
    "app": ["app"],
    "ddp": ["ddp"],
    "hangs": ["hangs-inject", "hangs-plain"],
}

# (mode, aspect) -> what diagnose of the recorded logs says instead of the truth (HELDOUT96.md lists the run's)
UNTRUE = {
    ("mc_trainer_gpus_kwarg", "where"): "no place at all (''): Hydra printed the InstantiationException with no "
    "traceback and only `full_key: trainer`; the run, which knew the cell's override case=mc_trainer_gpus_kwarg, "
    "said conf/case/mc_trainer_gpus_kwarg.yaml:4 in trainer.gpus (true)",
}
SET = HeldOut("heldout96", RUNS, UNTRUE)
told, test_every_mode_has_its_recorded_cells, test_diagnose_of_the_recorded_logs_gives_the_truth = SET.tests(
    modes_at_least=10
)
