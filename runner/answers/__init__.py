"""Answers read from a finished table: explain (the conjunctions that separate failing cells from
passing ones), compare (two machines' or two runs' tables side by side) and compare_speed (the
cells that passed in both and moved by more than 20% and their spread), set_apart (what some machines
share and no other has, from their fingerprints: a fleet's odd node, compare's odd run), slow (the
conjunction whose cells are much slower than the rest, through explain's search: a finding beyond failure).

Imports: rundir, machine and below; never the engine (they run nothing).
"""
