"""What a cell's end means: from exit status and output to an outcome, a signature and a place.

parsed (a cell's output read once into evidence: tracebacks, dumps, launchers' and the DataLoader's
reports, CUDA's and Hydra's words, the known cause; the rules below read its facts), classify (outcome word,
signal, telling line), signature (a failure's identity across runs and
machines), forensics (where it hung or died, read from outside), exception_place (where an exception was raised,
from its traceback), app_paths (the program's files by their path from the app's root), stacks (a stack dump parsed: threads, frames, the
program's own frame, where a main thread waits), straggler (the rank a hung distributed cell waits for), evidence (what is kept at a cell's
launch for forensics: light, loaded before the first cell), gpu_logs and sync_rerun (a CUDA error
placed where it was launched, by a synchronous rerun), rank_ends (how each rank of a distributed cell
ended, and which failed first).

Imports: process (a cell's process tree), rundir and below.
"""
