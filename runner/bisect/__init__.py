"""`crashmatrix bisect`: from a passing configuration to the minimal change that still fails.

verb (the command, with real cells), delta_debug (the search, over an injected test), run_cache
(every run cached per configuration), failure_rate (how many clean runs make a pass), result and
text (the answer, in words and bisect.json). Along a numeric axis the failure follows (`bisect RUN`):
axis_order (does the table order it), boundary (the binary search, over an injected test),
memory_scale (MB per unit, what fits a budget), boundary_run (with real cells). cell_run: one
configuration run as a cell, for both searches.

Imports: answers (explain), engine and below.
"""
