"""The zoo's programs. `imports_settled()` is the harness's, not any mode's: see its docstring."""

import gc


def imports_settled() -> None:
    """Move every object alive now (torch's modules and their tables, about a million) out of the collector's
    way, once the mode's imports are done.

    Each full collection, and the interpreter's own at exit, traced them all again: 12% of six torch modes'
    CPU, up to a quarter of one's (tests/zoo/README.md), in a suite bound by CPU. Objects made afterwards are
    collected as ever, and no mode's failure depends on the collector: test_zoo.py checks every truth on
    every run, and each was run alone again with this in place.
    """
    gc.freeze()
