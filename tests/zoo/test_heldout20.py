"""The twentieth held-out set (truth_heldout20.yaml, HELDOUT20.md): failures written as users report them, seven
in a new project (g_proj/: a LightningCLI image classifier, a pyproject.toml marker, `python main.py fit --config
configs/base.yaml --config=configs/MODE.yaml`, a LightningDataModule over synthetic or folder images, a small CNN
with torchmetrics accuracy and a callback logging image grids through the project's own wrapper), without reading
crashmatrix's rules, each with its truth from running it alone. Its runs were recorded once, before any rule
changed (recorded/heldout20/); here every recorded cell's stderr.log is diagnosed again with today's rules, in this
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

# (mode, aspect) -> what diagnose of the recorded logs says instead of the truth (HELDOUT20.md lists the run's)
UNTRUE = {
    ("g_cli_unknown_key", "outcome"): "no failure found: stderr.log holds jsonargparse's usage and `error: Subcommand "
    "'fit' does not accept option 'model.learning_rate'`, no traceback; the run (exit status 2) said fail, right",
    ("g_cli_unknown_key", "signature_has"): "no failure found, so no signature; the run's named the error line, right",
    ("g_cli_unknown_key", "where"): "no failure found; the run placed it at argparse.py:2617 in exit; "
    "/tmp/g_deps/jsonargparse/_core.py:1191 in error, no frame of the program's, untrue",
    ("g_thread_font_resource", "signature_has"): "RuntimeError: the grid writer thread failed in "
    "zoo/modes/g_thread_font_resource.py:main: the main's re-raise, not the thread's OSError: cannot open resource",
    ("g_thread_font_resource", "where"): "zoo/modes/g_thread_font_resource.py:49 in main, the main's re-raise; the "
    "thread's ImageFont.truetype at :22 in run failed first",
    ("g_child_export_ext", "signature_has"): "RuntimeError: grid exporter exited with code N in "
    "zoo/modes/g_child_export_ext.py:main: the main's check, not the child's ValueError: unknown file extension",
    ("g_child_export_ext", "where"): "zoo/modes/g_child_export_ext.py:30 in main, the main's check; the exporter "
    "child's grid.save at :19 in export failed first",
    ("g_hang_val_endless_stream", "where"): "no failure found: stderr.log holds only Lightning's start lines; the run "
    "read the stacks and named the main at zoo/modes/g_hang_val_endless_stream.py:17 in __iter__, right",
}
SET = HeldOut("heldout20", RUNS, UNTRUE)
told, test_every_mode_has_its_recorded_cells, test_diagnose_of_the_recorded_logs_gives_the_truth = SET.tests(
    modes_at_least=14
)
