"""Answers read from a finished table: explain (the conjunctions that separate failing cells from
passing ones) and compare (two machines' or two runs' tables side by side).

Imports: rundir, machine and below; never the engine (they run nothing).
"""
