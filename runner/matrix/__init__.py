"""The matrix: what to run, pure (no processes, no files but the matrix file).

spec (matrix files, overrides, validation into a frozen Matrix), expand (product, include, exclude),
pairwise (covering arrays), app_args (how a cell's values reach a program: Hydra's grammar),
executor_settings, interpreters (the `python` axis), knob_names (the knobs, split from the program's
own keys), override_keys and whole_keys (overrides of the matrix file), program (the program a matrix
runs, found before any cell starts), show (`crashmatrix show`).

Imports: the top-level vocabulary (cell, errors, redaction, ...) and incell's knob list only.
"""
