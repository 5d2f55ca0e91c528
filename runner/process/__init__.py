"""One cell run as a process: its launch, its process tree, and stopping it.

launch (argv without a shell, environment, working directory), supervise (a fresh process and its
whole tree, ended), stops (a session's running cells, stopped from any thread), interrupts (Ctrl-C
and a scheduler's stop), gpus (the GPU sets running cells take), package_path (crashmatrix on a
cell's PYTHONPATH), slurm_tasks (a distributed cell's ranks as one srun step, and its end).

Imports: rundir, matrix and below.
"""
