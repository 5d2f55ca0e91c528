"""The user's own Hydra app, read and composed before any cell runs.

hydra_main (whether a file is a Hydra app, and the config it names; read with ast), config_groups
(its config groups and their suspects), init_matrix (`crashmatrix init`), hydra_compose (init's
child), device_asks (what its config asks of the GPUs), code_knobs (DataLoader knobs its code sets,
read with ast), preflight and preflight_child (every cell's overrides composed once, before the
first cell: an override the app would refuse ends the command first).

Imports: matrix and the vocabulary.
"""
