"""The forward call torch's anomaly detection names for a backward that failed (pure; never imports torch).

Under `torch.autograd.set_detect_anomaly(True)` a backward that fails (a node that returned nan, a saved tensor
changed in place) first warns `Error detected in LogBackward0. Traceback of forward call that caused the error:`
with the stack of the forward call that made that node; then the error is raised at the program's
`loss.backward()`, which is the row's `where`. The forward's line is where the fix usually goes (the `log` of a
zero, the in-place edit): that is the point of anomaly mode, so ISSUE.md names it beside `where`.
"""

from __future__ import annotations

import re

from crashmatrix.verdict.parsed import FRAME
from crashmatrix.verdict.stacks import Frame, is_programs, program_place

_HEAD = re.compile(r"Error detected in (?P<node>\w+)\. Traceback of forward call that caused the error:\s*$")


def forward_call(stderr: str, error: str) -> tuple[str, str, str]:
    """(the failing node, `app/loop.py:35 in fit`, its source line) of the last anomaly warning for the node the
    error names (`Function 'LogBackward0' returned nan values`), whose forward stack holds a frame of the
    program; ("", "", "") where there is none. A warning for another node (one the program caught and went on
    from) or an error that names none is no lead."""
    lines = stderr.splitlines()
    for at in range(len(lines) - 1, -1, -1):
        head = _HEAD.search(lines[at])
        if head is None or not re.search(rf"\b{re.escape(head['node'])}\b", error):
            continue
        frames, code = _stack(lines[at + 1 :])
        own = [i for i, frame in enumerate(frames) if is_programs(frame)]
        if own:
            innermost = own[-1]
            return head["node"], program_place(frames[innermost], frames[::-1]), code[innermost]
    return "", "", ""


def _stack(lines: list[str]) -> tuple[list[Frame], list[str]]:
    """The frames (outermost first) of the forward traceback lines start with, each with its source line."""
    frames: list[Frame] = []
    code: list[str] = []
    for line in lines:
        frame = FRAME.match(line)
        if frame:
            frames.append(Frame(frame["func"], frame["file"], frame["line"]))
            code.append("")
        elif frames and line.startswith("    ") and not code[-1]:
            code[-1] = line.strip()
        else:
            break
    return frames, code
