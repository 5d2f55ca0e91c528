"""crashmatrix's controller, and the little that runs inside a cell. One concept per module; by role:

The matrix (what to run; pure, no processes):
    spec (matrix files, overrides, validation), cell (a configuration, its id and spelling),
    expand (product / include / exclude), pairwise (covering arrays), executor_settings,
    interpreters (the `python` axis), redaction (secrets never written), knob_names (`knobs`, a
    knob's typo under inject), override_keys (an override naming a key the matrix lacks).
Running (processes, files):
    runmatrix (`run`), rerun, engine (N supervised cells at once: the loop), launch (a cell's argv
    and environment), cell_logs (reading its logs and report), stops (a session's StopRegistry, and
    ExecutorOutcome: how a list of runs ended), supervise (one process tree), interrupts (Ctrl-C and
    a scheduler's stop), gpus, executors + job (submitit / Slurm),
    store (the run directory), fingerprint + pyfacts (env.json), gpus_here (the GPUs a cell would see),
    cell_files (what a cell may write, and where: its TMPDIR, WANDB_DIR, Hydra run directory).
Inside a cell: the subpackage incell (its __init__ says the rule: the standard library and itself only)
    knobs (applied in one order), injection (`inject: true`), inject/sitecustomize, stackdump,
    importhook, loader_clock, atomic (whole-or-absent files, the controller's too);
    child (a probe's entry point) stays out here: it loads the probes.
What happened (pure, from exit status and output):
    outcome (the words, what counts as failing), classify, signature, forensics (where it hung or
    died, read from outside).
Reading results (a run read once as a finished_run.FinishedRun):
    report (progress, summary), text, axis_values, pivot (`report --by`), report_html +
    report_explain (its explain section and caveats) + report_chart + short_labels, junit,
    compare, explain, show.
Bisecting:
    bisect_matrix (`bisect` with real cells), delta_debug (the search, over an injected test),
    run_cache, failure_rate (statistics), bisect_result, bisect_text.
Your own app:
    init_matrix (`init`), hydra_compose (its child), config_groups (the app's groups, their suspects),
    device_asks (what its config asks of the GPUs), code_knobs (DataLoader knobs its code sets).
The command line: cli (parse, validate, call, print) and __main__.
"""

import os as _os

# A source checkout keeps probes/ beside runner/ (pyproject's package-dir maps it to
# crashmatrix.probes); installed, it sits inside this folder. Reached through a plain path
# rather than the editable install's finder (a cell under another interpreter), the sibling
# must be searched too.
_here = _os.path.realpath(__path__[0])
if _os.path.basename(_here) == "runner" and _os.path.isfile(_os.path.join(_here, "..", "probes", "__init__.py")):
    __path__.append(_os.path.dirname(_here))
