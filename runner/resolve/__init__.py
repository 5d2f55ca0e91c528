"""`crashmatrix resolve RUN`: from a finished run to the fix: what to run instead, and a bug report per failure.

One concept per module: failures.py (the failing conjunctions, explain's or hunt's, with their rate,
confidence and masking), configs.py (each configuration's runs and speed), defaults.py (the program's own
values), choose.py (what to run instead, what it costs, and what the run cannot tell yet), apply.py (how to
set it: the program's keys, the knobs), note.py (resolution.md and the terminal's lines), repro.py and
issue.py (repro/<signature>/), culprit.py (whose bug a failure's stack points to, and its version),
machines.py (a fleet's failures that need a node: the machine's to fix), files.py (resolve's file names and
the pointer other readers print), verb.py (ties them together and writes the files). DESIGN.md has the
files' contract; docs/resolve.md says how it decides.
"""
