"""A traceback loguru printed (`logger.exception`, `@logger.catch`), told as Python prints it. Pure: text in, text out.

loguru (0.7 measured) prints Python's head and frames, but marks the frame where the exception was caught with
`> File ...` where Python indents `  File ...`, and with `diagnose=True` (its default) writes each frame's values
under its code on lines of its own (`           │    └ "{'cat': 1}"`), a blank line between frames:

    Traceback (most recent call last):

    > File "/app/train.py", line 20, in <module>
        main()
        └ <function main at 0x7f307ddc8540>

      File "/app/train.py", line 11, in load_labels
        return json.loads(text)

    json.decoder.JSONDecodeError: Expecting property name enclosed in double quotes: line 1 column 2 (char 1)

The marker read as the exception's line (it is not indented), the values read as code.
"""

from __future__ import annotations

import re

_HEAD = "Traceback (most recent call last):"
_MARKED = re.compile(r"^> (File \".*\", line \d+, in .*)$")
_VALUES = re.compile(r"^\s+[│└]")  # loguru's values under a frame's code


def unmarked(text: str) -> str:
    """text with each traceback loguru marked told as Python prints it; the rest as it is."""
    if '> File "' not in text:
        return text
    lines, out, i = text.split("\n"), [], 0
    while i < len(lines):
        out.append(lines[i])
        i += 1
        if not out[-1].rstrip().endswith(_HEAD) or not _loguru_frames_follow(lines, i):
            continue
        while i < len(lines):
            line = lines[i]
            marked = _MARKED.match(line)
            if marked:
                out.append(f"  {marked[1]}")
            elif not line.strip():
                pass  # loguru's between frames, and before the exception's line
            elif not _VALUES.match(line):
                if not line[:1].isspace():
                    break  # the exception's line
                out.append(line)
            i += 1
    return "\n".join(out)


def _loguru_frames_follow(lines: list[str], i: int) -> bool:
    """Whether a frame comes next, past blank lines: loguru's marked one or an indented one."""
    while i < len(lines) and not lines[i].strip():
        i += 1
    return i < len(lines) and (bool(_MARKED.match(lines[i])) or lines[i].startswith('  File "'))
