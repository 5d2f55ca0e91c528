"""`crashmatrix hunt`: from a crash and a matrix of suspects to every failing conjunction.

verb (the command, with real cells), model (the cells, the suspected conjunctions, the runs seen),
localize (a posterior over a failing cell's suspects), search (which cells run next), text (the
answer in words and hunt.json).

Imports: engine, answers and below; not bisect.
"""
