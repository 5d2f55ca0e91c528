"""`crashmatrix bisect`: from a passing configuration to the minimal change that still fails.

verb (the command, with real cells), delta_debug (the search, over an injected test), run_cache
(every run cached per configuration), failure_rate (how many clean runs make a pass), result and
text (the answer, in words and bisect.json).

Imports: answers (explain), engine and below.
"""
