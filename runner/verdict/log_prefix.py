"""A traceback a program's log formatter printed with its own prefix on every line, told as Python prints it.

`logger.exception(...)` under a formatter that prefixes each line of a record (`12:00:01 [MainProcess] ERROR | `,
a rank's `[rank1] 12:00:01 ERROR | `) prints a traceback whose lines all carry one text: logging formats a
record once. Pure: text in, text out (parsed.py and ranks.py read through it).
"""

from __future__ import annotations

import re

_TRACEBACK_HEAD = "Traceback (most recent call last):"
_HEAD_AFTER = re.compile(r"(?P<prefix>.*?)(?:Original )?Traceback \(most recent call last\):[ \t]*")
# torch's own label of a rank's lines (`[rank1]: `): verdict/ranks.py reads those apart, rank by rank
_RANK_LABEL = re.compile(r"\s*\[rank\d+\]: ?")


def unprefixed(text: str, keep_offsets: bool = False) -> str:
    """text with each prefixed traceback told as Python printed it: where a traceback's head follows a prefix
    that the next line carries too, that prefix taken off the run of lines around it that carry it. A prefix says
    something (a letter or a digit): not blanks or marks (a traceback quoted in a message, a comment's `# `, a
    reply's `> `, an exception group's box `  | `), nor a rank's `[rankN]: `
    label (verdict/ranks.py reads those). keep_offsets: each line keeps its length, the prefix's length in
    blanks at its end."""
    if _TRACEBACK_HEAD not in text:
        return text
    lines = text.split("\n")
    for i, line in enumerate(lines):
        head = _HEAD_AFTER.fullmatch(line) if _TRACEBACK_HEAD in line else None
        prefix = head["prefix"] if head else ""
        if not any(c.isalnum() for c in prefix) or i + 1 == len(lines) or not lines[i + 1].startswith(prefix):
            continue
        if _RANK_LABEL.fullmatch(prefix):
            continue
        first = i
        while first > 0 and lines[first - 1].startswith(prefix):
            first -= 1
        last = i
        while last + 1 < len(lines) and lines[last + 1].startswith(prefix):
            last += 1
        pad = " " * len(prefix) if keep_offsets else ""
        lines[first : last + 1] = [own[len(prefix) :] + pad for own in lines[first : last + 1]]
    return "\n".join(lines)
