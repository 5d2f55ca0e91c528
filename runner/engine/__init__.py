"""Running many cell runs: the local loop and the submitit executors.

loop (N supervised cells at once, each result recorded as it ends), executors (Slurm job arrays or
submitit's local executor), job (what a submitted job runs on its node), fleet (every cell on every
node: the nodes, their fingerprints, --max-failures per node).

Imports: verdict, process, rundir, machine, matrix and below.
"""
