"""A run directory: the files a run writes and what a reader reads back.

store (matrix.yaml, env.json, results.csv, cells/), finished_run (a run read once, typed),
kept_matrix (the matrix kept in a run directory, for --resume and bisect RUN), kept_options (the options
kept beside it, options.json, read back by --resume; the resume command a run prints),
unwritable (a run directory that stops taking writes), cell_files (what a cell may write, and
where), cell_logs (a finished cell run's logs and report), rank_speed (a distributed cell's ranks'
figures), memory_file (the memory samples a cell left).

Imports: matrix, app (is the program a Hydra app) and the vocabulary.
"""
