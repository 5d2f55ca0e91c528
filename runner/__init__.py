"""crashmatrix's controller, and the little that runs inside a cell. One concept per subpackage,
layered: a module imports only its own layer and the ones below (tests/test_house.py; docs/house.md
draws it). Lowest first:

    incell      what runs inside a cell: the standard library and itself only
    (top)       the vocabulary: errors, text, plain_text, cell, outcome, redaction, axis_values
    matrix      what to run, pure: spec, expand, pairwise, app_args, knob_names, show, ...
    app         the user's Hydra app, read and composed: init_matrix, config_groups, device_asks,
                code_knobs, preflight
    machine     env.json's fingerprint: fingerprint, pyfacts, facts_cache, gpu_arch, gpus_here
    rundir      the run directory: store, finished_run, kept_matrix, unwritable, cell_files, cell_logs
    process     one cell run as a process: launch, supervise, stops, interrupts, gpus
    verdict     what a cell's end means: classify, signature, forensics, gpu_logs, sync_rerun
    engine      many cell runs: loop, executors (submitit, Slurm), job
    answers     read from a finished table: explain, compare, compare_speed
    bisect      `bisect`: verb, delta_debug, run_cache, failure_rate, result, text
    hunt        `hunt`: verb, model, localize, search, text
    resolve     `resolve`: failures, configs, defaults, choose, unsure, apply, note, repro, issue, verb
    report      what a person reads: summary, html, html_explain, chart, short_labels, pivot, junit
    (top)       the verbs that run a matrix: runmatrix (`run`), rerun
    (top)       entry points: cli, __main__, child (a probe cell's process)

The folder is runner/ and the import name crashmatrix: docs/house.md says why.
"""

import os as _os

# A source checkout keeps probes/ beside runner/ (pyproject's package-dir maps it to
# crashmatrix.probes); installed, it sits inside this folder. Reached through a plain path
# rather than the editable install's finder (a cell under another interpreter), the sibling
# must be searched too.
_here = _os.path.realpath(__path__[0])
if _os.path.basename(_here) == "runner" and _os.path.isfile(_os.path.join(_here, "..", "probes", "__init__.py")):
    __path__.append(_os.path.dirname(_here))
