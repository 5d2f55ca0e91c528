"""The code that runs inside a cell's processes: knobs, injection, stack dumps, import hooks, the loader
clock, the memory sampler, whole-or-absent files, and slurm_task (one rank of a distributed cell on Slurm,
run by srun as a file of its own).

Under `inject: true` it runs inside the user's own program: inject/sitecustomize.py loads this folder as
the private package `_crashmatrix` (this file is not run then), so nothing here may import anything but
the standard library and its siblings, relatively; torch only inside a function, once the program has
imported it. tests/test_house.py checks the rule. The controller may import from here; nothing here
imports the controller.
"""
