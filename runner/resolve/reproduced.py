"""Whether a repro matrix's run brought its failure back: `reproduced` only when the same kind (outcome,
signal, signature) came back, never because the runs failed some other way (a script not found, a rank
that could not connect). Kept apart from the verb so that `run` loads nothing else of resolve.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from crashmatrix.outcome import FailureKind


def reproduction_line(reproduces: Mapping, rows: Sequence[Mapping]) -> str:
    """`reproduced: 3 of 3 runs failed with <kind>` or `not reproduced: ...`, with how the others ended."""
    wanted = FailureKind(
        str(reproduces.get("outcome", "")), str(reproduces.get("signal", "")), str(reproduces.get("signature", ""))
    )
    kinds = [FailureKind.from_row(row) for row in rows if not FailureKind.from_row(row).is_run_error]
    same = sum(1 for k in kinds if k == wanted)
    others = Counter(k for k in kinds if k != wanted)
    other_text = "; ".join(
        f"{n} {'passed' if k.is_pass else 'failed another way: ' + k.label(None)}" for k, n in others.most_common()
    )
    if same:
        line = f"reproduced: {same} of {len(kinds)} runs failed with {wanted.label(None)}"
        return line + (f" (the others: {other_text})" if others else "")
    return f"not reproduced: none of {len(kinds)} runs failed with {wanted.label(None)}" + (
        f"; {other_text}" if others else ""
    )
